package meta

import "slices"

// CheckMeta checks a meta line's words as internal/command's CheckMeta
// does once it has taken agsh's --output and --yes out (the tests here
// give no --output).
func CheckMeta(argv []string) error {
	m, ok := LookupMeta(argv[0])
	if !ok {
		return Usagef("unknown meta command %q; :help lists them", argv[0])
	}
	args := argv[1:]
	if end := slices.Index(args, "--"); end >= 0 {
		args = append(slices.DeleteFunc(slices.Clone(args[:end]), func(a string) bool { return a == "--yes" }), args[end:]...)
	} else {
		args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--yes" })
	}
	return m.CheckArgs(args)
}

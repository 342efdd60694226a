package generated

import "strings"

// reservedFlags are the spellings every command keeps for agsh itself
// (../shared/spec/cli.md, "Global options"). A tool property never takes one.
var reservedFlags = [...]string{"-h", "--help", "--target", "--team", "--bearer-token", "--session", "--continuation-token", "--output"}

// globalsWithValue are the reserved options that take a value.
var globalsWithValue = [...]string{"--target", "--team", "--bearer-token", "--session", "--continuation-token", "--output"}

// connectionOptions are the reserved options that choose the deployment,
// the credential or the session, and what each is, for messages.
var connectionOptions = map[string]string{
	"--target":             "deployment option",
	"--team":               "team option",
	"--bearer-token":       "credential option",
	"--session":            "session option",
	"--continuation-token": "session option",
}

func isGlobalWithValue(name string) bool {
	for _, g := range globalsWithValue {
		if g == name {
			return true
		}
	}
	return false
}

// Kebab turns a property name into the kebab-case used for flags:
// "perPage" → "per-page", "HTTPServer" → "http-server", "URLs" → "urls",
// "$filter" → "filter"; an empty result becomes "arg".
func Kebab(name string) string {
	r := []rune(name)
	var b strings.Builder
	b.Grow(len(name) + 4)
	for i, c := range r {
		if i > 0 && isUpper(c) {
			prev := r[i-1]
			switch {
			case isLower(prev) || isDigit(prev):
				b.WriteByte('-')
			case isUpper(prev) && startsLowerWord(r[i+1:]):
				b.WriteByte('-')
			}
		}
		b.WriteRune(c)
	}
	return squeeze(strings.ToLower(b.String()))
}

// startsLowerWord reports whether r begins with two or more lowercase letters.
func startsLowerWord(r []rune) bool {
	return len(r) >= 2 && isLower(r[0]) && isLower(r[1])
}

func isUpper(c rune) bool { return c >= 'A' && c <= 'Z' }
func isLower(c rune) bool { return c >= 'a' && c <= 'z' }
func isDigit(c rune) bool { return c >= '0' && c <= '9' }

// squeeze maps every character outside a-z0-9 to '-', squeezes runs of '-',
// trims them at both ends and gives "arg" for an empty result.
func squeeze(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	dash := false
	for _, c := range s {
		if isLower(c) || isDigit(c) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "arg"
	}
	return b.String()
}

// literalFlag reports whether a top-level property name is already shaped
// like a flag and keeps its spelling: "-X" (one letter or digit) or "--x…"
// (a-z or 0-9, then a-z, 0-9 and '-').
func literalFlag(name string) bool {
	if len(name) == 2 && name[0] == '-' {
		c := rune(name[1])
		return isLower(c) || isUpper(c) || isDigit(c)
	}
	if len(name) < 3 || !strings.HasPrefix(name, "--") {
		return false
	}
	if c := rune(name[2]); !isLower(c) && !isDigit(c) {
		return false
	}
	for _, c := range name[3:] {
		if !isLower(c) && !isDigit(c) && c != '-' {
			return false
		}
	}
	return true
}

// isShort reports whether a flag spelling is a one-letter short flag.
func isShort(name string) bool { return len(name) == 2 && name[0] == '-' && name[1] != '-' }

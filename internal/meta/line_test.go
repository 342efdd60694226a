package meta

import (
	"context"
	"slices"
	"testing"
)

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

// TestExecRegisteredRun: a row without its Run runs the one its file
// registered (a Run that looks its row up cannot be in the row).
func TestExecRegisteredRun(t *testing.T) {
	registerRun(":x-test", func(context.Context, *MetaRun, []string) (MetaResult, error) {
		return MetaResult{Status: 7}, nil
	})
	defer delete(runs, ":x-test")
	row := MetaCommand{Name: ":x-test"}
	if res, err := row.Exec(context.Background(), &MetaRun{}, nil); err != nil || res.Status != 7 {
		t.Errorf("Exec = %+v, %v", res, err)
	}
	if _, err := (&MetaCommand{Name: ":none"}).Exec(context.Background(), &MetaRun{}, nil); err == nil {
		t.Error("a row without a Run ran")
	}
}

package testtier

import "testing"

// fakeT records what Big does to a test of a given name.
type fakeT struct {
	testing.TB
	name           string
	fatal, skipped bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Name() string          { return f.name }
func (f *fakeT) Fatalf(string, ...any) { f.fatal = true }
func (f *fakeT) Skip(...any)           { f.skipped = true }

func TestBigNames(t *testing.T) {
	for _, c := range []struct {
		name  string
		fatal bool
	}{
		{"TestStreamBig", false},
		{"TestStreamBig/a_case", false},
		{"TestStream", true},
		{"TestStream/caseBig", true},
	} {
		f := &fakeT{name: c.name}
		Big(f)
		if f.fatal != c.fatal {
			t.Errorf("%s: failed %v, want %v", c.name, f.fatal, c.fatal)
		}
		if !f.fatal && f.skipped != Race {
			t.Errorf("%s: skipped %v in a build with race %v", c.name, f.skipped, Race)
		}
	}
}

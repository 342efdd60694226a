// Package testcorpus is the one locator of the fixtures the corpus-driven
// tests read. The repository's own tool definitions (testdata/schemas, written
// for this project) are always there; the shared corpus of real definitions
// beside the repository (../shared/corpus, other projects' text, never copied
// in) is an extra sweep: absent, it is skipped on a developer's machine and a
// failure in CI (CI=true). The same goes for the specification pages beside
// it that docs/ was written from (SpecFile). Only tests import this package,
// and no other file of the repository names the shared folder.
package testcorpus

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Root answers the repository's root: the nearest directory above the
// working directory that holds go.mod.
func Root(tb testing.TB) string {
	tb.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("testcorpus: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Testdata answers a path under the repository's testdata/ folder.
func Testdata(tb testing.TB, elem ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{Root(tb), "testdata"}, elem...)...)
}

// SharedDir answers ../shared/<elem> beside the repository (AGSH_SHARED
// overrides ../shared; AGSH_CORPUS overrides ../shared/corpus itself) and
// whether it exists, without skipping.
func SharedDir(tb testing.TB, elem ...string) (string, bool) {
	tb.Helper()
	var dir string
	if d := os.Getenv("AGSH_CORPUS"); d != "" && len(elem) == 1 && elem[0] == "corpus" {
		dir = d
	} else {
		base := os.Getenv("AGSH_SHARED")
		if base == "" {
			base = filepath.Join(filepath.Dir(Root(tb)), "shared")
		}
		dir = filepath.Join(append([]string{base}, elem...)...)
	}
	_, err := os.Stat(dir)
	return dir, err == nil
}

// Shared answers ../shared/<elem> beside the repository. When it is absent
// the test is skipped, or fails when CI=true: CI always runs the extra sweep.
func Shared(tb testing.TB, elem ...string) string {
	tb.Helper()
	dir, ok := SharedDir(tb, elem...)
	if !ok {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("%s is missing; CI runs the shared sweep (set AGSH_SHARED or AGSH_CORPUS)", dir)
		}
		tb.Skipf("%s is absent: the shared sweep is skipped outside CI (the testdata/ run covers the rules)", dir)
	}
	return dir
}

// SpecFile answers the page name of the specification the repository's docs/
// were written from, ../shared/spec/<name> beside the repository, for the
// contract tests that compare docs/ or the code with it. Absent, the test is
// skipped, or fails when CI=true, as with Shared.
func SpecFile(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(Shared(tb, "spec"), name)
}

// Schemas answers the repository's own tool definitions, laid out like the
// shared corpus: testdata/schemas/<server>/<tool>.json.
func Schemas(tb testing.TB) string {
	tb.Helper()
	return Testdata(tb, "schemas")
}

// Set is one folder of tool definitions: Name is "testdata" or "corpus".
type Set struct {
	Name string
	Dir  string
}

// Each runs fn as two subtests: "testdata" over testdata/schemas (always)
// and "corpus" over the shared corpus (the extra sweep, see Shared).
func Each(t *testing.T, fn func(t *testing.T, s Set)) {
	t.Helper()
	t.Run("testdata", func(t *testing.T) {
		fn(t, Set{Name: "testdata", Dir: Schemas(t)})
	})
	t.Run("corpus", func(t *testing.T) {
		fn(t, Set{Name: "corpus", Dir: Shared(t, "corpus")})
	})
}

// Available answers the sets present, testdata first, for benchmarks and
// fuzz seeds (which neither skip nor fail over a missing corpus).
func Available(tb testing.TB) []Set {
	tb.Helper()
	sets := []Set{{Name: "testdata", Dir: Schemas(tb)}}
	if dir, ok := SharedDir(tb, "corpus"); ok {
		sets = append(sets, Set{Name: "corpus", Dir: dir})
	}
	return sets
}

// Files answers dir/*/*.json, sorted; none is a failure (a set that exists
// must hold definitions).
func Files(tb testing.TB, dir string) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no tool definitions in %s/*/*.json (%v)", dir, err)
	}
	sort.Strings(files)
	return files
}

// Folders answers the subfolders of dir (one per server), sorted.
func Folders(tb testing.TB, dir string) []string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		tb.Fatalf("no server folders in %s", dir)
	}
	return out
}

package testcorpus

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSchemasPresent(t *testing.T) {
	files := Files(t, Schemas(t))
	if len(files) < 40 {
		t.Errorf("testdata/schemas holds %d definitions; the fixtures cover more", len(files))
	}
}

func TestSharedMissing(t *testing.T) {
	t.Setenv("AGSH_SHARED", filepath.Join(t.TempDir(), "nowhere"))
	t.Setenv("AGSH_CORPUS", "")
	if _, ok := SharedDir(t, "corpus"); ok {
		t.Fatal("a missing shared folder was reported present")
	}
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		ft := &fakeTB{TB: t}
		func() {
			defer func() { _ = recover() }()
			Shared(ft, "corpus")
		}()
		if ci == "true" && !ft.failed || ci == "" && !ft.skipped {
			t.Errorf("CI=%q: failed %v skipped %v", ci, ft.failed, ft.skipped)
		}
	}
}

func TestSharedOverride(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "spec"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AGSH_SHARED", dir)
	if got := Shared(t, "spec"); got != filepath.Join(dir, "spec") {
		t.Errorf("Shared = %s", got)
	}
}

// fakeTB records a Fatal or Skip instead of ending the test.
type fakeTB struct {
	testing.TB
	failed, skipped bool
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(string, ...any) {
	f.failed = true
	panic("fatal")
}
func (f *fakeTB) Skipf(string, ...any) {
	f.skipped = true
	panic("skip")
}

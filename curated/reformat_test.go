package curated

import (
	"reflect"
	"testing"
)

func TestReformatRead(t *testing.T) {
	cases := []struct {
		name, in string
		want     Output
		ok       bool
	}{
		{"empty file", "File is empty.", Output{}, true},
		{"trailing newline", "     1|a\n     2|b\n     3|", Output{Stdout: "a\nb\n"}, true},
		{"no trailing newline", "     1|a\n     2|b", Output{Stdout: "a\nb"}, true},
		{"pipes in text", "     1|x|y|", Output{Stdout: "x|y|"}, true},
		{"empty line kept", "     1|\n     2|b", Output{Stdout: "\nb"}, true},
		{"limit notice", "     5|e\n     6|f\n\n[4 more lines in file. Use offset=7 to continue.]",
			Output{Stdout: "e\nf\n", Notes: []string{"[4 more lines in file. Use --offset 7 to continue.]"}}, true},
		{"size notice", "     1|a\n\n[Showing lines 1-1 of 9000. Use offset=2 to continue.]",
			Output{Stdout: "a\n", Notes: []string{"[Showing lines 1-1 of 9000. Use --offset 2 to continue.]"}}, true},
		{"seven digit numbers", "1000000|x", Output{Stdout: "x"}, true},
		{"not numbered", "hello", Output{}, false},
		{"error text", "No such file or directory: /repo/x", Output{}, false},
		{"bad number", "   1a|x", Output{}, false},
		{"bracket not a notice", "     1|a\n\n[note]", Output{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ReformatRead(c.in, false)
			if ok != c.ok || (ok && !reflect.DeepEqual(got, c.want)) {
				t.Errorf("ReformatRead(%q) = %#v, %v; want %#v, %v", c.in, got, ok, c.want, c.ok)
			}
		})
	}
}

func TestReformatLs(t *testing.T) {
	cases := []struct {
		name, in string
		want     Output
		ok       bool
	}{
		{"tree", "- /repo/\n  - cmd/\n    - agsh/\n      [3 files in subtree: 3 *.go]\n  - go.mod\n  - README.md",
			Output{Stdout: "cmd/\ngo.mod\nREADME.md\n"}, true},
		{"empty dir", "- /repo/empty/", Output{}, true},
		{"more entries", "- /repo/\n  - a\n  [12 more entries]",
			Output{Stdout: "a\n", Notes: []string{"[12 more entries]"}}, true},
		{"trailing newline tolerated", "- /repo/\n  - a\n", Output{Stdout: "a\n"}, true},
		{"root", "- /\n  - repo/", Output{Stdout: "repo/\n"}, true},
		{"no header", "  - a", Output{}, false},
		{"odd indent", "- /repo/\n   - a", Output{}, false},
		{"unknown row", "- /repo/\n  * a", Output{}, false},
		{"error text", "Not a directory: /repo/a.txt", Output{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ReformatLs(c.in)
			if ok != c.ok || (ok && !reflect.DeepEqual(got, c.want)) {
				t.Errorf("ReformatLs(%q) = %#v, %v; want %#v, %v", c.in, got, ok, c.want, c.ok)
			}
		})
	}
}

func TestReformatGrep(t *testing.T) {
	cases := []struct {
		name, in string
		context  bool
		want     Output
		ok       bool
	}{
		{"content", "Found 3 matching lines\nsrc/a.go\n3:x\n9:y\n\nb.txt\n1:z", false,
			Output{Stdout: "src/a.go:3:x\nsrc/a.go:9:y\nb.txt:1:z\n"}, true},
		{"one line", "Found 1 matching line\na\n1:x", false, Output{Stdout: "a:1:x\n"}, true},
		{"context groups", "Found 2 matching lines\na\n2-b\n3:c\n4-d\n8-h\n9:i\n\nz\n1:x\n2-y", true,
			Output{Stdout: "a-2-b\na:3:c\na-4-d\n--\na-8-h\na:9:i\n--\nz:1:x\nz-2-y\n"}, true},
		{"adjacent groups merge", "Found 2 matching lines\na\n2:b\n3:c", true,
			Output{Stdout: "a:2:b\na:3:c\n"}, true},
		{"no separator without context", "Found 2 matching lines\na\n2:b\n\nb\n3:c", false,
			Output{Stdout: "a:2:b\nb:3:c\n"}, true},
		{"dash in text", "Found 1 matching line\na\n7:x-1:y", false, Output{Stdout: "a:7:x-1:y\n"}, true},
		{"files", "Found 2 files\na.go\nb/c.go", false, Output{Stdout: "a.go\nb/c.go\n"}, true},
		{"one file", "Found 1 file\na.go", false, Output{Stdout: "a.go\n"}, true},
		{"count", "Found 5 matching lines across 2 files\na.go:3\nb.go:2", false, Output{Stdout: "a.go:3\nb.go:2\n"}, true},
		{"at least", "Found at least 2 matching lines\na\n1:x\n2:y", false,
			Output{Stdout: "a:1:x\na:2:y\n", Notes: []string{"note: Found at least 2 matching lines (the head limit cut the result)"}}, true},
		{"no match", "No matches found", false, Output{Status: 1}, true},
		{"garbage", "something else", false, Output{}, false},
		{"bad content line", "Found 1 matching line\na\nx:y", false, Output{}, false},
		{"bad count line", "Found 1 matching lines across 1 files\na.go", false, Output{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ReformatGrep(c.in, c.context)
			if ok != c.ok || (ok && !reflect.DeepEqual(got, c.want)) {
				t.Errorf("ReformatGrep(%q) = %#v, %v; want %#v, %v", c.in, got, ok, c.want, c.ok)
			}
		})
	}
}

func TestReformatGlobAndDiff(t *testing.T) {
	got, ok := ReformatGlob("Result of search in '/repo' (total 2 files):\n- b.go\n- a/a.go")
	if !ok || got.Stdout != "b.go\na/a.go\n" {
		t.Errorf("glob: %#v %v", got, ok)
	}
	got, ok = ReformatGlob("Result of search in '/repo' (total 0 files):")
	if !ok || got.Stdout != "" {
		t.Errorf("glob empty: %#v %v", got, ok)
	}
	if _, ok := ReformatGlob("Result of search in '/repo' (total 1 file):\nb.go"); ok {
		t.Error("glob accepted a row without '- '")
	}
	d := "diff --git a/x b/x\n-a\n+b\n"
	if got, ok := Reformat("diff", d, ReformatOptions{}); !ok || got.Stdout != d {
		t.Errorf("diff: %#v %v", got, ok)
	}
	if _, ok := Reformat("cat", "x", ReformatOptions{}); ok {
		t.Error("Reformat accepted an unknown command")
	}
}

package fstools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

func TestLs(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"README.md": "", "go.mod": "", "cmd/agsh/main.go": "", "cmd/agsh/run.go": "", "Zeta/": "",
		"go/x.go": "", "apple": "", "Banana.txt": "", ".git/config": "", ".env": "",
		".gitignore": "*.log\nvendor/\n", "debug.log": "", "vendor/v.go": "",
		"src/.gitignore": "gen/\n!keep.log\n", "src/keep.log": "", "src/a.ts": "", "src/gen/g.ts": "",
		"src/empty/": "",
	})
	ts := toolSet(dir, tool.Mount{Path: "/data", Dir: writeTree(t, map[string]string{"d.csv": ""})})
	tests := []struct{ name, in, want string }{
		{"root", `{"target_directory":"/repo"}`, `- /repo/
  - apple
  - Banana.txt
  - cmd/
    - agsh/
      - main.go
      - run.go
  - go.mod
  - go/
    - x.go
  - README.md
  - src/
    - a.ts
    - empty/
    - keep.log
  - Zeta/`},
		{"relative subdir", `{"target_directory":"src"}`, "- /repo/src/\n  - a.ts\n  - empty/\n  - keep.log"},
		{"trailing slash", `{"target_directory":"/repo/cmd/"}`, "- /repo/cmd/\n  - agsh/\n    - main.go\n    - run.go"},
		{"empty dir", `{"target_directory":"/repo/src/empty"}`, "- /repo/src/empty/"},
		{"ignore_globs", `{"target_directory":"/repo","ignore_globs":["*.go","src","Z*/"]}`, `- /repo/
  - apple
  - Banana.txt
  - cmd/
    - agsh/
  - go.mod
  - go/
  - README.md`},
		{"ignore_globs anchored form", `{"target_directory":"/repo","ignore_globs":["**/cmd/agsh/*.go"]}`, `- /repo/
  - apple
  - Banana.txt
  - cmd/
    - agsh/
  - go.mod
  - go/
    - x.go
  - README.md
  - src/
    - a.ts
    - empty/
    - keep.log
  - Zeta/`},
		{"explicit ignored dir", `{"target_directory":"/repo/vendor"}`, "- /repo/vendor/\n  - v.go"},
		{"virtual root", `{"target_directory":"/","ignore_globs":["repo"]}`, "- /\n  - data/\n    - d.csv"},
		{"mount", `{"target_directory":"/data"}`, "- /data/\n  - d.csv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustText(t, ts, "ls", tt.in); got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	for in, want := range map[string]string{
		`{"target_directory":"/repo/go.mod"}`:  "Not a directory: /repo/go.mod",
		`{"target_directory":"/repo/nope"}`:    "No such file or directory: /repo/nope",
		`{"target_directory":"/repo/../../x"}`: "Path is outside the workspace: /x",
	} {
		if o := run(t, ts, "ls", in); !o.isError || o.text != want {
			t.Errorf("ls %s = %q (isError %v), want %q", in, o.text, o.isError, want)
		}
	}
}

func TestLsBudget(t *testing.T) {
	files := map[string]string{"small/a.go": "", "small/b.md": "", "tiny.txt": ""}
	for i := range 1200 {
		ext := []string{".go", ".go", ".md", ""}[i%4]
		files[fmt.Sprintf("big/sub%d/file_%04d%s", i%2, i, ext)] = ""
	}
	got := mustText(t, toolSet(writeTree(t, files)), "ls", `{"target_directory":"/repo"}`)
	want := `- /repo/
  - big/
    - sub0/
      [600 files in subtree: 300 *.go, 300 *.md]
    - sub1/
      [600 files in subtree: 300 *.go, 300 *no-ext]
  - small/
    - a.go
    - b.md
  - tiny.txt`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	greedy := map[string]string{"c/f.txt": ""}
	for i := range 400 {
		greedy[fmt.Sprintf("a/file%04d.txt", i)] = ""
	}
	for i := range 150 {
		greedy[fmt.Sprintf("b/file%04d.txt", i)] = ""
	}
	got = mustText(t, toolSet(writeTree(t, greedy)), "ls", `{"target_directory":"/repo"}`)
	if n := len(got) - len("- /repo/"); n > lsBudget ||
		!strings.Contains(got, "\n    - file0399.txt\n  - b/\n    [150 files in subtree: 150 *.txt]\n  - c/\n    - f.txt") {
		t.Fatalf("greedy breadth-first expansion within the budget broke (%d bytes):\n%.300s", n, got[len(got)-300:])
	}

	// Collapsed one level up when even the subdirectories' rows do not fit.
	files = map[string]string{"z.txt": ""}
	for i := range 700 {
		files[fmt.Sprintf("d%03d/f.go", i)] = ""
	}
	got = mustText(t, toolSet(writeTree(t, files)), "ls", `{"target_directory":"/repo"}`)
	if !strings.Contains(got, "\n  - d000/\n    [1 files in subtree: 1 *.go]\n  - d001/") || !strings.HasSuffix(got, "\n  - z.txt") {
		t.Fatalf("want each directory collapsed to a summary:\n%.400s", got)
	}
	if strings.Contains(got, "- f.go") {
		t.Fatalf("a directory was expanded past the budget")
	}
}

func TestLsMoreEntries(t *testing.T) {
	dir := t.TempDir()
	for i := range 1000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "zdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := mustText(t, toolSet(dir), "ls", `{"target_directory":"/repo"}`)
	// Each row "  - f0000.txt\n" is 14 bytes: 714 fit in 10,000.
	var b strings.Builder
	b.WriteString("- /repo/")
	for i := range 714 {
		fmt.Fprintf(&b, "\n  - f%04d.txt", i)
	}
	b.WriteString("\n  [287 more entries]")
	if got != b.String() {
		t.Fatalf("got tail %q\nwant tail %q", got[len(got)-60:], b.String()[b.Len()-60:])
	}
}

func TestLsSummaryTopThree(t *testing.T) {
	n := &lsNode{files: 12, exts: map[string]int{"*.go": 7, "*.md": 3, "*no-ext": 2, "*.c": 2, "*.a": 1}}
	if got, want := n.summary(), "[12 files in subtree: 7 *.go, 3 *.md, 2 *.c]"; got != want {
		t.Fatalf("summary %q, want %q", got, want)
	}
	for name, want := range map[string]string{"Makefile": "*no-ext", "a.tar.gz": "*.gz", "x.": "*no-ext", "a.GO": "*.GO"} {
		if got := extLabel(name); got != want {
			t.Errorf("extLabel(%q) = %q, want %q", name, got, want)
		}
	}
}

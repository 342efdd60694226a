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
	long := strings.Repeat("n", 70)
	for i := range 240 {
		ext := []string{".go", ".go", ".md", ""}[i%4]
		files[fmt.Sprintf("big/sub%d/%s%04d%s", i%2, long, i, ext)] = ""
	}
	got := mustText(t, toolSet(writeTree(t, files)), "ls", `{"target_directory":"/repo"}`)
	want := `- /repo/
  - big/
    - sub0/
      [120 files in subtree: 60 *.go, 60 *.md]
    - sub1/
      [120 files in subtree: 60 *.go, 60 *no-ext]
  - small/
    - a.go
    - b.md
  - tiny.txt`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	greedy := map[string]string{"c/f.txt": ""}
	name := strings.Repeat("g", 72)
	for i := range 80 {
		greedy[fmt.Sprintf("a/%s%04d.txt", name, i)] = ""
	}
	for i := range 40 {
		greedy[fmt.Sprintf("b/%s%04d.txt", name, i)] = ""
	}
	got = mustText(t, toolSet(writeTree(t, greedy)), "ls", `{"target_directory":"/repo"}`)
	if n := len(got) - len("- /repo/"); n > lsBudget ||
		!strings.Contains(got, "\n    - "+name+"0079.txt\n  - b/\n    [40 files in subtree: 40 *.txt]\n  - c/\n    - f.txt") {
		t.Fatalf("greedy breadth-first expansion within the budget broke (%d bytes):\n%.300s", n, got[len(got)-300:])
	}

	// Collapsed one level up when even the subdirectories' rows do not fit.
	files = map[string]string{"z.txt": ""}
	for i := range 300 {
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
	long := strings.Repeat("e", 86)
	for i := range 150 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s%04d", long, i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "zdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := mustText(t, toolSet(dir), "ls", `{"target_directory":"/repo"}`)
	// Each row "  - eee…0000\n" is 95 bytes: 105 fit in 10,000.
	var b strings.Builder
	b.WriteString("- /repo/")
	for i := range 105 {
		fmt.Fprintf(&b, "\n  - %s%04d", long, i)
	}
	b.WriteString("\n  [46 more entries]")
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

func TestLsNestedVirtualMount(t *testing.T) {
	ts := toolSet(writeTree(t, map[string]string{"a.txt": ""}),
		tool.Mount{Path: "/ext/lib", Dir: writeTree(t, map[string]string{"l.go": "package l\n", ".hidden/h": ""})})
	tests := []struct{ tool, in, want string }{
		{"ls", `{"target_directory":"/"}`, "- /\n  - ext/\n    - lib/\n      - l.go\n  - repo/\n    - a.txt"},
		{"ls", `{"target_directory":"/ext"}`, "- /ext/\n  - lib/\n    - l.go"},
		{"ls", `{"target_directory":"/ext/lib/.hidden"}`, "- /ext/lib/.hidden/\n  - h"},
		{"grep", `{"pattern":"package","path":"/ext"}`, "Found 1 matching line\n/ext/lib/l.go\n1:package l"},
		{"glob", `{"glob_pattern":"./*.go","target_directory":"/ext"}`, "Result of search in '/ext' (total 1 file):\n- lib/l.go"},
	}
	for _, tt := range tests {
		if got := mustText(t, ts, tt.tool, tt.in); got != tt.want {
			t.Errorf("%s %s:\ngot\n%s\nwant\n%s", tt.tool, tt.in, got, tt.want)
		}
	}
	if o := run(t, ts, "read", `{"path":"/ext"}`); !o.isError || o.text != "Is a directory: /ext" {
		t.Errorf("read of a virtual directory = %q", o.text)
	}
	if o := run(t, ts, "read", `{"path":"/other/x"}`); !o.isError || o.text != "Path is outside the workspace: /other/x" {
		t.Errorf("read outside the mounts = %q", o.text)
	}
}

func TestPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		rerunUnprivileged(t, "TestPermissionDenied") // root reads everything
		return
	}
	dir := writeTree(t, map[string]string{"locked.txt": "x\n", "closed/f": ""})
	if err := os.Chmod(filepath.Join(dir, "locked.txt"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "closed"), 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(filepath.Join(dir, "closed"), 0o755)
	ts := toolSet(dir)
	if o := run(t, ts, "read", `{"path":"locked.txt"}`); !o.isError || o.text != "Permission denied: /repo/locked.txt" {
		t.Errorf("read = %q", o.text)
	}
	if o := run(t, ts, "ls", `{"target_directory":"closed"}`); !o.isError || o.text != "Permission denied: /repo/closed" {
		t.Errorf("ls = %q", o.text)
	}
}

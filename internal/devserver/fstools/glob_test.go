package fstools

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// globList returns glob's paths in output order, checking the header.
func globList(t *testing.T, text, target string) []string {
	t.Helper()
	lines := strings.Split(text, "\n")
	n := len(lines) - 1
	noun := "files"
	if n == 1 {
		noun = "file"
	}
	if want := "Result of search in '" + target + "' (total " + itoa(n) + " " + noun + "):"; lines[0] != want {
		t.Fatalf("header %q, want %q", lines[0], want)
	}
	out := make([]string, 0, n)
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "- ") {
			t.Fatalf("row %q lacks the '- ' prefix", l)
		}
		out = append(out, l[2:])
	}
	return out
}

func TestGlobMatchesFind(t *testing.T) {
	needTool(t, "find")
	dir := writeTree(t, genTree(2, 60, 10))
	ts := toolSet(dir)
	for _, name := range []string{"*.go", "f00*", "*.t?", "f001[0-5].*", "*", "nothing.*"} {
		got := globList(t, mustText(t, ts, "glob", `{"glob_pattern":`+js(name)+`}`), "/repo")
		cmd := exec.Command("find", ".", "-type", "f", "-name", name)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		want := []string{}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l != "" {
				want = append(want, strings.TrimPrefix(l, "./"))
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("glob %q differs from find -name:\n%s", name, firstDiff(strings.Join(got, "\n"), strings.Join(want, "\n")))
		}
	}
}

func TestGlob(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.go": "", "b.go": "", "c.go": "", "src/x.go": "", "src/sub/y.go": "", "src/README.md": "",
		"src/Z.GO": "", ".hidden.go": "", ".git/h.go": "", ".gitignore": "gen/\n", "gen/g.go": "",
		"empty/": "",
	})
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, age := range map[string]int{"a.go": 3, "b.go": 1, "c.go": 3, "src/x.go": 2, "src/sub/y.go": 0, "src/README.md": 5, "src/Z.GO": 4} {
		mt := base.Add(-time.Duration(age) * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, name), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	ts := toolSet(dir)
	tests := []struct{ in, want string }{
		{`{"glob_pattern":"*.go"}`, "Result of search in '/repo' (total 5 files):\n- src/sub/y.go\n- b.go\n- src/x.go\n- a.go\n- c.go"},
		{`{"glob_pattern":"**/*.go","target_directory":"src"}`, "Result of search in '/repo/src' (total 2 files):\n- sub/y.go\n- x.go"},
		{`{"glob_pattern":"src/**/*.go"}`, "Result of search in '/repo' (total 2 files):\n- src/sub/y.go\n- src/x.go"},
		{`{"glob_pattern":"sub/*.go","target_directory":"/repo/src"}`, "Result of search in '/repo/src' (total 1 file):\n- sub/y.go"},
		{`{"glob_pattern":"*.GO"}`, "Result of search in '/repo' (total 1 file):\n- src/Z.GO"},
		{`{"glob_pattern":"*.rs"}`, "Result of search in '/repo' (total 0 files):"},
		{`{"glob_pattern":"src"}`, "Result of search in '/repo' (total 0 files):"},
		{`{"glob_pattern":"*","target_directory":"empty"}`, "Result of search in '/repo/empty' (total 0 files):"},
		{`{"glob_pattern":"*.{md,GO}"}`, "Result of search in '/repo' (total 2 files):\n- src/Z.GO\n- src/README.md"},
	}
	for _, tt := range tests {
		if got := mustText(t, ts, "glob", tt.in); got != tt.want {
			t.Errorf("glob %s:\ngot\n%s\nwant\n%s", tt.in, got, tt.want)
		}
	}
	for in, want := range map[string]string{
		`{"glob_pattern":"*","target_directory":"nope"}`: "No such file or directory: /repo/nope",
		`{"glob_pattern":"*","target_directory":"a.go"}`: "Not a directory: /repo/a.go",
		`{"glob_pattern":"*","target_directory":"/etc"}`: "Path is outside the workspace: /etc",
	} {
		if o := run(t, ts, "glob", in); !o.isError || o.text != want {
			t.Errorf("glob %s = %q (isError %v), want %q", in, o.text, o.isError, want)
		}
	}
}

func TestGlobVirtualRoot(t *testing.T) {
	ts := toolSet(writeTree(t, map[string]string{"a.txt": ""}), tool.Mount{Path: "/data", Dir: writeTree(t, map[string]string{"b.txt": ""})})
	got := globList(t, mustText(t, ts, "glob", `{"glob_pattern":"*.txt","target_directory":"/"}`), "/")
	sort.Strings(got)
	if strings.Join(got, " ") != "data/b.txt repo/a.txt" {
		t.Fatalf("glob over / = %v", got)
	}
}

package fstools

import (
	"context"
	"sort"
	"strings"
	"testing"
)

func TestIgnoreRules(t *testing.T) {
	tests := []struct {
		name    string
		ignore  string
		rel     string
		isDir   bool
		ignored bool
	}{
		{"basename anywhere", "*.log", "a/b/x.log", false, true},
		{"negation", "*.log\n!keep.log", "keep.log", false, false},
		{"later rule wins", "!keep.log\n*.log", "keep.log", false, true},
		{"dir only skips files", "build/", "build", false, false},
		{"dir only matches dirs", "build/", "a/build", true, true},
		{"anchored leading slash", "/todo", "todo", false, true},
		{"anchored not deeper", "/todo", "a/todo", false, false},
		{"middle slash anchors", "doc/*.txt", "doc/a.txt", false, true},
		{"middle slash not deeper", "doc/*.txt", "x/doc/a.txt", false, false},
		{"leading doublestar", "**/foo", "a/b/foo", false, true},
		{"trailing doublestar", "abc/**", "abc/x/y", false, true},
		{"trailing doublestar not self", "abc/**", "abc", true, false},
		{"middle doublestar", "a/**/b", "a/b", false, true},
		{"middle doublestar deep", "a/**/b", "a/x/y/b", false, true},
		{"class", "*.[oa]", "lib.a", false, true},
		{"escaped hash", `\#x`, "#x", false, true},
		{"comment", "#x", "#x", false, false},
		{"escaped bang", `\!x`, "!x", false, true},
		{"trailing spaces dropped", "x.txt   ", "x.txt", false, true},
		{"escaped trailing space kept", `x\ `, "x ", false, true},
		{"crlf", "x.txt\r\n", "x.txt", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ignoreStack{parseIgnore([]byte(tt.ignore), "")}
			if got := s.ignored(tt.rel, tt.isDir); got != tt.ignored {
				t.Fatalf("ignored(%q) with %q = %v, want %v", tt.rel, tt.ignore, got, tt.ignored)
			}
		})
	}
}

func TestIgnoreNestedOverride(t *testing.T) {
	s := ignoreStack{
		parseIgnore([]byte("*.gen\n"), ""),
		parseIgnore([]byte("!keep.gen\n/local.txt\n"), "sub"),
	}
	for rel, want := range map[string]bool{
		"x.gen": true, "sub/x.gen": true, "sub/keep.gen": false, "keep.gen": true,
		"sub/local.txt": true, "local.txt": false, "sub/deeper/local.txt": false,
	} {
		if got := s.ignored(rel, false); got != want {
			t.Errorf("ignored(%q) = %v, want %v", rel, got, want)
		}
	}
}

// TestIgnoreMatchesGit compares the files the walk keeps with what git
// reports as untracked and not ignored, on a tree of nested ignore files.
func TestIgnoreMatchesGit(t *testing.T) {
	needTool(t, "git")
	dir := writeTree(t, map[string]string{
		".gitignore": "*.log\n!important.log\n/build/\ndocs/*.tmp\n**/cache/**\n\\#hash\n[Tt]emp*\nspace\\ \n",
		"a.log":      "", "important.log": "", "build/out.txt": "", "sub/build/out.txt": "",
		"docs/x.tmp": "", "docs/deep/y.tmp": "", "cache/z": "", "a/cache/b/c": "",
		"#hash": "", "Temp1": "", "temp2": "", "xtemp": "", "space ": "", "keep.txt": "",
		"sub/.gitignore": "!a.log\n*.txt\n!keep.txt\nonly/\n",
		"sub/a.log":      "", "sub/b.txt": "", "sub/keep.txt": "", "sub/only/x": "", "sub/only.md": "",
		"sub/deep/.gitignore": "/anch.md\n**/z.md\n",
		"sub/deep/anch.md":    "", "sub/deep/q/anch.md": "", "sub/deep/q/z.md": "", "sub/deep/r.md": "",
		"lib/[x].c": "", "lib/main.c": "",
		"nested/a/b/.gitignore": "*\n!*.keep\n!*/\n",
		"nested/a/b/one.keep":   "", "nested/a/b/two.drop": "", "nested/a/b/c/three.keep": "",
	})
	gitRun(t, dir, nil, "init", "-q")
	out := gitRun(t, dir, nil, "ls-files", "--others", "--exclude-standard", "-z")
	var want []string
	for _, f := range strings.Split(out, "\x00") {
		if f == "" || strings.HasPrefix(f, ".") || strings.Contains(f, "/.") {
			continue
		}
		want = append(want, f)
	}
	sort.Strings(want)
	ws := newWorkspace(toolMounts(dir))
	wk := &walker{ctx: context.Background(), ws: ws}
	var got []string
	if err := wk.walkFiles("", nil, func(e entry) error { got = append(got, e.rel); return nil }); err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("walk kept:\n%s\n\ngit keeps:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	joined := "\n" + strings.Join(got, "\n") + "\n"
	for _, must := range []string{"\nimportant.log\n", "\nsub/a.log\n", "\nnested/a/b/c/three.keep\n", "\nsub/deep/r.md\n"} {
		if !strings.Contains(joined, must) {
			t.Errorf("walk lost %s", strings.TrimSpace(must))
		}
	}
	for _, mustNot := range []string{"\na.log\n", "\nsub/only/x\n", "\nnested/a/b/two.drop\n", "\nsub/deep/q/z.md\n"} {
		if strings.Contains(joined, mustNot) {
			t.Errorf("walk kept ignored %s", strings.TrimSpace(mustNot))
		}
	}
}

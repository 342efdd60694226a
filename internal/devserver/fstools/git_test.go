package fstools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// gitTree makes a checkout with two commits and then uncommitted changes:
// a modified, a deleted, a staged new and an untracked file.
func gitTree(t *testing.T) string {
	t.Helper()
	needTool(t, "git")
	dir := writeTree(t, map[string]string{
		"README.md": "# demo\n", "src/main.go": "package main\n\nfunc main() {}\n", "src/old.go": "package main\n",
		"docs/guide.md": "guide\n",
	})
	gitRun(t, dir, nil, "init", "-q", "-b", "main")
	gitRun(t, dir, nil, "add", ".")
	gitRun(t, dir, []string{"GIT_AUTHOR_DATE=2024-01-01T10:00:00Z"}, "commit", "-q", "-m", "Initial import")
	write(t, dir, "docs/guide.md", "guide\nmore\n")
	gitRun(t, dir, nil, "add", ".")
	gitRun(t, dir, []string{"GIT_AUTHOR_NAME=Grace Hopper", "GIT_AUTHOR_EMAIL=grace@navy.mil", "GIT_AUTHOR_DATE=2024-02-01T10:00:00Z"},
		"commit", "-q", "-m", "Extend the guide\n\nLonger body.")
	write(t, dir, "src/main.go", "package main\n\nfunc main() { run() }\n")
	if err := os.Remove(filepath.Join(dir, "src/old.go")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "src/new.go", "package main\n\nfunc run() {}\n")
	gitRun(t, dir, nil, "add", "src/new.go")
	write(t, dir, "untracked.txt", "not shown\n")
	return dir
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiffEqualsGit(t *testing.T) {
	dir := gitTree(t)
	ts := toolSet(dir)
	for _, c := range []struct{ in, path string }{
		{`{}`, ""}, {`{"path":"/repo"}`, ""}, {`{"path":"src"}`, "src"}, {`{"path":"/repo/src/old.go"}`, "src/old.go"},
		{`{"path":"docs"}`, "docs"}, {`{"path":"untracked.txt"}`, "untracked.txt"},
	} {
		args := []string{"diff", "HEAD"}
		if c.path != "" {
			args = append(args, "--", c.path)
		}
		want := gitRun(t, dir, nil, args...)
		got := mustText(t, ts, "diff", c.in)
		if got != want {
			t.Errorf("diff %s:\ngot\n%s\nwant (git diff HEAD)\n%s", c.in, got, want)
		}
	}
	if got := mustText(t, ts, "diff", `{}`); !containsAll(got, "diff --git a/src/main.go b/src/main.go", "deleted file mode", "new file mode", "+func run() {}") ||
		containsAll(got, "untracked") {
		t.Errorf("diff lacks expected parts or shows untracked files:\n%s", got)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func TestDiffMounts(t *testing.T) {
	repo := gitTree(t)
	plain := writeTree(t, map[string]string{"x.txt": "x\n"})
	// The root is a subdirectory of a checkout; a second mount is no checkout.
	ts := toolSet(filepath.Join(repo, "src"), tool.Mount{Path: "/data", Dir: plain})
	got := mustText(t, ts, "diff", `{}`)
	want := gitRun(t, repo, nil, "diff", "HEAD", "--", "src")
	if got != want {
		t.Errorf("diff of a subdirectory mount:\ngot\n%s\nwant\n%s", got, want)
	}
	if o := run(t, ts, "diff", `{"path":"/data/x.txt"}`); !o.isError || o.text != "Not a git checkout: /data" {
		t.Errorf("diff in a plain mount = %q (isError %v)", o.text, o.isError)
	}
	ts = toolSet(plain)
	if o := run(t, ts, "diff", `{}`); !o.isError || o.text != "Not a git checkout: /repo" {
		t.Errorf("diff outside a checkout = %q (isError %v)", o.text, o.isError)
	}
	ts = toolSet(plain, tool.Mount{Path: "/src", Dir: repo})
	if got, want := mustText(t, ts, "diff", `{}`), gitRun(t, repo, nil, "diff", "HEAD"); got != want {
		t.Errorf("diff with a checkout in the second mount:\ngot\n%s\nwant\n%s", got, want)
	}
	if o := run(t, ts, "diff", `{"path":"/elsewhere"}`); !o.isError || o.text != "Path is outside the workspace: /elsewhere" {
		t.Errorf("diff outside = %q", o.text)
	}
}

func TestDiffCleanAndUnborn(t *testing.T) {
	needTool(t, "git")
	dir := writeTree(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	gitRun(t, dir, nil, "init", "-q")
	ts := toolSet(dir)
	if got := mustText(t, ts, "diff", `{}`); got != "" {
		t.Errorf("diff of a checkout with nothing staged = %q, want empty", got)
	}
	gitRun(t, dir, nil, "add", "a.txt")
	got := mustText(t, ts, "diff", `{}`)
	if !containsAll(got, "diff --git a/a.txt b/a.txt", "new file mode 100644", "+a") || strings.Contains(got, "b.txt") {
		t.Errorf("diff of an unborn checkout should show staged files as added:\n%s", got)
	}
	gitRun(t, dir, nil, "commit", "-q", "-m", "one")
	if got := mustText(t, ts, "diff", `{}`); got != "" {
		t.Errorf("clean diff = %q, want empty", got)
	}
	if got := mustText(t, ts, "list_changes", `{}`); !strings.Contains(got, `"subject":"one","files":["a.txt"]`) {
		t.Errorf("list_changes after one commit = %s", got)
	}
}

func TestListChanges(t *testing.T) {
	dir := gitTree(t)
	ts := toolSet(dir)
	type change struct {
		SHA, Author, Date, Subject string
		Files                      []string
	}
	decode := func(in string) []change {
		t.Helper()
		var cs []change
		if err := json.Unmarshal([]byte(mustText(t, ts, "list_changes", in)), &cs); err != nil {
			t.Fatal(err)
		}
		return cs
	}
	head := gitRun(t, dir, nil, "rev-parse", "HEAD")[:40]
	cs := decode(`{}`)
	if len(cs) != 2 {
		t.Fatalf("want 2 commits, got %+v", cs)
	}
	if c := cs[0]; c.SHA != head || c.Author != "Grace Hopper" || c.Date != "2024-02-01T10:00:00+00:00" ||
		c.Subject != "Extend the guide" || len(c.Files) != 1 || c.Files[0] != "docs/guide.md" {
		t.Errorf("newest commit = %+v", c)
	}
	if c := cs[1]; c.Author != "Ada Lovelace" || c.Subject != "Initial import" ||
		len(c.Files) != 4 || c.Files[0] != "README.md" || c.Files[3] != "src/old.go" {
		t.Errorf("oldest commit = %+v", c)
	}
	if cs := decode(`{"limit":1}`); len(cs) != 1 || cs[0].Subject != "Extend the guide" {
		t.Errorf("limit 1 = %+v", cs)
	}
	if cs := decode(`{"author":"ada"}`); len(cs) != 1 || cs[0].Subject != "Initial import" {
		t.Errorf("author ada = %+v", cs)
	}
	if cs := decode(`{"author":"navy.mil"}`); len(cs) != 1 || cs[0].Author != "Grace Hopper" {
		t.Errorf("author by email = %+v", cs)
	}
	if cs := decode(`{"author":".*"}`); len(cs) != 0 {
		t.Errorf("author is a substring, not a pattern: %+v", cs)
	}
	sub := toolSet(filepath.Join(dir, "src"))
	if got := mustText(t, sub, "list_changes", `{}`); strings.Count(got, `"sha"`) != 1 || !strings.Contains(got, `"subject":"Initial import"`) {
		t.Errorf("list_changes of a mount below the checkout's top = %s", got)
	}
	if o := run(t, ts, "list_changes", `{"limit":0}`); !o.isError || o.text != "limit must be at least 1" {
		t.Errorf("limit 0 = %q", o.text)
	}
	raw := run(t, ts, "list_changes", `{"limit":1}`)
	if raw.text == "" || raw.text[0] != '[' {
		t.Errorf("list_changes answers a JSON array: %q", raw.text)
	}
	if o := run(t, toolSet(t.TempDir()), "list_changes", `{}`); !o.isError || o.text != "Not a git checkout: /repo" {
		t.Errorf("list_changes outside a checkout = %q", o.text)
	}
}

func TestParseLog(t *testing.T) {
	out := "\x1eaaaa1111\x00A B\x002024-01-01T00:00:00Z\x00subj \x1e odd\x00\x00\nx.go\x00dir/y z.go\x00\x1ebbbb2222\x00C\x00d\x00merge\x00\x00"
	got := parseLog([]byte(out))
	if len(got) != 2 || got[0].Subject != "subj \x1e odd" || len(got[0].Files) != 2 || got[0].Files[1] != "dir/y z.go" ||
		got[1].SHA != "bbbb2222" || got[1].Files == nil || len(got[1].Files) != 0 {
		t.Fatalf("parseLog = %+v", got)
	}
	if got := parseLog(nil); got == nil || len(got) != 0 {
		t.Fatalf("parseLog(nil) = %#v", got)
	}
}

// The clean git directory keeps what a linked work tree and a sha256
// repository need: the work tree's own HEAD and index, the common objects
// and refs, the object format.
func TestDiffLinkedWorktreeAndSHA256(t *testing.T) {
	dir := gitTree(t)
	wt := filepath.Join(t.TempDir(), "wt")
	gitRun(t, dir, nil, "worktree", "add", "-q", "-b", "side", wt)
	write(t, wt, "README.md", "# demo\nchanged in the work tree\n")
	ts := toolSet(wt)
	if got, want := mustText(t, ts, "diff", `{}`), gitRun(t, wt, nil, "diff", "HEAD"); got != want || got == "" {
		t.Errorf("linked work tree diff:\ngot\n%s\nwant\n%s", got, want)
	}
	if got := mustText(t, ts, "list_changes", `{"limit":1}`); !strings.Contains(got, `"subject":"Extend the guide"`) {
		t.Errorf("linked work tree list_changes: %s", got)
	}

	sha := writeTree(t, map[string]string{"a.txt": "a\n"})
	gitRun(t, sha, nil, "init", "-q", "--object-format=sha256")
	gitRun(t, sha, nil, "add", ".")
	gitRun(t, sha, nil, "commit", "-q", "-m", "one")
	write(t, sha, "a.txt", "a\nb\n")
	ts = toolSet(sha)
	if got, want := mustText(t, ts, "diff", `{}`), gitRun(t, sha, nil, "diff", "HEAD"); got != want || got == "" {
		t.Errorf("sha256 diff:\ngot\n%s\nwant\n%s", got, want)
	}
	if got := mustText(t, ts, "list_changes", `{}`); !strings.Contains(got, `"subject":"one"`) || len(got) < 64 {
		t.Errorf("sha256 list_changes: %s", got)
	}
}

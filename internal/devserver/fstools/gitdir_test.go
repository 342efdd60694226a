package fstools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// victimRepo is another repository of the machine, outside every served
// tree: its secret must never show through diff or list_changes.
func victimRepo(t *testing.T) (dir, head string) {
	t.Helper()
	needTool(t, "git")
	dir = writeTree(t, map[string]string{"secret.txt": "victim secret\n"})
	gitRun(t, dir, nil, "init", "-q", "-b", "main")
	gitRun(t, dir, nil, "add", ".")
	gitRun(t, dir, nil, "commit", "-q", "-m", "victim commit")
	return dir, strings.TrimSpace(gitRun(t, dir, nil, "rev-parse", "HEAD"))
}

// A served tree whose .git leads outside it is not a checkout: diff and
// list_changes refuse it, naming why, and nothing of the other repository
// comes out.
func TestGitDirStaysInsideTheTree(t *testing.T) {
	victim, head := victimRepo(t)
	symlink := func(t *testing.T, old, new string) {
		t.Helper()
		if err := os.Symlink(old, new); err != nil {
			t.Fatal(err)
		}
	}
	// ownGitDir makes a .git directory of the tree's own, then lets edit
	// point parts of it elsewhere.
	ownGitDir := func(t *testing.T, tree string, edit func(gitDir string)) {
		t.Helper()
		gitRun(t, tree, nil, "init", "-q", "-b", "main")
		edit(filepath.Join(tree, ".git"))
	}
	const outside = "its .git file names a git directory outside the served tree"
	const reaches = "its git directory reaches outside the served tree"
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, tree string)
		why   string
	}{
		{"gitdir file, absolute", func(t *testing.T, tree string) {
			write(t, tree, ".git", "gitdir: "+filepath.Join(victim, ".git")+"\n")
		}, outside},
		{"gitdir file, relative", func(t *testing.T, tree string) {
			rel, err := filepath.Rel(tree, filepath.Join(victim, ".git"))
			if err != nil {
				t.Fatal(err)
			}
			write(t, tree, ".git", "gitdir: "+rel)
		}, outside},
		{"gitdir file to a symlink inside", func(t *testing.T, tree string) {
			symlink(t, filepath.Join(victim, ".git"), filepath.Join(tree, "inner"))
			write(t, tree, ".git", "gitdir: inner")
		}, outside},
		{"gitdir inside, commondir outside", func(t *testing.T, tree string) {
			inner := filepath.Join(tree, "inner")
			if err := os.MkdirAll(inner, 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, inner, "HEAD", "ref: refs/heads/main\n")
			write(t, inner, "commondir", filepath.Join(victim, ".git")+"\n")
			write(t, tree, ".git", "gitdir: inner")
		}, reaches},
		{"forged worktree entry", func(t *testing.T, tree string) {
			// The victim's own worktree entry, whose gitdir names another tree.
			gitRun(t, victim, nil, "worktree", "add", "-q", "--detach", filepath.Join(t.TempDir(), "other"))
			entries, _ := filepath.Glob(filepath.Join(victim, ".git", "worktrees", "*"))
			write(t, tree, ".git", "gitdir: "+entries[len(entries)-1])
		}, outside},
		{"objects and refs symlinked", func(t *testing.T, tree string) {
			ownGitDir(t, tree, func(g string) {
				_ = os.RemoveAll(filepath.Join(g, "objects"))
				symlink(t, filepath.Join(victim, ".git", "objects"), filepath.Join(g, "objects"))
				write(t, g, "refs/heads/main", head+"\n")
			})
		}, reaches},
		{"a ref symlinked to the victim's", func(t *testing.T, tree string) {
			ownGitDir(t, tree, func(g string) {
				symlink(t, filepath.Join(victim, ".git", "refs", "heads", "main"), filepath.Join(g, "refs", "heads", "main"))
				write(t, g, "objects/info/alternates", filepath.Join(victim, ".git", "objects")+"\n")
			})
		}, reaches},
		{"alternates outside", func(t *testing.T, tree string) {
			ownGitDir(t, tree, func(g string) {
				write(t, g, "objects/info/alternates", filepath.Join(victim, ".git", "objects")+"\n")
				write(t, g, "refs/heads/main", head+"\n")
			})
		}, reaches},
		{"a pack symlinked", func(t *testing.T, tree string) {
			gitRun(t, victim, nil, "gc", "-q")
			packs, _ := filepath.Glob(filepath.Join(victim, ".git", "objects", "pack", "*.pack"))
			ownGitDir(t, tree, func(g string) {
				for _, p := range packs {
					symlink(t, p, filepath.Join(g, "objects", "pack", filepath.Base(p)))
				}
				write(t, g, "refs/heads/main", head+"\n")
			})
		}, reaches},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := writeTree(t, map[string]string{"mine.txt": "mine\n"})
			tc.setup(t, tree)
			ts := toolSet(tree)
			want := "Not a git checkout: /repo (" + tc.why + ")"
			for _, name := range []string{"diff", "list_changes"} {
				o := run(t, ts, name, `{}`)
				if o.err != nil || !o.isError || o.text != want {
					t.Errorf("%s: err=%v isError=%v %q, want %q", name, o.err, o.isError, o.text, want)
				}
				if strings.Contains(o.text, "victim") || strings.Contains(o.text, head) {
					t.Errorf("%s exposed the other repository: %q", name, o.text)
				}
			}
		})
	}
}

// The layouts git makes that point back keep working: a linked work tree
// (its entry's gitdir names the tree's .git), a submodule served on its own
// (its git directory's core.worktree names the tree), a .git file naming a
// git directory inside the tree, alternates inside it.
func TestGitDirLayoutsThatPointBack(t *testing.T) {
	dir := gitTree(t)

	wt := filepath.Join(t.TempDir(), "wt")
	gitRun(t, dir, nil, "worktree", "add", "-q", "-b", "side", wt)
	write(t, wt, "README.md", "# demo\nchanged in the work tree\n")
	if got, want := mustText(t, toolSet(wt), "diff", `{}`), gitRun(t, wt, nil, "diff", "HEAD"); got != want || got == "" {
		t.Errorf("linked work tree diff:\ngot\n%s\nwant\n%s", got, want)
	}

	// A worktree entry whose gitdir is relative to the entry (git's
	// worktree.useRelativePaths writes it so).
	entry := filepath.Join(dir, ".git", "worktrees", "wt")
	rel, err := filepath.Rel(entry, filepath.Join(wt, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, entry, "gitdir", rel+"\n")
	if got := mustText(t, toolSet(wt), "list_changes", `{"limit":1}`); !strings.Contains(got, `"subject":"Extend the guide"`) {
		t.Errorf("relative worktree entry: %s", got)
	}

	super := writeTree(t, map[string]string{"top.txt": "top\n"})
	gitRun(t, super, nil, "init", "-q", "-b", "main")
	gitRun(t, super, nil, "-c", "protocol.file.allow=always", "submodule", "add", "-q", dir, "sub")
	sub := filepath.Join(super, "sub")
	write(t, sub, "README.md", "# demo\nchanged in the submodule\n")
	if got, want := mustText(t, toolSet(sub), "diff", `{}`), gitRun(t, sub, nil, "diff", "HEAD"); got != want || !strings.Contains(got, "changed in the submodule") {
		t.Errorf("submodule diff:\ngot\n%s\nwant\n%s", got, want)
	}

	inner := gitTree(t)
	if err := os.Rename(filepath.Join(inner, ".git"), filepath.Join(inner, "meta")); err != nil {
		t.Fatal(err)
	}
	write(t, inner, ".git", "gitdir: meta\n")
	write(t, inner, "meta/objects/info/alternates", "../../meta/objects\n")
	if got := mustText(t, toolSet(inner), "list_changes", `{"limit":1}`); !strings.Contains(got, `"subject":"Extend the guide"`) {
		t.Errorf(".git file naming a directory inside: %s", got)
	}
}

// Neither git's environment variables in the server's environment nor a
// served repository's core.worktree redirect git: diff shows the served
// tree, not the repository or work tree they name.
func TestGitIgnoresEnvironmentAndWorktreeConfig(t *testing.T) {
	victim, _ := victimRepo(t)
	write(t, victim, "secret.txt", "victim secret changed\n")
	dir := gitTree(t)
	gitRun(t, dir, nil, "config", "core.worktree", victim)
	want := gitRun(t, dir, []string{"GIT_WORK_TREE=" + dir}, "diff", "HEAD")
	for k, v := range map[string]string{
		"GIT_DIR": filepath.Join(victim, ".git"), "GIT_WORK_TREE": victim, "GIT_COMMON_DIR": filepath.Join(victim, ".git"),
		"GIT_INDEX_FILE": filepath.Join(victim, ".git", "index"), "GIT_OBJECT_DIRECTORY": filepath.Join(victim, ".git", "objects"),
		"GIT_ALTERNATE_OBJECT_DIRECTORIES": filepath.Join(victim, ".git", "objects"), "GIT_CONFIG_PARAMETERS": "'core.worktree'='" + victim + "'",
	} {
		t.Setenv(k, v)
	}
	got := mustText(t, toolSet(dir), "diff", `{}`)
	if got != want || strings.Contains(got, "victim") || !strings.Contains(got, "src/new.go") {
		t.Errorf("diff:\ngot\n%s\nwant\n%s", got, want)
	}
	if got := mustText(t, toolSet(dir), "list_changes", `{}`); strings.Contains(got, "victim") || !strings.Contains(got, "Extend the guide") {
		t.Errorf("list_changes: %s", got)
	}
}

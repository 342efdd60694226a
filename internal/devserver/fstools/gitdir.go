package fstools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Finding a checkout's git directory without leaving the served tree
// (docs/devserver.md#bounds). A served tree is not the operator's: a .git
// file in it ("gitdir: PATH") could name another repository of the machine,
// whose files diff would then show and whose commits list_changes would
// list. So a checkout's git directory, its common directory and everything
// git reads through them (objects, refs, packs, alternates, the index) must
// lie inside the tree holding the .git, symlinks resolved; the one way out
// is a layout git itself made and that points back:
//
//   - a linked work tree: the .git file names <repo>/.git/worktrees/<name>,
//     whose own gitdir file names this .git file, and whose common directory
//     is <repo>/.git;
//   - a submodule: the .git file names a git directory whose config's
//     core.worktree is this work tree.
//
// The repository such a layout names is the checkout's own: it is trusted
// as the operator's.

// errNoCheckout is findRepo's answer when no .git is found.
var errNoCheckout = errors.New("not a git checkout")

// refusal is findRepo's answer for a .git it will not follow; its text is
// the reason, naming no path outside the served tree.
type refusal string

func (r refusal) Error() string { return string(r) }

// maxAlternates is how deep alternates of alternates are checked: one more
// than git follows (it ignores a chain deeper than 5).
const maxAlternates = 6

// findRepo looks for the checkout holding dir without running git on it
// (which would read the repository's config): a .git directory, or a .git
// file naming one, in dir or above. The .git found is followed only as the
// comment above says; otherwise the answer is a refusal.
func findRepo(ctx context.Context, dir string) (repo, error) {
	for d := dir; ; {
		dotGit := filepath.Join(d, ".git")
		if fi, err := os.Lstat(dotGit); err == nil {
			switch {
			case fi.IsDir():
				if isGitDir(dotGit) {
					r := repo{top: d, gitDir: dotGit, common: dotGit}
					return r, r.confined(d)
				}
			case fi.Mode().IsRegular():
				return linkedRepo(ctx, d, dotGit)
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return repo{}, errNoCheckout
		}
		d = parent
	}
}

// linkedRepo follows a .git file ("gitdir: PATH") in the work tree top.
func linkedRepo(ctx context.Context, top, dotGit string) (repo, error) {
	b, ok, err := readRegular(dotGit, 4096)
	if err != nil || !ok {
		return repo{}, refusal("its .git file cannot be read")
	}
	p, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return repo{}, refusal("its .git file is not a gitdir file")
	}
	if p = strings.TrimSpace(p); !filepath.IsAbs(p) {
		p = filepath.Join(top, p)
	}
	r := repo{top: top, gitDir: filepath.Clean(p), common: filepath.Clean(p)}
	if c, ok, err := readRegular(filepath.Join(r.gitDir, "commondir"), 4096); err == nil && ok {
		cd := strings.TrimSpace(string(c))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(r.gitDir, cd)
		}
		r.common = filepath.Clean(cd)
	}
	if !isGitDir(r.gitDir) && !fileExists(filepath.Join(r.gitDir, "HEAD")) {
		return repo{}, refusal("its .git file names no git directory")
	}
	realTop, err1 := filepath.EvalSymlinks(top)
	realGit, err2 := filepath.EvalSymlinks(r.gitDir)
	if err1 != nil || err2 != nil {
		return repo{}, refusal("its .git file names no git directory")
	}
	if within(realTop, realGit) {
		return r, r.confined(top)
	}
	if worktreeEntry(r, realGit, dotGit) || submoduleDir(ctx, r, realGit, realTop) {
		return r, nil
	}
	return repo{}, refusal("its .git file names a git directory outside the served tree")
}

// worktreeEntry reports whether the git directory of r (realGit, symlinks
// resolved) is the linked work tree entry <repo>/.git/worktrees/<name> of
// the .git file dotGit: its gitdir file names dotGit and its common
// directory is <repo>/.git.
func worktreeEntry(r repo, realGit, dotGit string) bool {
	if filepath.Base(filepath.Dir(realGit)) != "worktrees" {
		return false
	}
	realCommon, err := filepath.EvalSymlinks(r.common)
	if err != nil || realCommon != filepath.Dir(filepath.Dir(realGit)) || !isGitDir(realCommon) {
		return false
	}
	b, ok, err := readRegular(filepath.Join(r.gitDir, "gitdir"), 4096)
	if err != nil || !ok {
		return false
	}
	back := strings.TrimSpace(string(b))
	if !filepath.IsAbs(back) {
		back = filepath.Join(realGit, back)
	}
	return samePath(back, dotGit)
}

// submoduleDir reports whether the git directory of r is a submodule's
// whose config names this work tree (realTop) as its core.worktree. The
// value is only compared, never used: git runs with the work tree given.
func submoduleDir(ctx context.Context, r repo, realGit, realTop string) bool {
	if r.common != r.gitDir {
		return false
	}
	cfg := filepath.Join(r.gitDir, "config")
	if fi, err := os.Stat(cfg); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	cmd := exec.CommandContext(ctx, "git", "config", "--file", cfg, "--get", "core.worktree")
	cmd.Env = gitEnv()
	cmd.Dir = os.TempDir()
	out, err := cmd.Output()
	if err != nil {
		return false
	}
	wt := strings.TrimSpace(string(out))
	if wt == "" {
		return false
	}
	if !filepath.IsAbs(wt) {
		wt = filepath.Join(realGit, wt)
	}
	return samePath(wt, realTop)
}

// samePath reports whether a and b name the same existing file once their
// symlinks are resolved.
func samePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// confined checks that what git reads of r stays inside the tree root:
// the git and common directories, the files and directories the clean git
// directory links (objects, refs, packed-refs, reftable, shallow, the index
// and its shared parts, HEAD), symlinks among the refs, the entries of
// objects and of its pack directory, and the alternates, each with its
// symlinks resolved. (Loose object files are not looked at one by one: an
// object reached through a symlink is only read when a ref names it.)
func (r repo) confined(root string) error {
	base, err := filepath.EvalSymlinks(root)
	if err != nil {
		return refusal("its work tree cannot be resolved")
	}
	out := refusal("its git directory reaches outside the served tree")
	inside := func(p string) bool {
		real, err := filepath.EvalSymlinks(p)
		if errors.Is(err, fs.ErrNotExist) {
			return true
		}
		return err == nil && within(base, real)
	}
	for _, p := range []string{
		r.gitDir, r.common, filepath.Join(r.gitDir, "HEAD"), filepath.Join(r.gitDir, "index"),
		filepath.Join(r.common, "objects"), filepath.Join(r.common, "refs"), filepath.Join(r.common, "packed-refs"),
		filepath.Join(r.common, "reftable"), filepath.Join(r.common, "shallow"),
	} {
		if !inside(p) {
			return out
		}
	}
	if shared, _ := filepath.Glob(filepath.Join(r.gitDir, "sharedindex.*")); len(shared) > 0 {
		for _, p := range shared {
			if !inside(p) {
				return out
			}
		}
	}
	for _, d := range []string{filepath.Join(r.common, "refs"), filepath.Join(r.common, "reftable")} {
		if !linksInside(d, inside) {
			return out
		}
	}
	if !objectsInside(filepath.Join(r.common, "objects"), inside, maxAlternates) {
		return out
	}
	return nil
}

// linksInside walks dir and reports whether every symlink in it resolves
// inside (or to nothing).
func linksInside(dir string, inside func(string) bool) bool {
	ok := true
	_ = filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: git cannot read it either
		}
		if de.Type()&fs.ModeSymlink != 0 && !inside(p) {
			ok = false
			return fs.SkipAll
		}
		return nil
	})
	return ok
}

// objectsInside checks an object directory: its entries (the fan-out
// directories, pack, info), the pack directory's entries, and each
// alternate it names, depth alternates deep (git reads no deeper).
func objectsInside(objects string, inside func(string) bool, depth int) bool {
	if depth <= 0 {
		return true
	}
	for _, d := range []string{objects, filepath.Join(objects, "pack")} {
		entries, _ := os.ReadDir(d)
		for _, de := range entries {
			if de.Type()&fs.ModeSymlink != 0 && !inside(filepath.Join(d, de.Name())) {
				return false
			}
		}
	}
	alt := filepath.Join(objects, "info", "alternates")
	if !inside(alt) {
		return false
	}
	b, ok, err := readRegular(alt, 1<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true
	case errors.Is(err, errNotRegular), err == nil && !ok:
		return false
	case err != nil:
		return true // unreadable: git cannot read it either
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '"' {
			return false // a quoted path: not worth unquoting to check
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(objects, line)
		}
		if !inside(line) || !objectsInside(line, inside, depth-1) {
			return false
		}
	}
	return true
}

package fstools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// workspace is the virtual namespace over the mounts; mounts[0] is the
// workspace root.
type workspace struct {
	mounts []tool.Mount

	once sync.Once
	real []string // each mount's directory with symlinks resolved
}

// newWorkspace cleans the mounts' paths; mounts[0] becomes the root.
func newWorkspace(mounts []tool.Mount) *workspace {
	ms := make([]tool.Mount, 0, len(mounts))
	for _, m := range mounts {
		p := path.Clean("/" + m.Path)
		ms = append(ms, tool.Mount{Path: p, Dir: filepath.Clean(m.Dir)})
	}
	return &workspace{mounts: ms}
}

// rootPath is the workspace root's virtual path ("/repo").
func (w *workspace) rootPath() string {
	if len(w.mounts) == 0 {
		return "/"
	}
	return w.mounts[0].Path
}

// realDir returns mount i's directory with symlinks resolved.
func (w *workspace) realDir(i int) string {
	w.once.Do(func() {
		w.real = make([]string, len(w.mounts))
		for k, m := range w.mounts {
			d, err := filepath.EvalSymlinks(m.Dir)
			if err != nil {
				d = m.Dir
			}
			w.real[k] = d
		}
	})
	return w.real[i]
}

// loc is a resolved workspace path.
type loc struct {
	virt  string // cleaned absolute virtual path
	mount int    // index into mounts; -1 for a virtual directory ("/")
	rel   string // slash-separated path inside the mount, "" at its root
	real  string // real file system path ("" for a virtual directory)

	// fi is the file's stat when resolving it found it with no symlink
	// on the way (its Lstat is then its Stat); nil when not known.
	fi os.FileInfo
}

// toolError is a tool body failure: an error result with this one line.
type toolError string

func (e toolError) Error() string { return string(e) }

func errorf(format string, args ...any) error { return toolError(fmt.Sprintf(format, args...)) }

// resolve maps a virtual or root-relative path to a loc. It fails only for
// paths outside the workspace (lexically, or through a symlink); whether the
// path exists is the caller's concern.
func (w *workspace) resolve(p string) (loc, error) {
	if !strings.HasPrefix(p, "/") {
		p = w.rootPath() + "/" + p
	}
	c := path.Clean(p)
	best := -1
	for i, m := range w.mounts {
		if c == m.Path || strings.HasPrefix(c, m.Path+"/") || m.Path == "/" {
			if best < 0 || len(m.Path) > len(w.mounts[best].Path) {
				best = i
			}
		}
	}
	if best < 0 {
		if w.isVirtualDir(c) {
			return loc{virt: c, mount: -1}, nil
		}
		return loc{}, errorf("Path is outside the workspace: %s", c)
	}
	m := w.mounts[best]
	rel := strings.TrimPrefix(strings.TrimPrefix(c, m.Path), "/")
	l := loc{virt: c, mount: best, rel: rel, real: filepath.Join(m.Dir, filepath.FromSlash(rel))}
	ok, fi := w.insideStat(best, l.real)
	if !ok {
		return loc{}, errorf("Path is outside the workspace: %s", c)
	}
	l.fi = fi
	return l, nil
}

// isVirtualDir reports whether c is "/" or a proper ancestor of a mount.
func (w *workspace) isVirtualDir(c string) bool {
	if c == "/" {
		return true
	}
	for _, m := range w.mounts {
		if strings.HasPrefix(m.Path, c+"/") {
			return true
		}
	}
	return false
}

// inside reports whether real, once its existing part has its symlinks
// resolved, stays inside mount i.
func (w *workspace) inside(i int, real string) bool {
	ok, _ := w.insideStat(i, real)
	return ok
}

// insideStat is inside, and the stat of real when the common case found
// it (nil otherwise).
func (w *workspace) insideStat(i int, real string) (bool, os.FileInfo) {
	base := w.realDir(i)
	if ok, sure, fi := w.insidePlain(i, real); sure {
		return ok, fi
	}
	p := real
	suffix := ""
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			r = filepath.Join(r, suffix)
			return within(base, r), nil
		}
		parent := filepath.Dir(p)
		if parent == p || !within(w.mounts[i].Dir, parent) && !within(base, parent) {
			return true, nil // nothing of it exists inside the mount; not found later
		}
		suffix = filepath.Join(filepath.Base(p), suffix)
		p = parent
	}
}

// insidePlain is inside's answer for the common case, looking only at the
// path's components below the mount: when none of them is a symlink, real
// stays inside (sure); when one is, it is not sure, and inside resolves
// the whole path. When every component exists, fi is the last one's Lstat:
// no symlink on the way, so the path's Stat too.
func (w *workspace) insidePlain(i int, real string) (ok, sure bool, fi os.FileInfo) {
	dir := w.mounts[i].Dir
	if real == dir {
		return true, true, nil
	}
	rel, found := strings.CutPrefix(real, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
	if !found {
		return false, false, nil
	}
	p := w.realDir(i)
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "" || part == "." || part == ".." {
			return false, false, nil
		}
		p = filepath.Join(p, part)
		var err error
		if fi, err = os.Lstat(p); err != nil {
			return true, true, nil // the rest does not exist: nothing of it leads out
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return false, false, nil
		}
	}
	return true, true, fi
}

// within reports whether p is base or inside it.
func within(base, p string) bool {
	if p == base {
		return true
	}
	if !strings.HasSuffix(base, string(filepath.Separator)) {
		base += string(filepath.Separator)
	}
	return strings.HasPrefix(p, base)
}

// virtualChildren lists the entries of a virtual directory: the next path
// segment of each mount below it, sorted.
func (w *workspace) virtualChildren(c string) []string {
	prefix := strings.TrimSuffix(c, "/") + "/"
	seen := map[string]bool{}
	var names []string
	for _, m := range w.mounts {
		if !strings.HasPrefix(m.Path, prefix) {
			continue
		}
		name, _, _ := strings.Cut(m.Path[len(prefix):], "/")
		if name != "" && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// displayPath is how grep prints a file: relative to the workspace root
// when inside the root mount, else its absolute virtual path.
func (w *workspace) displayPath(mount int, rel string) string {
	if mount == 0 {
		return rel
	}
	return path.Join(w.mounts[mount].Path, rel)
}

// dirWalker is a walker of the real directory l (a missing one, or a file,
// is an error result of docs/file-tools.md#the-workspace).
func (w *workspace) dirWalker(ctx context.Context, l loc) (*walker, error) {
	fi, err := stat(l)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, errorf("Not a directory: %s", l.virt)
	}
	return &walker{ctx: ctx, ws: w, mount: l.mount}, nil
}

// statError turns a failed stat or open of l into the one-line error result
// of docs/file-tools.md#the-workspace.
func statError(l loc, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errorf("No such file or directory: %s", l.virt)
	case errors.Is(err, fs.ErrPermission):
		return errorf("Permission denied: %s", l.virt)
	case isNotDir(err):
		return errorf("Not a directory: %s", l.virt)
	}
	return errorf("%s: %s", l.virt, describe(err))
}

// describe is an error's text without the real path (which must not leak).
func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// stat stats l following symlinks, with statError's messages.
func stat(l loc) (os.FileInfo, error) {
	if l.fi != nil {
		return l.fi, nil // resolving it found it (the open decides again)
	}
	fi, err := os.Stat(l.real)
	if err != nil {
		return nil, statError(l, err)
	}
	return fi, nil
}

// isNotDir reports whether err is ENOTDIR (a path component is a file).
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

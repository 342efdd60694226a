package fstools

import (
	"cmp"
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// entry is one visible directory entry met by a walk.
type entry struct {
	name    string
	rel     string // slash-separated, relative to the mount root
	real    string
	isDir   bool
	symlink bool // a symlink (inside the mount); directories behind one are not entered
}

// walker lists directories of one mount with the visibility rules: no
// dot-files or dot-directories, nothing a .gitignore ignores, no symlink
// leading out of the mount.
type walker struct {
	ctx   context.Context
	ws    *workspace
	mount int
}

// stackFor loads the .gitignore files of the mount root and every directory
// above rel (rel's own file is loaded when rel is listed).
func (w *walker) stackFor(rel string) ignoreStack {
	var s ignoreStack
	if rel == "" {
		return s
	}
	dir := ""
	parts := strings.Split(rel, "/")
	for i := 0; i < len(parts); i++ {
		if f := w.loadIgnore(dir); f != nil {
			s = s.push(f)
		}
		dir = path.Join(dir, parts[i])
	}
	return s
}

// loadIgnore parses dir's .gitignore, or returns nil when it has none.
func (w *walker) loadIgnore(dir string) *ignoreFile {
	real := filepath.Join(w.ws.mounts[w.mount].Dir, filepath.FromSlash(dir), ".gitignore")
	fi, err := os.Lstat(real)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return nil
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return nil
	}
	return parseIgnore(data, dir)
}

// list returns the visible entries of the directory rel (whose applicable
// ignore files are stack), sorted by name, and the stack for its children.
func (w *walker) list(rel string, stack ignoreStack) ([]entry, ignoreStack, error) {
	if err := w.ctx.Err(); err != nil {
		return nil, stack, err
	}
	dir := filepath.Join(w.ws.mounts[w.mount].Dir, filepath.FromSlash(rel))
	des, err := os.ReadDir(dir)
	if err != nil && len(des) == 0 {
		return nil, stack, err
	}
	for _, de := range des {
		if de.Name() == ".gitignore" && de.Type().IsRegular() {
			if f := w.loadIgnore(rel); f != nil {
				stack = stack.push(f)
			}
			break
		}
	}
	out := make([]entry, 0, len(des))
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		e := entry{name: name, rel: path.Join(rel, name), real: filepath.Join(dir, name)}
		switch t := de.Type(); {
		case t&fs.ModeSymlink != 0:
			fi, err := os.Stat(e.real)
			if err != nil || !w.ws.inside(w.mount, e.real) {
				continue
			}
			e.symlink = true
			e.isDir = fi.IsDir()
		case t.IsDir():
			e.isDir = true
		case !t.IsRegular():
			continue // devices, sockets, pipes: never read
		}
		if stack.ignored(e.rel, e.isDir) {
			continue
		}
		out = append(out, e)
	}
	return out, stack, nil
}

// walkFiles calls fn for every visible regular file under rel, depth first
// in path order: the order sort.Strings gives the paths. Directories
// behind symlinks are not entered; unreadable directories are skipped.
func (w *walker) walkFiles(rel string, stack ignoreStack, fn func(e entry) error) error {
	ents, stack, err := w.list(rel, stack)
	if err != nil {
		if ctxErr := w.ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		return nil
	}
	slices.SortStableFunc(ents, comparePathOrder)
	for _, e := range ents {
		if e.isDir {
			if e.symlink {
				continue
			}
			if err := w.walkFiles(e.rel, stack, fn); err != nil {
				return err
			}
			continue
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// comparePathOrder orders the entries of one directory as their paths sort
// byte-wise: a directory counts as its name followed by "/", so a depth-first
// walk meets "a-b/x", "a.txt", "a/x" in that order (os.ReadDir sorts bare
// names, which would enter "a/" before "a-b/" and "a.txt").
func comparePathOrder(a, b entry) int {
	n := min(len(a.name), len(b.name))
	if c := strings.Compare(a.name[:n], b.name[:n]); c != 0 {
		return c
	}
	return cmp.Compare(pathKeyByte(a, n), pathKeyByte(b, n))
}

// pathKeyByte is the byte at i of e's sort key (its name, then "/" for a
// directory), or -1 past its end.
func pathKeyByte(e entry, i int) int {
	switch {
	case i < len(e.name):
		return int(e.name[i])
	case i == len(e.name) && e.isDir:
		return '/'
	}
	return -1
}

// Package privdir keeps agsh's own folders private: a folder agsh reads
// and writes its state in (the completion cache, :status's memory) is the
// user's own, a real folder (never a symbolic link) and 0700
// (docs/console.md#status, docs/cli.md#completion-scripts).
package privdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Ensure checks the folder dir, creating it (0700, its parents too) when it
// is missing and create is set. A folder that is not one (a symbolic link,
// a file) or is not the user's own is refused with an error and left as it
// is; one of the user's with wider modes (group- or world-writable or
// readable) is repaired to 0700.
func Ensure(dir string, create bool) error {
	if dir == "" {
		return errors.New("no folder")
	}
	st, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return err
		}
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		st, err = os.Lstat(dir)
	}
	if err != nil {
		return err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symbolic link, not a folder of agsh's own", dir)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if !ownedByUser(st) {
		return fmt.Errorf("%s is not the user's own", dir)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// EnsureChain is Ensure of each folder from base's child down to dir
// (dir inside base): base itself is the user's to keep (a state or cache
// home), the folders agsh made below it are each checked, so that none of
// them is a link that leads elsewhere.
func EnsureChain(base, dir string, create bool) error {
	rel, err := filepath.Rel(base, dir)
	if err != nil || rel == "." || rel == ".." || filepath.IsAbs(rel) || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is not inside %s", dir, base)
	}
	at := base
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		at = filepath.Join(at, part)
		if err := Ensure(at, create); err != nil {
			return err
		}
	}
	return nil
}

// Owned reports a file (as os.Lstat answers it) of the user running agsh.
func Owned(st fs.FileInfo) bool { return ownedByUser(st) }

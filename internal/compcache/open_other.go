//go:build !unix

package compcache

import (
	"fmt"
	"os"
)

// oNoFollow: no such flag here; openNoFollow checks instead.
const oNoFollow = 0

// openNoFollow opens path for reading when it is a regular file and not a
// link (a reparse point): it is looked at without following it, opened,
// and must be the same file once open.
func openNoFollow(path string) (*os.File, error) {
	lst, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !lst.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !os.SameFile(lst, st) {
		f.Close()
		return nil, fmt.Errorf("%s changed while it was opened", path)
	}
	return f, nil
}

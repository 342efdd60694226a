//go:build !unix

package fstools

import (
	"io"
	"os"
)

// openFlags: other systems have no FIFOs to block on in a served tree.
const openFlags = os.O_RDONLY

// openReadFile is openRegular for read: the file and its size.
func openReadFile(name string) (io.ReadSeekCloser, int64, error) {
	f, fi, err := openRegular(name)
	if err != nil {
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

//go:build unix

package compcache

import (
	"os"
	"syscall"
)

// oNoFollow makes an open fail on a symbolic link.
const oNoFollow = syscall.O_NOFOLLOW

// openNoFollow opens path for reading without following a link, and
// without blocking on a FIFO (O_NONBLOCK: the file is then found not
// regular and left unread).
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

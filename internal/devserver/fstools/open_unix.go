//go:build unix

package fstools

import (
	"os"
	"syscall"
)

// openFlags opens without blocking: opening a FIFO (swapped in after a
// stat, or behind a symlink) must not wait for a writer.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

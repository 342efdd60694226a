//go:build linux

package termbg

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// pending is how many bytes wait in the terminal's input (-1: unknown).
func pending(fd int) int {
	n, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
	if err != nil {
		return -1
	}
	return n
}

// pushBack puts b back into the terminal's input, as if typed again
// (TIOCSTI); false when the system refuses it.
func pushBack(fd int, b []byte) bool {
	for i := range b {
		c := b[i]
		if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.TIOCSTI, uintptr(unsafe.Pointer(&c))); e != 0 {
			return false
		}
	}
	return true
}

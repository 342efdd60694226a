package ttyask

import "golang.org/x/sys/unix"

// flush discards the input typed before the question (tcflush TCIFLUSH).
func (t *terminal) flush() {
	if unix.IoctlSetInt(t.fd, unix.TCFLSH, unix.TCIFLUSH) != nil {
		t.drain()
	}
}

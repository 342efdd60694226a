//go:build unix

package ttyask

import (
	"context"
	"errors"
	"io"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// terminal is fd in raw mode, until restore.
type terminal struct {
	fd    int
	state *term.State
}

func open(fd int) (*terminal, error) {
	if fd < 0 || !term.IsTerminal(fd) {
		return nil, ErrNotTerminal
	}
	st, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	return &terminal{fd: fd, state: st}, nil
}

func (t *terminal) restore() { _ = term.Restore(t.fd, t.state) }

// pollStep is how often a read waiting for its key looks at ctx.
const pollStep = 100 // milliseconds

// key reads the bytes of one key press: what one read returns once the
// terminal has input, io.EOF at the end of the input.
func (t *terminal) key(ctx context.Context) ([]byte, error) {
	fds := []unix.PollFd{{Fd: int32(t.fd), Events: unix.POLLIN}}
	for {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		n, err := unix.Poll(fds, pollStep)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			continue
		}
		buf := make([]byte, 16)
		k, err := unix.Read(t.fd, buf)
		if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if k == 0 {
			return nil, io.EOF
		}
		return buf[:k], nil
	}
}

// drain discards the input the terminal holds (what flush does where the
// system has no call for it).
func (t *terminal) drain() {
	fds := []unix.PollFd{{Fd: int32(t.fd), Events: unix.POLLIN}}
	buf := make([]byte, 256)
	for i := 0; i < 1024; i++ {
		if n, err := unix.Poll(fds, 0); err != nil || n == 0 {
			return
		}
		if k, err := unix.Read(t.fd, buf); err != nil || k == 0 {
			return
		}
	}
}

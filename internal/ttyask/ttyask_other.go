//go:build !unix

package ttyask

import (
	"context"
	"os"

	"golang.org/x/term"
)

// terminal is fd in raw mode, until restore. Without poll, a read waiting
// for its key is not ended by ctx.
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

func (t *terminal) flush() {}

func (t *terminal) key(context.Context) ([]byte, error) {
	buf := make([]byte, 16)
	n, err := os.Stdin.Read(buf)
	return buf[:n], err
}

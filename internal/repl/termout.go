package repl

import (
	"io"
	"os"
)

// TerminalOut is the REPL's output: w (a redacting writer, say) for what
// is written, carrying the terminal file tty stands for, when it is one, so
// that bubbletea knows the terminal's size (without it no line is erased to
// its end when redrawn, and a shortened input line keeps stale characters).
func TerminalOut(w, tty io.Writer) io.Writer {
	f, ok := tty.(*os.File)
	if !ok {
		return w
	}
	return &termWriter{Writer: w, f: f}
}

// terminalFile is the terminal file behind the REPL's output, if any.
func terminalFile(w io.Writer) *os.File {
	switch t := w.(type) {
	case *termWriter:
		return t.f
	case *os.File:
		return t
	}
	return nil
}

// termWriter writes through to its Writer and otherwise is its terminal file
// (bubbletea's term.File: a ReadWriteCloser with a descriptor).
type termWriter struct {
	io.Writer
	f *os.File
}

func (t *termWriter) Read(p []byte) (int, error) { return t.f.Read(p) }
func (t *termWriter) Close() error               { return nil }
func (t *termWriter) Fd() uintptr                { return t.f.Fd() }

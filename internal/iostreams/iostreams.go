// Package iostreams holds agsh's standard streams with their terminal facts:
// whether each is a terminal, whether color is on (one policy: NO_COLOR,
// CLICOLOR_FORCE or FORCE_COLOR, CLICOLOR=0, TERM=dumb, then TTY
// detection), and the width. Nothing else
// in agsh writes to os.Stdout or os.Stderr. Tests build one with Test.
package iostreams

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"

	"golang.org/x/term"
)

// IOStreams are the standard streams of one agsh run.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	InTTY, OutTTY, ErrTTY bool
	// ColorOut and ColorErr say whether color may be written to each stream.
	ColorOut, ColorErr bool
	// Width is the terminal width of standard output, else COLUMNS, else 80.
	Width int

	// InFd is standard input's file descriptor when it is a file (for raw
	// mode in the REPL); -1 otherwise.
	InFd int

	// termSize asks standard output's terminal for its size (nil when it
	// is not a terminal); errSize standard error's.
	termSize, errSize func() (cols, rows int)

	// OpenTTY opens the process's terminal (/dev/tty) to write on, with its
	// size: where a question is drawn when standard input is a terminal
	// but standard error is not (docs/console.md#the-write-guard). Nil
	// (Test): there is none.
	OpenTTY func() (w io.WriteCloser, cols, rows int, err error)
}

// ErrSize is the size of standard error's terminal now (0, 0 when it is
// not one): where agsh's questions are drawn, standard output may be a
// pipe.
func (s *IOStreams) ErrSize() (cols, rows int) {
	if s.errSize == nil {
		return 0, 0
	}
	return s.errSize()
}

// Rows is the height of standard output's terminal now (0 when it is not
// one).
func (s *IOStreams) Rows() int {
	if s.termSize == nil {
		return 0
	}
	_, rows := s.termSize()
	return rows
}

// CurrentWidth is the width to render to now: the terminal's present
// width when standard output is one (it follows a resize), else Width.
func (s *IOStreams) CurrentWidth() int {
	if s.termSize != nil {
		if w, _ := s.termSize(); w > 0 {
			return w
		}
	}
	return s.Width
}

// Getenv is how System reads the environment; cmd/agsh passes os.Getenv.
type Getenv func(string) string

// System returns the process's real streams, with the color policy and width
// computed from getenv.
func System(getenv Getenv) *IOStreams {
	s := &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, InFd: int(os.Stdin.Fd())}
	s.InTTY = term.IsTerminal(int(os.Stdin.Fd()))
	s.OutTTY = term.IsTerminal(int(os.Stdout.Fd()))
	s.ErrTTY = term.IsTerminal(int(os.Stderr.Fd()))
	s.ColorOut = ColorPolicy(getenv, s.OutTTY)
	s.ColorErr = ColorPolicy(getenv, s.ErrTTY)
	s.Width = 0
	if s.OutTTY {
		fd := int(os.Stdout.Fd())
		s.termSize = func() (int, int) { w, h, _ := term.GetSize(fd); return w, h }
		if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
			s.Width = w
		}
	}
	if s.Width == 0 {
		s.Width = widthFromEnv(getenv)
	}
	if s.ErrTTY {
		fd := int(os.Stderr.Fd())
		s.errSize = func() (int, int) { w, h, _ := term.GetSize(fd); return w, h }
	}
	s.OpenTTY = openTTY
	return s
}

// openTTY opens /dev/tty for writing, with its size.
func openTTY() (io.WriteCloser, int, int, error) {
	f, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return nil, 0, 0, err
	}
	if !term.IsTerminal(int(f.Fd())) {
		_ = f.Close()
		return nil, 0, 0, errors.New("/dev/tty is not a terminal")
	}
	cols, rows, _ := term.GetSize(int(f.Fd()))
	return f, cols, rows, nil
}

// ColorPolicy is the one color rule of docs/cli.md#color, first match
// wins: NO_COLOR set and non-empty → no; CLICOLOR_FORCE or FORCE_COLOR set
// and not "0" → yes; CLICOLOR=0 → no; TERM=dumb → no; else tty.
func ColorPolicy(getenv Getenv, tty bool) bool {
	if getenv("NO_COLOR") != "" {
		return false
	}
	for _, force := range []string{"CLICOLOR_FORCE", "FORCE_COLOR"} {
		if v := getenv(force); v != "" && v != "0" {
			return true
		}
	}
	if getenv("CLICOLOR") == "0" || getenv("TERM") == "dumb" {
		return false
	}
	return tty
}

func widthFromEnv(getenv Getenv) int {
	if n, err := strconv.Atoi(getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}

// Test returns streams over buffers: no terminal, no color, width 80.
// Set the fields to pretend otherwise.
func Test(stdin string) (s *IOStreams, out, errOut *bytes.Buffer) {
	out, errOut = &bytes.Buffer{}, &bytes.Buffer{}
	s = &IOStreams{In: bytes.NewBufferString(stdin), Out: out, ErrOut: errOut, Width: 80, InFd: -1}
	return s, out, errOut
}

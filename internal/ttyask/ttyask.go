// Package ttyask asks one yes-or-no question on the terminal and reads the
// answer as one key (docs/console.md#the-write-guard): the terminal is put
// in raw mode for the read only, input typed before the question is
// discarded first (as sudo does with a password), and Ctrl-C, end of input
// and every other key are told apart. The read ends when ctx does.
package ttyask

import (
	"context"
	"errors"
	"io"
)

// Answer is what the key said.
type Answer int

const (
	// No: n, Enter, or any other key but y (the default of [y/N]).
	No Answer = iota
	// Yes: y or Y.
	Yes
	// EOF: Ctrl-D, or the end of the input.
	EOF
	// Interrupt: Ctrl-C, or ctx ended.
	Interrupt
)

// Key is the answer of the bytes one key press sent.
func Key(b []byte) Answer {
	if len(b) == 0 {
		return EOF
	}
	switch b[0] {
	case 'y', 'Y':
		return Yes
	case 0x03: // Ctrl-C
		return Interrupt
	case 0x04: // Ctrl-D
		return EOF
	}
	return No
}

// Echo is what is written after the prompt once the key is read, ending
// the question's line: "y", "n", or nothing for Enter and end of input.
func Echo(a Answer, b []byte) string {
	switch {
	case a == Yes:
		return "y\n"
	case a == Interrupt:
		return "^C\n"
	case a == No && len(b) > 0 && (b[0] == 'n' || b[0] == 'N'):
		return "n\n"
	}
	return "\n"
}

// ErrNotTerminal: fd is not a terminal agsh can read one key from.
var ErrNotTerminal = errors.New("standard input is not a terminal")

// Ask writes prompt on w and reads one key from the terminal fd, after
// discarding what was typed before; the echo of the answer ends the line.
func Ask(ctx context.Context, fd int, w io.Writer, prompt string) (Answer, error) {
	t, err := open(fd)
	if err != nil {
		return No, err
	}
	t.flush()
	_, _ = io.WriteString(w, prompt)
	b, err := t.key(ctx)
	t.restore()
	a := Key(b)
	switch {
	case ctx.Err() != nil:
		a = Interrupt
	case errors.Is(err, io.EOF):
		a = EOF
	case err != nil:
		_, _ = io.WriteString(w, "\n")
		return No, err
	}
	_, _ = io.WriteString(w, Echo(a, b))
	return a, nil
}

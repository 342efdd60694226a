package repl

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/interp/syntax"
)

// InterpRunner runs what the shells read through the interpreter of script
// mode (a Runner): a line typed in the REPL prints exactly what it prints
// in a script.
type InterpRunner struct {
	Runner *interp.Runner
	// Out and ErrOut are the Runner's streams between lines.
	Out, ErrOut io.Writer
}

// Run implements Runner.
func (r *InterpRunner) Run(ctx context.Context, src string, stdout, stderr io.Writer) (int, bool) {
	r.Runner.Stdout, r.Runner.Stderr = stdout, stderr
	defer func() { r.Runner.Stdout, r.Runner.Stderr = r.Out, r.ErrOut }()
	script, err := syntax.Parse(typed(src))
	if err != nil {
		fmt.Fprintf(stderr, "agsh: %s\n", err)
		if r.Runner.OnError != nil {
			r.Runner.OnError(stderr, exitcode.Usage, err.Error())
		}
		return exitcode.Usage, false
	}
	status := r.Runner.LastStatus()
	for _, l := range script.Lists {
		var exit bool
		status, exit = r.Runner.RunList(ctx, l)
		if exit || ctx.Err() != nil {
			return status, exit
		}
	}
	return status, false
}

// Incomplete implements Runner.
func (r *InterpRunner) Incomplete(src string) bool {
	_, err := syntax.Parse(typed(src))
	if e, ok := err.(interface{ Incomplete() bool }); ok {
		return e.Incomplete()
	}
	return false
}

// typed is what the lines typed so far say: an empty line after a
// backslash continuation ends the input, as in sh (in a script, a
// continuation with nothing after it is incomplete).
func typed(src string) string {
	if strings.HasSuffix(src, "\\\n") {
		return src + "\n"
	}
	return src
}

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

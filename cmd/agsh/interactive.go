package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agsh-dev/agsh/internal/repl"
	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/interp/syntax"
	"github.com/agsh-dev/agsh/render"
)

// interactive runs the REPL (standard input and output are terminals) or
// the plain line shell (only standard input is).
func (a *app) interactive(ctx context.Context, runner *interp.Runner) int {
	if err := a.launch(ctx); err != nil {
		return a.report(ctx, a.errOut, err)
	}
	name := a.client.Target()
	if info, err := a.loadInfo(ctx); err == nil && info.Name != "" {
		name = info.Name
	}
	session := a.binding.SessionID
	if session == "" {
		session = a.binding.ContinuationToken
	}
	cfg := repl.Config{
		// The deployment's words are untrusted: no escape reaches the terminal.
		AgentName:   render.SafeLabel(name),
		Target:      render.Safe(a.client.Target()),
		Session:     render.Safe(session),
		HistoryPath: repl.HistoryPathFrom(a.getenv, a.env.HomeDir()),
		Secrets:     a.secrets,
		Runner:      &replRunner{a: a, runner: runner},
		Completer:   newCompleter(a),
		In:          a.ios.In,
		Out:         terminalOut(a.out, a.ios.Out),
		ErrOut:      a.errOut,
		NoColor:     !a.ios.ColorOut,
	}
	var (
		status int
		err    error
	)
	if a.ios.OutTTY {
		status, err = repl.Run(ctx, cfg)
	} else {
		status, err = repl.RunPlain(ctx, cfg)
	}
	if err != nil {
		return a.report(ctx, a.errOut, err)
	}
	return status
}

// terminalOut is the REPL's output: w (the redacting writer) for what is
// written, carrying the terminal file tty stands for, when it is one, so that
// bubbletea knows the terminal's size (without it no line is erased to its end
// when redrawn, and a shortened input line keeps stale characters).
func terminalOut(w, tty io.Writer) io.Writer {
	f, ok := tty.(*os.File)
	if !ok {
		return w
	}
	return &termWriter{Writer: w, f: f}
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

// replRunner runs what the REPL reads through the same interpreter as
// script mode.
type replRunner struct {
	a      *app
	runner *interp.Runner
}

func (r *replRunner) Run(ctx context.Context, src string, stdout, stderr io.Writer) (int, bool) {
	r.runner.Stdout, r.runner.Stderr = stdout, stderr
	defer func() { r.runner.Stdout, r.runner.Stderr = r.a.out, r.a.errOut }()
	script, err := syntax.Parse(typed(src))
	if err != nil {
		fmt.Fprintf(stderr, "agsh: %s\n", err)
		if r.runner.OnError != nil {
			r.runner.OnError(stderr, exitUsage, err.Error())
		}
		return exitUsage, false
	}
	status := r.runner.LastStatus()
	for _, l := range script.Lists {
		var exit bool
		status, exit = r.runner.RunList(ctx, l)
		if exit || ctx.Err() != nil {
			return status, exit
		}
	}
	return status, false
}

func (r *replRunner) Incomplete(src string) bool {
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

// shellWords are the shell's own words and the filters, for completion.
var (
	shellWords  = []string{"help", "exit"}
	filterWords = []string{"head", "tail", "wc", "grep", "jq"}
)

// lineContext is what completion needs to know of the text before the
// cursor: the words of the current command, the word being typed and where
// it starts, and whether the command follows a pipe.
type lineContext struct {
	words     []string // complete words before the current one
	current   string
	start     int
	afterPipe bool
}

func scanLine(line string) lineContext {
	var lc lineContext
	var word strings.Builder
	inWord := false
	quote := byte(0)
	flush := func() {
		if inWord {
			lc.words = append(lc.words, word.String())
			word.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				word.WriteByte(c)
			}
		case c == '\'' || c == '"':
			if !inWord {
				inWord, lc.start = true, i
			}
			quote = c
		case c == '\\' && i+1 < len(line):
			if !inWord {
				inWord, lc.start = true, i
			}
			i++
			word.WriteByte(line[i])
		case c == ' ' || c == '\t':
			flush()
		case c == '|' || c == ';' || c == '&' || c == '\n':
			flush()
			pipe := c == '|' && !(i+1 < len(line) && line[i+1] == '|') && !(i > 0 && line[i-1] == '|')
			if c == '|' && i+1 < len(line) && line[i+1] == '|' {
				i++
			}
			if c == '&' && i+1 < len(line) && line[i+1] == '&' {
				i++
			}
			lc.words, lc.afterPipe = nil, pipe
		default:
			if !inWord {
				inWord, lc.start = true, i
			}
			word.WriteByte(c)
		}
	}
	if inWord {
		lc.current = word.String()
	} else {
		lc.start = len(line)
	}
	return lc
}

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/repl"
	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/interp/syntax"
	"github.com/agsh-dev/agsh/render"
)

// interactive runs the REPL (standard input and output are terminals) or
// the plain line shell (only standard input is).
func (a *app) interactive(ctx context.Context, h *shellHandler, runner *interp.Runner) int {
	if err := a.launch(ctx, h); err != nil {
		return a.report(ctx, a.errOut, err)
	}
	name := a.client.Target()
	if info, err := a.run.Info(ctx); err == nil && info.Name != "" {
		name = info.Name
	}
	session := a.run.Binding().SessionID
	if session == "" {
		session = a.run.Binding().ContinuationToken
	}
	cfg := repl.Config{
		// The deployment's words are untrusted: no escape reaches the terminal.
		AgentName:   render.Safe(name),
		Target:      render.Safe(a.client.Target()),
		Session:     render.Safe(session),
		HistoryPath: repl.HistoryPathFrom(a.getenv, a.env.HomeDir()),
		Secrets:     a.secrets,
		Runner:      &replRunner{a: a, runner: runner},
		Completer:   command.NewCompleter(a.run, h.table),
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
			r.runner.OnError(stderr, exitcode.Usage, err.Error())
		}
		return exitcode.Usage, false
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

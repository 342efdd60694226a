package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"

	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/internal/pager"
	"github.com/agsh-dev/agsh/internal/ttyask"
)

// The write guard (docs/console.md#the-write-guard): before a call of a
// tool that declares it writes (command.WriteGuard), and before a decision
// on a parked call, agsh asks when standard input and standard error are
// a terminal, unless --yes is given; a script or a pipe never asks. The
// question is drawn on standard error's terminal (standard output may be
// a pipe), whole, through the pager when it is taller than the screen; in
// the REPL, with the REPL's hold on the terminal released.

// declinedError: the operator answered anything but y (exit 1).
type declinedError struct{ what string }

func (e *declinedError) Error() string { return "the operator declined; " + e.what }

// ExitCode is 1: nothing ran, as a tool that reported a failure.
func (e *declinedError) ExitCode() int { return exitcode.ToolError }

// Code names it in the JSON error line (which status 1 does not print).
func (e *declinedError) Code() string { return "declined" }

// askInterrupted: Ctrl-C at the question (exit 130).
type askInterrupted struct{ what string }

func (e *askInterrupted) Error() string { return "interrupted; " + e.what }

// ExitCode is 130.
func (e *askInterrupted) ExitCode() int { return exitcode.Interrupted }

// Code names it in the JSON error line.
func (e *askInterrupted) Code() string { return "interrupted" }

// mayAsk reports whether a question would be asked: standard input and
// standard error are a terminal, and --yes is given neither at launch nor
// on the line (yes).
func (a *app) mayAsk(yes bool) bool {
	return a.ios.InTTY && a.ios.ErrTTY && !yes && a.g.Get("--yes") == ""
}

// confirm asks q when the run may ask (mayAsk) and returns nil for y; a
// declinedError for n, Enter, end of input or any other key; an
// askInterrupted for Ctrl-C. what is what is not done ("nothing was
// sent"). The target is added to q's facts.
func (a *app) confirm(ctx context.Context, yes bool, q meta.Question, what string) error {
	if !a.mayAsk(yes) {
		return nil
	}
	name := a.client.Target()
	if info, err := a.run.Info(ctx); err == nil && info.Name != "" {
		name = info.Name + " at " + a.client.Target()
	}
	q.Rows = append([]meta.QuestionRow{{Label: "target", Value: name}}, q.Rows...)
	text := iostreams.Redact(q.Text(), a.secrets...)
	var (
		ans ttyask.Answer
		err error
	)
	ask := func() { ans, err = a.askOnTerminal(ctx, text) }
	if a.term == nil || !a.term.Ask(ask) {
		ask()
	}
	switch {
	case err != nil:
		return command.Usagef("cannot ask on the terminal (%v); pass --yes to go on without a question", err)
	case ans == ttyask.Yes:
		return nil
	case ans == ttyask.Interrupt:
		return &askInterrupted{what}
	}
	return &declinedError{what}
}

// askOnTerminal writes the question on standard error's terminal and reads
// the key. A question taller than the screen goes through the pager first
// (its last line, the prompt, is then written again under it).
func (a *app) askOnTerminal(ctx context.Context, text string) (ttyask.Answer, error) {
	w := a.spinOut // standard error's terminal, never held by the pager
	cols, rows := a.ios.ErrSize()
	body, prompt := text, ""
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		body, prompt = text[:i+1], text[i+1:]
	}
	if rows > 0 && screenRows(body, cols)+1 >= rows {
		if cmd := pager.Command(a.lookupEnv); cmd != "" {
			p := pager.New(cmd, rows, cols, w, w, a.env.Environ())
			_, _ = p.Out().Write([]byte(body))
			_ = p.Close()
			body = ""
		}
	}
	if _, err := fmt.Fprint(w, body); err != nil {
		return ttyask.No, err
	}
	return ttyask.Ask(ctx, a.ios.InFd, w, prompt)
}

// screenRows is how many rows text takes on a screen cols wide.
func screenRows(text string, cols int) int {
	n := 0
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		w := runewidth.StringWidth(l)
		if cols <= 0 || w <= cols {
			n++
			continue
		}
		n += (w + cols - 1) / cols
	}
	return n
}

// guardCall asks before the call of r's tool when the tool declares a
// write (command.WriteGuard): the call whole as its command line, the
// target, the bound session and how it was chosen.
func (a *app) guardCall(ctx context.Context, r *toolRequest) error {
	g := command.WriteGuard(r.cmd.Detail)
	yes := false
	for _, gl := range r.call.Parsed.Globals {
		yes = yes || gl.Name == "--yes"
	}
	if !g.Ask || !a.mayAsk(yes) {
		return nil
	}
	line, _, err := r.cmd.CommandLine(r.call.Input)
	if err != nil {
		line = r.cmd.Name + " (its input is not a JSON object)"
	}
	q := meta.Question{Head: fmt.Sprintf("agsh: %s writes (%s)", r.cmd.Name, g.Reason()), Prompt: "Run it?"}
	q.Add("call", line)
	b := a.run.Binding()
	id := b.SessionID
	if id == "" {
		id = b.ContinuationToken
	}
	q.Add("session", meta.SessionFact(ctx, a.run.Client(), id, a.chosen(r.inShell), time.Now()))
	return a.confirm(ctx, yes, q, "nothing was sent")
}

// chosen says how the run's session was chosen: given at launch
// (--session, --continuation-token), else the latest.
func (a *app) chosen(inShell bool) string {
	switch e := a.run.Explicit(); {
	case e.SessionID != "" && inShell:
		return "given at launch (--session)"
	case e.SessionID != "":
		return "given (--session)"
	case e.ContinuationToken != "" && inShell:
		return "given at launch (--continuation-token)"
	case e.ContinuationToken != "":
		return "given (--continuation-token)"
	case inShell:
		return "the latest when this shell started"
	}
	return "the latest (none was given)"
}

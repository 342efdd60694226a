package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
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
// on a parked call, agsh asks when standard input is a terminal, unless
// --yes is given (at launch, on the line) or AGSH_YES is set. The question
// is drawn on standard error's terminal (standard output may be a pipe),
// else on /dev/tty, whole, through the pager when it is taller than the
// screen; in the REPL, with the REPL's hold on the terminal released.
// Where agsh cannot ask (standard input is not a terminal: a script, a
// pipe), the call or the decision is refused before it is sent, and a
// script before its first line runs (exit 2, unattendedError).

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

// unattendedError: a write or a decision agsh would ask about, where it
// cannot ask (exit 2). act says what would be done and where ("x writes
// (…) in session ses_…, the latest"), what what is then not done.
type unattendedError struct {
	act, what string
	// script: refused at the script's check, before its first line ran.
	script bool
}

func (e *unattendedError) Error() string {
	why := "standard input is not a terminal, so agsh cannot ask"
	if e.script {
		why = "a script cannot be asked"
	}
	return e.act + ": " + why + "; " + e.what + ": pass --yes, or set AGSH_YES=1 for a whole environment such as CI"
}

// ExitCode is 2: the line needs an option it lacks.
func (e *unattendedError) ExitCode() int { return exitcode.Usage }

// Code names it in the JSON error line.
func (e *unattendedError) Code() string { return "unattended" }

// yesWanted reports whether AGSH_YES says yes: set, and not empty nor a
// word for no (0, false, no, off, any case): AGSH_YES=false must not let
// writes through.
func yesWanted(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}

// yes reports whether the question is skipped: --yes on the line (line),
// at launch, or AGSH_YES.
func (a *app) yes(line bool) bool { return line || a.g.Get("--yes") != "" || a.yesEnv }

// mayAsk reports whether a question is due (MetaRun.WillAsk): no --yes,
// no AGSH_YES. confirm then asks it, or refuses when it cannot ask.
func (a *app) mayAsk(yes bool) bool { return !a.yes(yes) }

// confirm asks q when a question is due (mayAsk) and returns nil for y; a
// declinedError for n, Enter, end of input or any other key; an
// askInterrupted for Ctrl-C; an unattendedError when standard input is
// not a terminal. what is what is not done ("nothing was sent"). The
// target is added to q's facts.
func (a *app) confirm(ctx context.Context, yes bool, q meta.Question, what string) error {
	if !a.mayAsk(yes) {
		return nil
	}
	if !a.ios.InTTY {
		act := q.Act
		if act == "" {
			act = strings.TrimPrefix(q.Head, "agsh: ")
		}
		return &unattendedError{act: act, what: what}
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

// askOnTerminal writes the question on standard error's terminal, else on
// /dev/tty, and reads the key from standard input. A question taller than
// the screen goes through the pager first (its last line, the prompt, is
// then written again under it).
func (a *app) askOnTerminal(ctx context.Context, text string) (ttyask.Answer, error) {
	var w io.Writer = a.spinOut // standard error's terminal, never held by the pager
	cols, rows := a.ios.ErrSize()
	if !a.ios.ErrTTY {
		if a.ios.OpenTTY == nil {
			return ttyask.No, errNoTTY
		}
		tty, c, r, err := a.ios.OpenTTY()
		if err != nil {
			return ttyask.No, err
		}
		defer tty.Close()
		w, cols, rows = tty, c, r
	}
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

// errNoTTY: standard error is not a terminal and there is no /dev/tty to
// draw the question on.
var errNoTTY = errors.New("no terminal to draw the question on")

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
	b := a.run.Binding()
	id := b.SessionID
	if id == "" {
		id = b.ContinuationToken
	}
	if !a.ios.InTTY {
		// Refused before any request: the session is named as bound.
		return &unattendedError{act: writesIn(r.cmd.Name, g, id, a.chosen(r.inShell)), what: "nothing was sent"}
	}
	line, _, err := r.cmd.CommandLine(r.call.Input)
	if err != nil {
		line = r.cmd.Name + " (its input is not a JSON object)"
	}
	q := meta.Question{Head: fmt.Sprintf("agsh: %s writes (%s)", r.cmd.Name, g.Reason()), Prompt: "Run it?"}
	q.Add("call", line)
	q.Add("session", meta.SessionFact(ctx, a.run.Client(), id, a.chosen(r.inShell), time.Now()))
	return a.confirm(ctx, yes, q, "nothing was sent")
}

// writesIn is what a call of tool, whose guard is g, does and where: "x
// writes (it declares …) in session ses_…, the latest (none was given)".
func writesIn(tool string, g command.Guard, session, how string) string {
	where := "unbound, in an ephemeral workspace"
	if session != "" {
		where = "in session " + session + ", " + how
	}
	return tool + " writes (" + g.Reason() + ") " + where
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

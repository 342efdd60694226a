package cli

import (
	"context"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/internal/pager"
	"github.com/agsh-dev/agsh/internal/repl"
	"github.com/agsh-dev/agsh/internal/replcomp"
	"github.com/agsh-dev/agsh/internal/spin"
	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/render"
)

// interactive runs the REPL (standard input and output are terminals) or
// the plain line shell (only standard input is).
func (a *app) interactive(ctx context.Context, h *shellHandler, runner *interp.Runner) int {
	name, err := a.connectShell(ctx, h)
	if err != nil {
		return a.report(ctx, a.errOut, err)
	}
	session := a.run.Binding().SessionID
	if session == "" {
		session = a.run.Binding().ContinuationToken
	}
	escape, redact := replDrawing(a.secrets)
	cfg := repl.Config{
		// The deployment's words are untrusted: no escape reaches the terminal.
		AgentName:   render.SafeLabel(name),
		Target:      render.Safe(a.client.Target()),
		Session:     render.Safe(session),
		HistoryPath: repl.HistoryPathFrom(a.getenv, a.env.HomeDir()),
		Secrets:     a.secrets,
		Redact:      redact,
		Escape:      escape,
		Runner:      &interpRunner{runner: runner, out: a.out, errOut: a.errOut},
		Completer:   quietCompleter{a.completer(h)},
		In:          a.ios.In,
		Out:         repl.TerminalOut(a.out, a.ios.Out),
		ErrOut:      a.errOut,
		NoColor:     !a.ios.ColorOut,
		Pager:       pager.ShellCommand(a.lookupEnv),
	}
	var status int
	if a.ios.OutTTY {
		// :replay puts its line on the editor.
		lp := &linePutter{Runner: cfg.Runner}
		cfg.Runner, a.putLine = lp, lp.put
		defer func() { a.putLine = nil }()
		// The background query runs with Bubble Tea's hold released.
		cfg.Terminal = &repl.Terminal{}
		a.bg.Exclusive = cfg.Terminal.Exclusive
		a.term = cfg.Terminal
		status, err = repl.Run(ctx, cfg)
	} else {
		status, err = repl.RunPlain(ctx, cfg)
	}
	if err != nil {
		return a.report(ctx, a.errOut, err)
	}
	return status
}

// quietCompleter completes without logging its requests: a Tab never
// prints over the prompt, whatever AGSH_DEBUG says.
type quietCompleter struct{ c repl.Completer }

func (q quietCompleter) Complete(ctx context.Context, line string, cursor int) (repl.Completion, error) {
	return q.c.Complete(catalog.WithDebug(ctx, nil), line, cursor)
}

// connectShell binds the shell's session and loads the listing and the
// agent's name (its answers), showing "connecting to <target>…" on a
// terminal once they are slow; Ctrl-C (before the REPL has the terminal)
// interrupts them: the shell then exits 130.
func (a *app) connectShell(ctx context.Context, h *shellHandler) (string, error) {
	ctx, stopSignals := interruptible(ctx)
	defer stopSignals()
	stop := func() {}
	if a.ios.ErrTTY {
		stop = spin.StartLabel(a.spinOut, 300*time.Millisecond, 100*time.Millisecond,
			"connecting to "+render.SafeLabel(a.client.Target())+"…")
	}
	defer stop()
	if err := a.launch(ctx, h); err != nil {
		return "", err
	}
	name := a.client.Target()
	if info, err := a.run.Info(ctx); err == nil && info.Name != "" {
		name = info.Name
	} else if ctx.Err() != nil {
		return "", &catalog.Error{ErrCode: catalog.CodeInterrupted, Message: "interrupted"}
	}
	return name, nil
}

// linePutter is the REPL's runner with the line a command put on the
// editor (repl.LinePutter).
type linePutter struct {
	repl.Runner
	next string
}

func (l *linePutter) put(s string) { l.next = s }

// Live implements repl.LiveRunner: a line that starts with a live console
// word (:tail) is never held for the pager.
func (l *linePutter) Live(src string) bool {
	f := strings.Fields(src)
	return len(f) > 0 && meta.MetaLive(f)
}

// NextLine implements repl.LinePutter.
func (l *linePutter) NextLine() string {
	s := l.next
	l.next = ""
	return s
}

// completer is the REPL's Tab: the catalog's commands and flags, and the
// console words' operands from the deployment.
func (a *app) completer(h *shellHandler) *replcomp.Completer {
	c := replcomp.NewCompleter(a.run, h.table)
	c.Records = true
	return c
}

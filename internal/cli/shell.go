package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/interp/syntax"
	"github.com/agsh-dev/agsh/render"
)

// shell runs agsh without a command (docs/shell.md#modes): a script read from
// standard input when it is not a terminal, the plain line shell when only
// standard output is not a terminal, the REPL otherwise. The session identity
// is bound once, at launch, and printed once, at the end.
func (a *app) shell(ctx context.Context) int {
	if p, ok := a.env.(scriptProcess); ok && !a.ios.InTTY {
		// A script runs one command at a time: on one processor its
		// requests pass between net/http's goroutines without waking
		// another thread (docs/shell.md#the-cost-of-a-command).
		p.ScriptMode()
	}
	if err := a.connect(ctx); err != nil {
		return a.report(ctx, a.errOut, err)
	}
	h := &shellHandler{a: a, table: command.NewTable(nil)}
	runner := a.shellRunner(h)
	var status int
	if !a.ios.InTTY {
		status = a.script(ctx, h, runner)
	} else {
		status = a.interactive(ctx, h, runner)
	}
	a.flush()
	a.sessionLine(h.bound)
	return status
}

// shellRunner is the interpreter the shell's lines run in, script, line
// shell and REPL alike.
func (a *app) shellRunner(h *shellHandler) *interp.Runner {
	runner := &interp.Runner{Handler: h, Renderer: h, Stdout: a.out, Stderr: a.errOut, Prefix: "agsh: "}
	if a.ios.ErrTTY || a.ios.InTTY && a.ios.OutTTY { // the REPL prints stderr on the terminal
		runner.Clean = render.SafeLabel
	}
	if f := a.g.Format(); f.IsData() {
		// Failures of the shell itself get the error line, as a one-shot
		// command's do (docs/cli.md#the-json-error-line).
		runner.OnError = func(w io.Writer, _ int, msg string) {
			var err error = command.Usagef("%s", msg)
			if c := h.checked; c != nil && strings.HasSuffix(msg, c.Error()) {
				// A line the script's check refused: its own code
				// (unattended), the message as printed.
				err = &checkedError{msg, c}
			}
			h.checked = nil
			writeErrorLine(w, f, err)
		}
	}
	return runner
}

// launch binds the session and loads the catalog (in parallel:
// docs/wire.md#session-binding) into the shell's command table.
func (a *app) launch(ctx context.Context, h *shellHandler) error {
	tools, err := a.run.Tools(ctx)
	if err == nil {
		h.table = command.NewTable(tools)
		h.bound = true
	}
	return err
}

// script reads the whole script, parses it, then runs it; the first
// interrupt stops it with status 130.
func (a *app) script(ctx context.Context, h *shellHandler, runner *interp.Runner) int {
	src, err := io.ReadAll(a.ios.In)
	if err != nil {
		return a.report(ctx, a.errOut, fmt.Errorf("reading the script: %w", err))
	}
	if _, perr := syntax.Parse(string(src)); perr != nil {
		// Nothing runs, nothing is asked of the deployment.
		return runner.RunScript(ctx, string(src))
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	if err := a.launch(ctx, h); err != nil {
		return a.report(ctx, a.errOut, err)
	}
	// The namespace is fixed now: the details of the tools the script uses,
	// at once, then every line is checked (shellHandler.Check) before the
	// first runs.
	s, _ := syntax.Parse(string(src))
	a.run.Prefetch(ctx, h.toolsUsed(s))
	if runner.CheckScript(ctx, s, h) > 0 {
		h.bound = false // nothing ran: no session line, as after a syntax error
		return exitcode.Usage
	}
	return runner.RunParsed(ctx, s)
}

// toolsUsed are the tools a script's commands call (the tool of a :curl
// line's command too).
func (h *shellHandler) toolsUsed(s *syntax.Script) []string {
	var out []string
	for _, l := range s.Lists {
		for _, pl := range l.Pipelines {
			if pl == nil || len(pl.Commands) == 0 || pl.Commands[0] == nil {
				continue
			}
			argv := pl.Commands[0].Args()
			if m, ok := meta.LookupMeta(argv[0]); ok && m.Wraps {
				if rest := command.ScanMetaWords(argv[0], argv[1:]).Args; len(rest) > 0 {
					argv = rest
				}
			}
			if r := h.table.Lookup(argv[0]); r.IsTool() {
				out = append(out, r.Tool.Name)
			}
		}
	}
	return out
}

// Check is interp.Checker: a script's line checked before any runs, as it
// would be checked running, with the details already fetched: a meta
// command by its Check (a :curl line's command as that command), a tool
// line resolved and parsed. Only usage errors are answered.
func (h *shellHandler) Check(ctx context.Context, argv []string, last bool) (int, error) {
	i, err := h.check(ctx, argv, last)
	h.checked = err
	return i, err
}

// checkedError is a message of the script's check ("line 2: col 1: …")
// with the error it reports, whose code the JSON error line gives.
type checkedError struct {
	msg string
	err error
}

func (e *checkedError) Error() string { return e.msg }
func (e *checkedError) Unwrap() error { return e.err }

func (h *shellHandler) check(ctx context.Context, argv []string, last bool) (int, error) {
	off := 0
	if m, ok := meta.LookupMeta(argv[0]); ok {
		l, err := command.CheckMeta(argv)
		if err != nil {
			return errorWord(argv, err), err
		}
		if !m.Wraps {
			return 0, h.checkDecision(ctx, argv[0], l)
		}
		// The words after the meta command's name are a command line.
		rest := l.Args
		if len(rest) == 0 || !h.table.Lookup(rest[0]).IsTool() {
			return 0, nil // the meta command says so when it runs
		}
		off = len(argv) - len(rest)
		argv, last = rest, true
	}
	req := &toolRequest{name: argv[0], tool: h.table.ToolName(argv[0]), args: argv[1:], inShell: true, last: last,
		stdout: io.Discard, stderr: io.Discard}
	if !last {
		req.args = command.ScanToolWords(argv[1:]).ValueArgs()
	}
	err := h.a.resolveTool(ctx, req)
	help := false
	if err == nil {
		help, err = h.a.parseLine(req)
	}
	if err == nil && !help && off == 0 {
		err = h.checkWrite(req)
	}
	if err == nil || exitcode.Of(err) != exitcode.Usage {
		return 0, nil
	}
	return off + errorWord(argv, err), err
}

// checkWrite refuses, at a script's check, a call the write guard would ask
// about: a script cannot be asked (docs/console.md#the-write-guard).
func (h *shellHandler) checkWrite(r *toolRequest) error {
	if h.a.ios.InTTY {
		return nil // asked when it runs
	}
	err := h.a.guardCall(context.Background(), r)
	var u *unattendedError
	if errors.As(err, &u) {
		u.script, u.what = true, "no line ran"
		return u
	}
	return nil
}

// checkDecision refuses, at a script's check, a decision (:approve, :deny)
// without --yes: the decision is what a one-shot would refuse, found by
// the same reads, and is never sent (confirm refuses it before). l is the
// line's words as the check scanned them (command.CheckMeta).
func (h *shellHandler) checkDecision(ctx context.Context, name string, l command.Line) error {
	if name != meta.MetaApprove && name != meta.MetaDeny || h.a.ios.InTTY || !h.a.mayAsk(false) {
		return nil
	}
	var refused *unattendedError
	m := &meta.MetaRun{Client: h.a.run.Client(), Bound: h.a.run.Binding(), InShell: true, Out: io.Discard,
		Format: render.Text, Command: h.a.commandFor,
		WillAsk: func(bool) bool { return true },
		Confirm: func(_ context.Context, yes bool, q meta.Question, _ string) error {
			if !yes {
				refused = &unattendedError{act: q.Act, what: "no line ran", script: true}
			}
			return errCheckOnly
		},
	}
	if _, _, err := command.RunMeta(ctx, m, name, l); !errors.Is(err, errCheckOnly) || refused == nil {
		return nil // --yes on the line, or what the line meets when it runs
	}
	return refused
}

// errCheckOnly ends a decision line run at a script's check at its question:
// nothing is decided then.
var errCheckOnly = errors.New("checked only")

// shellHandler gives the interpreter the deployment's tools and help
// (interp.Handler), and renders a pipeline's final value as one-shot calls
// do (interp.Renderer).
type shellHandler struct {
	a     *app
	table *command.Table
	// bound: the shell bound its session and loaded the listing (the
	// session line is printed when it exits).
	bound bool
	// checked is the error of the line the script's check read last (its
	// message follows at once).
	checked error
	// format is the format the pipeline's tool was given (zero: the run's).
	format render.Format
	// notes are the notices of the pipeline's tool, printed after the
	// pipeline's output (never part of a filter's input).
	notes []string
}

// IsTool: a tool of the catalog, or a meta command (run like one).
func (h *shellHandler) IsTool(name string) bool {
	return h.table.Lookup(name).IsTool() || isMeta(name)
}

// Suggest is the command table's did-you-mean (command.Table.Resolve), the
// one one-shot agsh gives.
func (h *shellHandler) Suggest(name string) []string { return h.table.Resolve(name).Suggestions }

// UnknownNote says a name under the prefix of a connection the listing
// said was still starting is one of its tools, not a typo
// (interp.UnknownNoter).
func (h *shellHandler) UnknownNote(name string) string {
	if c := command.StartingFor(name, h.a.run.Starting()); c != "" {
		return command.StartingNote(c)
	}
	return ""
}

func (h *shellHandler) Call(ctx context.Context, argv []string, last bool, stdout, stderr io.Writer) (interp.Value, interp.Result) {
	h.format = render.Format{}
	if isMeta(argv[0]) {
		o := h.a.meta(ctx, argv, last, true, stdout, stderr)
		h.notes = o.notes
		return interp.Value{Text: o.value.Text, JSON: o.value.JSON, IsJSON: o.value.IsJSON, Final: o.value.Final},
			interp.Result{Status: o.status, Rendered: o.rendered}
	}
	req := &toolRequest{name: argv[0], tool: h.table.ToolName(argv[0]), args: argv[1:], inShell: true, last: last, stdout: stdout, stderr: stderr}
	var help bytes.Buffer
	if !last {
		// The tool's --output is the pipeline's: it renders the last value.
		l := command.ScanToolWords(argv[1:])
		h.format, _ = l.Format(h.a.g.Format()) // a bad value: the tool says so
		// A tool before a pipe writes on standard output only its help
		// (read --help | head): that text is the value the filters get.
		req.args, req.stdout = l.ValueArgs(), &help
	}
	o := h.a.runTool(ctx, req)
	h.notes = o.notes
	if !last && o.rendered && o.status == 0 {
		return interp.Value{Text: help.String(), Final: true}, interp.Result{}
	}
	_, _ = stdout.Write(help.Bytes())
	v := interp.Value{Text: o.value.Text, JSON: o.value.JSON, IsJSON: o.value.IsJSON, Final: o.value.Final}
	return v, interp.Result{Status: o.status, Rendered: o.rendered}
}

// Help is the shell's word help [--output text|json] [tool]. The --output is
// this command's, as on any command line; a filter's name gives its page.
func (h *shellHandler) Help(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	ctx = h.a.withDebug(ctx, stderr)
	l := command.ScanWords(args)
	words := l.Args
	f, err := l.Format(h.a.g.Format())
	if err != nil {
		return h.a.report(ctx, stderr, err)
	}
	if len(words) == 1 && !h.IsTool(words[0]) {
		if page, ok := interp.FilterHelp(words[0]); ok {
			_, _ = io.WriteString(stdout, page)
			return 0
		}
	}
	return h.a.helpWord(ctx, words, f, stdout, stderr)
}

// Render renders the final value of a pipeline.
func (h *shellHandler) Render(stdout, stderr io.Writer, v interp.Value) error {
	rv := render.Value{Text: v.Text, JSON: v.JSON, IsJSON: v.IsJSON, Final: v.Final}
	f := h.format
	if f.IsZero() {
		f = h.a.g.Format()
	}
	h.format = render.Format{}
	err := h.a.writeValue(stdout, stderr, rv, finalFormat(f, rv), "")
	h.a.notes(stderr, h.notes)
	h.notes = nil
	return err
}

// PropertyLines is an object's property view, for the filters.
func (h *shellHandler) PropertyLines(obj json.RawMessage) ([]string, error) {
	return render.PropertyLines(obj, h.a.ios.CurrentWidth())
}

package cli

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/resultstream"
	"github.com/agsh-dev/agsh/internal/spin"
	"github.com/agsh-dev/agsh/render"
)

// toolRequest is one tool command line to run.
type toolRequest struct {
	// name is the command's name; tool the tool it calls when the command
	// table already knows it ("": found from the name, see resolveTool).
	name, tool string
	args       []string
	// help asks for the tool's help page whatever the arguments.
	help bool
	// inShell refuses the launch-only options on the line.
	inShell bool
	// last: the command ends its pipeline and renders its value; otherwise
	// the value is returned for the filters after it.
	last           bool
	stdout, stderr io.Writer

	cmd  *command.Command
	call *command.Call
	// format is the line's format: the run's, replaced by the line's
	// --output (parseLine), unless set before (the help word's).
	format render.Format
	// input is the --input-json the words give, read once (inputJSON).
	input     string
	hasInput  bool
	inputRead bool
}

// inputJSON is the --input-json the line's words give (the shell's: a
// one-shot line's is the launch's), present false when none: the words
// are read for it once, whoever asks, and not at all when the launch's
// scan already took every one of agsh's options from them (app.taken).
func (r *toolRequest) inputJSON() (value string, present bool) {
	if !r.inputRead {
		r.input, r.hasInput = command.OptionValue(r.args, "--input-json")
		r.inputRead = true
	}
	return r.input, r.hasInput
}

// outcome is what one tool command produced: a value to pass on (when it
// was not the last command of its pipeline), its status, and whether it
// already wrote its output.
type outcome struct {
	value    render.Value
	status   int
	rendered bool
	// notes are a curated command's notices, for standard error after the
	// output (the caller's to print when the value is passed on).
	notes []string
}

// runTool runs one tool command line, top to bottom: resolve the command,
// parse the line, call the tool, and view the result. Messages go to
// stderr; the caller prints the session line.
func (a *app) runTool(ctx context.Context, r *toolRequest) outcome {
	ctx = a.withDebug(ctx, r.stderr)
	fail := func(err error) outcome {
		return outcome{status: a.report(ctx, r.stderr, err), rendered: true}
	}
	if err := a.resolveTool(ctx, r); err != nil {
		return fail(err)
	}
	helpAsked, err := a.parseLine(r)
	if helpAsked {
		// Help is asked for: nothing else on the line matters.
		if err := a.writeToolHelp(ctx, r.stdout, r.cmd, r.format); err != nil {
			return fail(err)
		}
		return outcome{rendered: true}
	}
	if err != nil {
		return fail(err)
	}
	if err := a.guardCall(ctx, r); err != nil {
		return fail(err)
	}
	stop := func() {}
	if !r.inShell && a.ios.ErrTTY && a.ios.OutTTY { // one-shot on a terminal: the REPL has its own
		stop = spin.Start(a.spinOut, 300*time.Millisecond, 100*time.Millisecond)
	}
	res, v, done, err := a.callTool(ctx, r, stop)
	if err == nil && done == nil && res.IsError {
		if next, ok := r.cmd.Retry(r.call, render.ErrorText(v)); ok {
			r.call = next // read PATH:N, no file PATH:N: PATH from line N
			res, v, done, err = a.callTool(ctx, r, stop)
		}
	}
	stop()
	if err != nil {
		var ce *catalog.Error
		if errors.As(err, &ce) {
			ce.IssueFlag = r.cmd.IssueFlag
		}
		return fail(err)
	}
	if res.ScratchWorkspace {
		a.message(r.stderr, "", "note: ran in a scratch workspace (the session's workspace is unavailable)")
	}
	if done != nil {
		return *done
	}
	o, err := a.view(r, v, res.IsError)
	if err != nil {
		return fail(err)
	}
	return o
}

// callTool calls the tool. The last command's text result streams to
// standard output when it may (internal/resultstream): done is then its
// outcome, unless the text was held (it may be JSON) and comes back as v.
func (a *app) callTool(ctx context.Context, r *toolRequest, stopSpinner func()) (res *catalog.CallResult, v render.Value, done *outcome, err error) {
	st := resultstream.New(r.stdout, resultstream.Options{Spec: r.cmd.Spec(), Reformat: r.call.Reformat, Last: r.last,
		Format: r.format, Highlighted: a.outOpts().Color && r.cmd.Highlight(r.call, true) != "", Render: a.outOpts()})
	var stream catalog.StreamFunc
	if f := st.Func(); f != nil {
		stream = func() io.Writer { stopSpinner(); return f() } // the text begins
	}
	if d := a.callTimeout(r); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = catalog.WithCallTimeout(ctx, d)
		defer cancel()
	}
	if r.last && !r.format.IsData() {
		// Shown by its view: an array result of objects is a table, read
		// from the index of the answer's check.
		ctx = catalog.WithRows(ctx)
	}
	res, err = a.run.CallStream(ctx, r.cmd.Detail.Name, r.call.Input, stream)
	if (res == nil || !res.Streamed) && (err != nil || !resultstream.FeedHeld(stream, r.format, res)) {
		if err != nil {
			return nil, v, nil, err
		}
		if res.Checked {
			v := render.FromCheckedResult(res.Result, res.Rows)
			res.Rows = nil // the Value's now
			return res, v, nil, nil
		}
		return res, render.FromResult(res.Result), nil, nil
	}
	end, err := st.Finish(err, func(n string) { a.message(r.stderr, "", n) })
	if err != nil || end.Held {
		return res, end.Value, nil, err
	}
	return res, v, &outcome{status: end.Status, rendered: true}, nil
}

// resolveTool fetches the detail of the tool the command calls and builds
// the command: the tool the shell's table resolved (r.tool), else the first
// of the name's tool meanings the deployment has (toolOf).
func (a *app) resolveTool(ctx context.Context, r *toolRequest) error {
	var d *catalog.ToolDetail
	var err error
	if r.tool != "" {
		d, err = a.run.Tool(ctx, r.tool)
	} else {
		d, err = a.toolOf(ctx, r.name)
	}
	if err != nil {
		var starting []string
		if catalog.IsCode(err, catalog.CodeUnknownTool) {
			// The listing says which connections are still starting: a
			// tool of theirs is not a typo. One more request, on this path
			// only; its failure changes nothing.
			if _, lerr := a.run.Tools(ctx); lerr == nil {
				starting = a.run.Starting()
			}
		}
		return command.UnknownTool(r.name, err, starting...)
	}
	r.cmd, err = a.cmds.For(r.name, d)
	return err
}

// toolOf is the detail of the tool a command name calls when no listing is
// loaded: the command table's tool meanings, in order
// (command.ToolCandidates: the tool of that name, a curated command's, an
// alias's), asked of the deployment until one is not unknown to it.
func (a *app) toolOf(ctx context.Context, name string) (*catalog.ToolDetail, error) {
	var d *catalog.ToolDetail
	var err error
	for _, tool := range command.ToolCandidates(name) {
		if d, err = a.run.Tool(ctx, tool); !catalog.IsCode(err, catalog.CodeUnknownTool) {
			break
		}
	}
	return d, err
}

// parseLine parses the arguments and reads the line's --output, its whole
// input (--input-json) and launch-only options. helpAsked reports that
// help is to be printed.
func (a *app) parseLine(r *toolRequest) (helpAsked bool, err error) {
	r.call, err = r.cmd.Parse(r.args) // the words alone: is help asked for?
	if r.format.IsZero() {
		r.format = a.g.Format() // the run's, unless the line's is known (help --output json tool)
	}
	if r.help || (r.call != nil && r.call.Parsed.Help) {
		if r.call != nil {
			r.format = command.HelpOutput(r.call.Parsed.Globals, r.format)
		}
		return true, nil
	}
	if lerr := command.CheckLate(a.late, r.cmd); lerr != nil && !r.inShell {
		return false, lerr // before the parse's own errors: the late option is the mistake
	}
	if a.needsOptions(r) {
		var o command.ParseOptions
		if o, err = a.lineOptions(r); err != nil {
			return false, err
		}
		r.call, err = r.cmd.ParseWith(r.args, o)
	}
	if err != nil {
		return false, err
	}
	r.format, err = command.LineOutput(r.call.Parsed.Globals, r.format, r.inShell)
	return false, err
}

// needsOptions reports a line that reads more than its words: a whole input
// (--input-json), or a JSON-valued flag's value "@…".
func (a *app) needsOptions(r *toolRequest) bool {
	if _, ok := r.inputJSON(); ok || !r.inShell && a.g.Get("--input-json") != "" {
		return true
	}
	for _, w := range r.args {
		if strings.Contains(w, "@") {
			return true
		}
	}
	return false
}

// callTimeout is the time limit of the line's call: its --timeout, else
// the run's (0: none).
func (a *app) callTimeout(r *toolRequest) time.Duration {
	v := a.g.Get("--timeout")
	if r.call != nil {
		for _, g := range r.call.Parsed.Globals {
			if g.Name == "--timeout" {
				v = g.Value
			}
		}
	}
	if v == "" {
		return 0
	}
	d, _ := generated.ParseTimeout(v) // checked when the line was read
	return d
}

// view turns a tool's result into the outcome: an error line, the
// reformatted text of a curated command, the value rendered (last), or the
// value passed on.
func (a *app) view(r *toolRequest, v render.Value, isError bool) (outcome, error) {
	if msg, isWrapper := render.ErrorMessage(v); isError || isWrapper {
		if r.format.IsData() && r.last {
			// Marked as an error, so a script tells it from data.
			_ = r.format.Data.Value(r.stdout, render.ErrorValue(v))
			return outcome{status: exitcode.ToolError, rendered: true}, nil
		}
		if isError {
			msg = render.ErrorText(v)
		}
		render.WriteError(r.stderr, a.safeErr(msg), a.errOpts())
		return outcome{status: exitcode.ToolError, rendered: true}, nil
	}
	status, notes := exitcode.OK, []string(nil)
	if !r.format.IsData() && !v.IsJSON {
		if out, ok := r.cmd.Reformat(v.Text, r.call); ok {
			v = render.Value{Text: out.Stdout, Final: true}
			status, notes = out.Status, out.Notes
		}
	}
	if line := r.cmd.NextPage(a.pageArgs(r), v); line != "" {
		notes = append(notes, line) // after the value, or the pipeline's output
	}
	if !r.last {
		return outcome{value: v, status: status, notes: notes}, nil
	}
	if !r.format.IsData() && r.cmd.SaysEmpty() && render.IsEmpty(v) {
		notes = append([]string{noResults}, notes...)
	}
	err := a.writeValue(r.stdout, r.stderr, v, r.format, r.cmd.Highlight(r.call, v.Final))
	a.notes(r.stderr, notes)
	return outcome{status: status, rendered: true}, err
}

// pageArgs are the words of the next page's command: the line's, with the
// one-shot --input-json (but standard input, read once).
func (a *app) pageArgs(r *toolRequest) []string {
	if _, given := r.inputJSON(); given {
		return r.args // kept by the command's NextPage, as the line gave it
	}
	if v := a.g.Get("--input-json"); v != "" && v != "@-" && !r.inShell {
		return append(append([]string(nil), r.args...), "--input-json", v)
	}
	return r.args
}

// noResults is the note of an empty answer in the text view (kubectl's "No
// resources found"): standard output stays empty.
const noResults = "(no results)"

// notes prints a command's notices on standard error, after its output.
func (a *app) notes(w io.Writer, notes []string) {
	for _, n := range notes {
		a.message(w, "", n)
	}
}

// safeErr makes server text safe for standard error when it is a terminal.
func (a *app) safeErr(s string) string {
	if a.ios.ErrTTY {
		return render.Safe(s)
	}
	return s
}

// writeValue renders a final value on standard output (w; its notes on
// errW, the command's standard error).
func (a *app) writeValue(w, errW io.Writer, v render.Value, f render.Format, highlight string) error {
	return render.WriteFinal(w, errW, v, f, highlight, a.outOpts())
}

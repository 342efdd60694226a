package cli

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/render"
)

// isMeta reports a meta command (:sessions, :help).
func isMeta(name string) bool { return command.NewTable(nil).Lookup(name).Kind == command.Meta }

// maxPipedMeta bounds what a console word writes into a pipeline of the
// shell (its value for the filters).
const maxPipedMeta = 64 << 20

// meta runs a meta command line: its value is rendered (last) or passed on.
// A console word that writes as it goes writes to stdout when last, else
// into its value (bounded).
func (a *app) meta(ctx context.Context, argv []string, last, inShell bool, stdout, stderr io.Writer) outcome {
	ctx = a.withDebug(ctx, stderr)
	b := a.run.Binding() // the shell's; before any call, the one asked for
	if b.IsZero() {
		b = catalog.Binding{SessionID: a.g.Get("--session"), ContinuationToken: a.g.Get("--continuation-token")}
	}
	me, _ := meta.LookupMeta(argv[0])
	if v := a.g.Get("--timeout"); !inShell && v != "" && metaTakes(me, "--timeout") {
		// agsh :wait … --timeout 1s: the scan took --timeout as agsh's (a
		// call's time limit); a meta command with a --timeout of its own
		// gets it.
		argv = append(argv[:len(argv):len(argv)], "--timeout", v)
	}
	out, opts := stdout, a.outOpts()
	var piped *boundedBuffer
	if !last && me != nil && me.Writes {
		piped = &boundedBuffer{max: maxPipedMeta}
		out, opts = piped, render.Options{Width: opts.Width}
	}
	m := &meta.MetaRun{Client: a.run.Client(), Bound: b, InShell: inShell,
		Out: out, OutOpts: opts, Format: a.g.Format(), Live: last && a.ios.OutTTY, Last: last,
		Note:       func(s string) { a.message(stderr, "", s) },
		Tools:      a.run.Tools,
		Command:    a.commandFor,
		Yes:        a.g.Get("--yes") != "",
		WillAsk:    a.mayAsk,
		Confirm:    a.confirm,
		Rotated:    a.run.Rotated,
		Token:      a.run.Token,
		Credential: a.cred, CredentialFlag: a.credFlag,
		Status: a.statusFacts(),
		Prepare: func(ctx context.Context, argv []string) (*catalog.PreparedCall, error) {
			return a.prepareCall(ctx, argv, inShell)
		},
	}
	if inShell && last && a.putLine != nil {
		m.PutLine = a.putLine
	}
	if last && a.ios.InTTY && a.ios.OutTTY {
		m.Screen = a.fullScreen
	}
	res, f, err := command.RunMeta(ctx, m, argv[0], a.commandLine(argv[0], argv[1:], inShell))
	if piped != nil && piped.over {
		err = command.Usagef("%s wrote more than 64 MiB into the pipeline; narrow it (--last, --type, --tool)", argv[0])
	}
	if err == nil && piped != nil && res.Written {
		if f.IsData() {
			res.Value = render.Value{JSON: piped.Bytes(), IsJSON: true}
		} else {
			res.Value = render.Value{Text: piped.String()}
		}
		res.Written = false
	}
	switch {
	case err == nil && last && !res.Written && res.Text != nil && !f.IsData():
		err = res.Text(stdout, a.outOpts())
	case err == nil && last && !res.Written:
		err = a.writeValue(stdout, stderr, res.Value, finalFormat(f, res.Value), "")
	}
	if err == nil && last && !f.IsData() {
		a.notes(stderr, res.Notes)
	}
	if err != nil {
		return outcome{status: a.report(ctx, stderr, err), rendered: true}
	}
	o := outcome{value: res.Value, notes: res.Notes, rendered: last}
	if last {
		// :status's verdict is the line's status; piped, its screen is the
		// filters' input and their status the pipeline's.
		o.status = res.Status
	}
	return o
}

// commandFor is the live command of a tool: its detail, fetched once per
// run, as a command (for a console word writing a call as a command line).
func (a *app) commandFor(ctx context.Context, tool string) (meta.Command, error) {
	d, err := a.run.Tool(ctx, tool)
	if err != nil {
		return nil, err
	}
	cmd, err := a.cmds.For(d.Name, d)
	if err != nil || cmd == nil {
		return nil, err
	}
	return cmd, nil
}

// boundedBuffer is a buffer that takes at most max bytes.
type boundedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

var errPipedTooLarge = errors.New("too large for a pipeline")

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		b.over = true
		return 0, errPipedTooLarge
	}
	return b.Buffer.Write(p)
}

// finalFormat is the format a pipeline's final value is written in: final
// text (a filter's output, help) is text in every format.
func finalFormat(f render.Format, v render.Value) render.Format {
	if v.Final {
		return render.Text
	}
	return f
}

// prepareCall resolves and parses a tool's command line as its call would
// be (the detail and the binding fetched as any command fetches them) and
// answers the request the call would send, sending nothing: :curl.
func (a *app) prepareCall(ctx context.Context, argv []string, inShell bool) (*catalog.PreparedCall, error) {
	r := &toolRequest{name: argv[0], args: argv[1:], inShell: inShell, last: true, stdout: io.Discard, stderr: io.Discard}
	if err := a.resolveTool(ctx, r); err != nil {
		return nil, err
	}
	help, err := a.parseLine(r)
	if help {
		return nil, command.Usagef("%s %s asks for help, which makes no call", meta.MetaCurl, argv[0])
	}
	if err != nil {
		return nil, err
	}
	return a.run.Client().PrepareCall(r.cmd.Detail.Name, r.call.Input, a.run.Binding())
}

// fullScreen runs a full-screen program (:top) on the terminal, with the
// REPL's hold on it released while it runs.
func (a *app) fullScreen(run func(in io.Reader, out io.Writer) error) error {
	if p, ok := a.env.(screenProcess); ok {
		p.ScreenMode()
	}
	var err error
	fn := func() { err = run(a.ios.In, a.ios.Out) }
	if a.term == nil || !a.term.Exclusive(fn) {
		fn()
	}
	return err
}

// metaTakes reports a meta command with a flag of that name.
func metaTakes(me *meta.MetaCommand, flag string) bool {
	if me == nil {
		return false
	}
	for _, f := range me.Flags {
		if f.Name == flag {
			return true
		}
	}
	return false
}

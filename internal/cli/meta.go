package cli

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/render"
)

// isMeta reports a meta command (:sessions, :help).
func isMeta(name string) bool { return command.NewTable(nil).Resolve(name).Kind == command.Meta }

// metaLive reports a meta command that runs for as long as it is left to
// (:tail): no pager may hold its output.
func metaLive(name string) bool {
	m, ok := command.LookupMeta(name)
	return ok && m.Live
}

// maxPipedMeta bounds what a console word writes into a pipeline of the
// shell (its value for the filters).
const maxPipedMeta = 64 << 20

// meta runs a meta command line: its value is rendered (last) or passed on.
// A console word that writes as it goes writes to stdout when last, else
// into its value (bounded).
func (a *app) meta(ctx context.Context, argv []string, last, inShell bool, stdout, stderr io.Writer) outcome {
	b := a.run.Binding() // the shell's; before any call, the one asked for
	if b.IsZero() {
		b = catalog.Binding{SessionID: a.g.Get("--session"), ContinuationToken: a.g.Get("--continuation-token")}
	}
	if !inShell && a.g.Help {
		// agsh :deny --help: the scan took --help as agsh's.
		argv = append(argv[:1:1], "--help")
	}
	me, _ := command.LookupMeta(argv[0])
	out, opts := stdout, a.outOpts()
	var piped *boundedBuffer
	if !last && me != nil && me.Writes {
		piped = &boundedBuffer{max: maxPipedMeta}
		out, opts = piped, render.Options{Width: opts.Width}
	}
	m := &command.MetaRun{Client: a.run.Client(), Bound: b, InShell: inShell,
		Out: out, OutOpts: opts, Format: a.g.Format(), Live: last && a.ios.OutTTY,
		Note:    func(s string) { a.message(stderr, "", s) },
		Tools:   a.run.Tools,
		Command: a.commandFor,
		Yes:     a.g.Get("--yes") != "",
		WillAsk: a.mayAsk,
		Confirm: a.confirm,
		Rotated: a.run.Rotated,
		Token:   a.run.Token,
	}
	if inShell && last && a.putLine != nil {
		m.PutLine = a.putLine
	}
	res, output, err := command.RunMeta(ctx, m, argv)
	f := command.LineFormat(output, a.g.Format())
	if piped != nil && piped.over {
		err = command.Usagef("%s wrote more than 64 MiB into the pipeline; narrow it (--last, --type, --tool)", argv[0])
	}
	if err == nil && piped != nil {
		if f.IsData() {
			res.Value = render.Value{JSON: piped.Bytes(), IsJSON: true}
		} else {
			res.Value = render.Value{Text: piped.String()}
		}
		res.Written = false
	}
	if err == nil && last && !res.Written {
		err = a.writeValue(stdout, stderr, res.Value, finalFormat(f, res.Value), "")
	}
	if err == nil && last && !f.IsData() {
		a.notes(stderr, res.Notes)
	}
	if err != nil {
		return outcome{status: a.report(ctx, stderr, err), rendered: true}
	}
	return outcome{value: res.Value, notes: res.Notes, rendered: last}
}

// commandFor is the live command of a tool: its detail, fetched once per
// run, as a command (for a console word writing a call as a command line).
func (a *app) commandFor(ctx context.Context, tool string) (*command.Command, error) {
	d, err := a.run.Tool(ctx, tool)
	if err != nil {
		return nil, err
	}
	return a.cmds.For(d.Name, d)
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

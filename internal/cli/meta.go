package cli

import (
	"context"
	"io"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/render"
)

// isMeta reports a meta command (:sessions, :help).
func isMeta(name string) bool { return command.NewTable(nil).Resolve(name).Kind == command.Meta }

// meta runs a meta command line: its value is rendered (last) or passed on.
func (a *app) meta(ctx context.Context, argv []string, last, inShell bool, stdout, stderr io.Writer) outcome {
	b := a.run.Binding() // the shell's; before any call, the one asked for
	if b.IsZero() {
		b = catalog.Binding{SessionID: a.g.Get("--session"), ContinuationToken: a.g.Get("--continuation-token")}
	}
	v, notes, output, err := command.RunMeta(ctx, &command.MetaRun{Client: a.run.Client(), Bound: b, InShell: inShell}, argv)
	if err == nil && last {
		f := command.LineFormat(output, a.g.Format())
		if err = a.writeValue(stdout, stderr, v, finalFormat(f, v), ""); !f.IsData() {
			a.notes(stderr, notes)
		}
	}
	if err != nil {
		return outcome{status: a.report(ctx, stderr, err), rendered: true}
	}
	return outcome{value: v, notes: notes, rendered: last}
}

// finalFormat is the format a pipeline's final value is written in: final
// text (a filter's output, help) is text in every format.
func finalFormat(f render.Format, v render.Value) render.Format {
	if v.Final {
		return render.Text
	}
	return f
}

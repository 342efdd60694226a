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
	ctx = a.withDebug(ctx, stderr)
	b := a.run.Binding() // the shell's; before any call, the one asked for
	if b.IsZero() {
		b = catalog.Binding{SessionID: a.g.Get("--session"), ContinuationToken: a.g.Get("--continuation-token")}
	}
	m := &command.MetaRun{Client: a.run.Client(), Bound: b, InShell: inShell,
		Credential: a.cred, CredentialFlag: a.credFlag,
		Prepare: func(ctx context.Context, argv []string) (*catalog.PreparedCall, error) {
			return a.prepareCall(ctx, argv, inShell)
		}}
	v, notes, output, err := command.RunMeta(ctx, m, argv)
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
		return nil, command.Usagef("%s %s asks for help, which makes no call", command.MetaCurl, argv[0])
	}
	if err != nil {
		return nil, err
	}
	return a.run.Client().PrepareCall(r.cmd.Detail.Name, r.call.Input, a.run.Binding())
}

package cli

import (
	"context"
	"io"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
)

// isMeta reports a meta command (:sessions, :help).
func isMeta(name string) bool { return command.NewTable(nil).Resolve(name).Kind == command.Meta }

// meta runs a meta command line: its value is rendered (last) or passed on.
func (a *app) meta(ctx context.Context, argv []string, last, inShell bool, stdout, stderr io.Writer) outcome {
	b := a.run.Binding() // the shell's; before any call, the one asked for
	if b.IsZero() {
		b = catalog.Binding{SessionID: a.g.Get("--session"), ContinuationToken: a.g.Get("--continuation-token")}
	}
	v, notes, output, err := command.RunMeta(ctx, a.run.Client(), b, argv, inShell)
	if err == nil && last {
		jsonOut := command.JSONOutput(output, a.g.JSON())
		if err = a.writeValue(stdout, stderr, v, jsonOut && !v.Final, ""); !jsonOut {
			a.notes(stderr, notes)
		}
	}
	if err != nil {
		return outcome{status: a.report(ctx, stderr, err), rendered: true}
	}
	return outcome{value: v, notes: notes, rendered: last}
}

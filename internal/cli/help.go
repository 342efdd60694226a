package cli

import (
	"context"
	"io"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/render"
)

// writeToolHelp prints `agsh <tool> --help`
// (docs/rendering.md#help-for-one-tool); /v1/info is asked only when the detail declares no effect.
func (a *app) writeToolHelp(ctx context.Context, w io.Writer, cmd *command.Command, f render.Format) error {
	page := command.HelpPage(cmd, func() *catalog.Info {
		info, _ := a.run.Info(ctx)
		return info
	})
	if f.IsData() {
		return f.Data.Document(w, command.HelpJSON(cmd, page))
	}
	return render.WriteHelp(w, page, a.outOpts())
}

// writeIndex prints `agsh help` (docs/rendering.md#agsh-help).
func (a *app) writeIndex(ctx context.Context, w io.Writer, f render.Format) error {
	info, tools, err := a.run.Index(ctx)
	if err != nil {
		return err
	}
	page, doc := command.IndexPage(info, tools, a.run.Starting()...)
	if f.IsData() {
		return f.Data.Document(w, doc())
	}
	return render.WriteIndex(w, page, a.outOpts())
}

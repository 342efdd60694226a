package cli

import (
	"context"
	"io"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/render"
)

// writeToolHelp prints `agsh <tool> --help` (render.md, "Help for one
// tool"); /v1/info is asked only when the detail declares no effect.
func (a *app) writeToolHelp(ctx context.Context, w io.Writer, cmd *command.Command, jsonOut bool) error {
	page := command.HelpPage(cmd, func() *catalog.Info {
		info, _ := a.run.Info(ctx)
		return info
	})
	if jsonOut {
		return render.EncodeJSON(w, command.HelpJSON(cmd, page), true)
	}
	return render.WriteHelp(w, page, a.outOpts())
}

// writeIndex prints `agsh help` (render.md, "agsh help").
func (a *app) writeIndex(ctx context.Context, w io.Writer, jsonOut bool) error {
	info, tools, err := a.run.Index(ctx)
	if err != nil {
		return err
	}
	page, doc := command.IndexPage(info, tools)
	if jsonOut {
		return render.EncodeJSON(w, doc(), true)
	}
	return render.WriteIndex(w, page, a.outOpts())
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/render"
)

// report prints an error the agsh way ("agsh: …", or "agsh: line 3: …" in
// a script), worded for the command line (meta.Advise), with the JSON
// error line under --output json; it returns the exit status
// (exitcode.Of: errors carry their own).
func (a *app) report(ctx context.Context, w io.Writer, err error) int {
	if pagerQuit(ctx) {
		return exitcode.OK // the user quit the pager: what is cut off was not wanted
	}
	prefix := interp.MessagePrefix(ctx)
	if prefix == "" {
		prefix = "agsh: "
	}
	a.message(w, prefix, meta.Advise(err))
	writeErrorLine(w, a.g.Format(), err)
	return exitcode.Of(err)
}

// writeErrorLine prints, under a data format, the error line of agsh's own
// failures (statuses 2–5 and 130): docs/cli.md#the-json-error-line.
func writeErrorLine(w io.Writer, f render.Format, err error) {
	code := exitcode.Of(err)
	if code < exitcode.Usage || !f.IsData() {
		return
	}
	status := 0
	var ce *catalog.Error
	if errors.As(err, &ce) {
		status = ce.Status
	}
	_ = f.Data.Line(w, struct {
		Error   string `json:"error"`
		Message string `json:"message"`
		Status  int    `json:"status"`
		Exit    int    `json:"exit"`
	}{exitcode.Code(err), meta.Advise(err), status, code})
}

// reportEarly reports a usage error found before the app exists, with the
// same care as every other message: the credential (from the flag or the
// environment) redacted, and the text made safe on a terminal.
func reportEarly(ios *iostreams.IOStreams, e Env, g command.Globals, err error, f render.Format) int {
	token := g.Get("--bearer-token")
	if token == "" {
		token = e.Getenv("AGENT_SHELL_BEARER_TOKEN")
	}
	w := iostreams.NewRedactor(ios.ErrOut, token)
	defer w.Flush()
	msg := err.Error()
	if ios.ErrTTY {
		msg = render.SafeLabel(msg)
	}
	fmt.Fprintf(w, "agsh: %s\n", msg)
	writeErrorLine(w, f, &command.UsageError{Msg: msg})
	return exitcode.Of(err)
}

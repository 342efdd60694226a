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
	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/render"
)

// report prints an error the agsh way ("agsh: …", or "agsh: line 3: …" in
// a script), worded for the command line (command.Advise), with the JSON
// error line under --output json; it returns the exit status
// (exitcode.Of: errors carry their own).
func (a *app) report(ctx context.Context, w io.Writer, err error) int {
	prefix := interp.MessagePrefix(ctx)
	if prefix == "" {
		prefix = "agsh: "
	}
	a.message(w, prefix, command.Advise(err))
	if a.g.JSON() {
		writeJSONErrorLine(w, err)
	}
	return exitcode.Of(err)
}

// writeJSONErrorLine prints the JSON error line of cli.md for agsh's own
// failures (statuses 2–5 and 130).
func writeJSONErrorLine(w io.Writer, err error) {
	code := exitcode.Of(err)
	if code < exitcode.Usage {
		return
	}
	status := 0
	var ce *catalog.Error
	if errors.As(err, &ce) {
		status = ce.Status
	}
	render.EncodeJSON(w, struct {
		Error   string `json:"error"`
		Message string `json:"message"`
		Status  int    `json:"status"`
		Exit    int    `json:"exit"`
	}{exitcode.Code(err), command.Advise(err), status, code}, false)
}

// reportEarly reports a usage error found before the app exists, with the
// same care as every other message: the credential (from the flag or the
// environment) redacted, and the text made safe on a terminal.
func reportEarly(ios *iostreams.IOStreams, e Env, g command.Globals, err error, jsonLine bool) int {
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
	if jsonLine {
		writeJSONErrorLine(w, &command.UsageError{Msg: msg})
	}
	return exitcode.Of(err)
}

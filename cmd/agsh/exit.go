package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/render"
)

// The exit statuses of ../shared/spec/cli.md, "Exit status". Errors carry
// their own status through ExitCode(); this file is the one table that turns
// an error into a status and a JSON error line.
const (
	exitOK          = 0
	exitToolError   = 1
	exitUsage       = 2
	exitRefused     = 3
	exitAuth        = 4
	exitUnreachable = 5
	exitInterrupted = 130
)

type exitCoder interface{ ExitCode() int }
type coder interface{ Code() string }

// exitCode is the status of err: its own ExitCode when it has one, 130 for
// a cancelled context, else 1.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ec exitCoder
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	if errors.Is(err, context.Canceled) {
		return exitInterrupted
	}
	return exitToolError
}

// errorCode is the JSON error line's "error": the server's code or agsh's own.
func errorCode(err error) string {
	var c coder
	if errors.As(err, &c) && c.Code() != "" {
		return c.Code()
	}
	switch exitCode(err) {
	case exitUsage:
		return "usage"
	case exitInterrupted:
		return "interrupted"
	case exitUnreachable:
		return "bad_response"
	case exitAuth:
		return "unauthorized"
	}
	return "error"
}

func httpStatus(err error) int {
	var ce *catalog.Error
	if errors.As(err, &ce) {
		return ce.Status
	}
	return 0
}

// reportError prints err as `agsh: <message>` and, with --output json, the
// JSON error line after it. It returns the exit status.
func reportError(w io.Writer, err error, jsonLine bool) int {
	fmt.Fprintf(w, "agsh: %s\n", strings.TrimRight(err.Error(), "\n"))
	if jsonLine {
		writeJSONErrorLine(w, err)
	}
	return exitCode(err)
}

// writeJSONErrorLine prints the JSON error line of cli.md for agsh's own
// failures (statuses 2–5 and 130).
func writeJSONErrorLine(w io.Writer, err error) {
	code := exitCode(err)
	if code < exitUsage {
		return
	}
	encodeJSON(w, struct {
		Error   string `json:"error"`
		Message string `json:"message"`
		Status  int    `json:"status"`
		Exit    int    `json:"exit"`
	}{errorCode(err), err.Error(), httpStatus(err), code}, false)
}

// encodeJSON writes v as one JSON document (indented two spaces when
// indent is set) without HTML escapes, and with DEL, C1 controls and
// invalid UTF-8 inside strings escaped (render.SafeJSON), so that text from
// the deployment cannot drive a terminal through JSON output either.
func encodeJSON(w io.Writer, v any, indent bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(render.SafeJSON(buf.Bytes()))
	return err
}

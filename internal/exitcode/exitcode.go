// Package exitcode is agsh's one table of exit statuses
// (docs/cli.md#exit-status) and the rule that turns an error into one: an
// error carries its own status through an ExitCode method. It is a leaf:
// every package may import it.
package exitcode

import (
	"context"
	"errors"
	"fmt"
)

// The exit statuses.
const (
	OK          = 0   // success
	ToolError   = 1   // the tool reported an error, or a grep found nothing
	Usage       = 2   // unknown tool or flag, bad value, missing operand or target
	Refused     = 3   // the deployment refused the call
	Auth        = 4   // authentication or authorization
	Unreachable = 5   // the deployment could not be reached or answered nonsense
	Interrupted = 130 // interrupted
)

// Status is one exit status with its meaning, as agsh --help and the
// manual page state it (Meaning's lines after the first continue it).
type Status struct {
	Code    int
	Meaning string
}

// Statuses are the exit statuses in order: the rows of the EXIT STATUS
// sections of agsh --help and agsh.1.
var Statuses = []Status{
	{OK, "success"},
	{ToolError, "the tool reported an error (or a grep found nothing, or the operator\ndeclined agsh's question before a write: nothing was sent, or :status\nfound the deployment degraded)"},
	{Usage, "usage: an unknown tool or option, a bad value, an operand or the\ntarget missing, or a write or a decision without --yes where agsh\ncannot ask"},
	{Refused, "the deployment refused the call"},
	{Auth, "authentication: no credential, or the deployment answered 401 or 403"},
	{Unreachable, "unreachable, a timeout, or an answer that makes no sense"},
	{Interrupted, "interrupted (Ctrl-C, SIGTERM)"},
}

// Of is the status of err: its own ExitCode when it has one, Interrupted for
// a cancelled context, else ToolError (OK for nil).
func Of(err error) int {
	if err == nil {
		return OK
	}
	var ec interface{ ExitCode() int }
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	if errors.Is(err, context.Canceled) {
		return Interrupted
	}
	return ToolError
}

// Code is the JSON error line's "error" of err: its own Code when it has a
// non-empty one, else the name of its status.
func Code(err error) string {
	var c interface{ Code() string }
	if errors.As(err, &c) && c.Code() != "" {
		return c.Code()
	}
	switch Of(err) {
	case Usage:
		return "usage"
	case Interrupted:
		return "interrupted"
	case Unreachable:
		return "bad_response"
	case Auth:
		return "unauthorized"
	}
	return "error"
}

// UsageError is a command-line mistake: exit status Usage, code "usage".
// internal/command and internal/meta report theirs with it.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// ExitCode is Usage.
func (e *UsageError) ExitCode() int { return Usage }

// Code is the JSON error line's code.
func (e *UsageError) Code() string { return "usage" }

// Usagef is a UsageError.
func Usagef(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

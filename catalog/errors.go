package catalog

import (
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/internal/names"
)

// Error is every failure the client reports: a refusal from the deployment
// (Remote, with the envelope's code) or agsh's own diagnosis (unreachable,
// timeout, malformed answer, interrupted, usage …). Its text never contains
// the bearer token.
type Error struct {
	// ErrCode is the envelope's code (Remote) or agsh's own code; see Code.
	ErrCode string
	// Status is the HTTP status, 0 when there was none.
	Status int
	// Message is the server's message when Remote, else the whole text.
	Message string
	// Remote is set when ErrCode and Message come from the deployment's
	// error envelope; Error then composes the facts around them.
	Remote bool
	// Available lists the tool names of an unknown_tool answer.
	Available []string
	// Issues are the validation problems of an invalid_input answer.
	Issues []Issue
	// SessionID is the session a session_busy (or workspace_unavailable,
	// unknown_session) answer is about: the answer's, else the bound one.
	SessionID string
	// Tool is the tool the request named, "" for other routes.
	Tool string
	// Route is the request, e.g. "POST /v1/tools/read"; "" when none.
	Route string
	// CallID is the call a decision named ("" for other routes).
	CallID string
	// Exit overrides the exit status derived from ErrCode and Status.
	Exit int
	// IssueFlag, when set, names the flag of an issue path in invalid_input
	// messages (cmd/agsh plugs in the generated command's real spelling).
	// The default is "--" and the path's kebab-cased elements joined by "-".
	IssueFlag func(path []any) string
	// Err is the underlying cause, if any (for errors.Is/As).
	Err error

	secret string
}

// Code is the server's error code or agsh's own (usage, no_target,
// not_an_agent, unreachable, timeout, bad_response, no_credential,
// interrupted, unknown_deployment, no_sessions_route).
func (e *Error) Code() string { return e.ErrCode }

// ExitCode is the process exit status (docs/cli.md#exit-status).
func (e *Error) ExitCode() int {
	if e.Exit != 0 {
		return e.Exit
	}
	if x, ok := exitForCode(e.ErrCode); ok {
		return x
	}
	return exitForStatus(e.Status)
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Error is the message to print after "agsh: ": what happened, and the
// settings to look at in neutral words ("the target"). A program spells its
// settings with Text and adds its own advice (agsh's meta.Advise).
func (e *Error) Error() string { return e.Text(nil) }

// Text is Error with the settings the message names spelled by spell (nil,
// or "" for a setting: the neutral words).
func (e *Error) Text(spell func(Setting) string) string {
	var text string
	if e.Remote {
		text = e.remoteText()
	} else {
		text = e.Message
	}
	if text == "" {
		text = "request failed"
		if e.ErrCode != "" {
			text = e.ErrCode
		}
	}
	return redact(spellSettings(text, spell), e.secret)
}

// remoteText composes the message of a refusal from the deployment.
func (e *Error) remoteText() string {
	msg := e.Message
	withMsg := func(s string) string {
		if msg == "" || msg == s {
			return s
		}
		return s + ": " + msg
	}
	session := "the bound session"
	if e.SessionID != "" {
		session = "session " + e.SessionID
	}
	switch e.ErrCode {
	case CodeUnknownTool:
		if e.Tool == "" {
			return withMsg("unknown tool")
		}
		return fmt.Sprintf("unknown tool %q", e.Tool)
	case CodeInvalidInput:
		return e.invalidInputText()
	case CodeSessionBusy:
		// What holds it, as far as the deployment's message says.
		what := "a model turn is running or queued"
		switch lower := strings.ToLower(msg); {
		case strings.Contains(lower, "queued"):
			what = "a model turn is queued"
		case strings.Contains(lower, "running"):
			what = "a model turn is running"
		}
		return session + " is busy (" + what + ")"
	case CodeWorkspaceUnavailable:
		text := "the workspace of " + session + " is unavailable, so write calls cannot run there"
		if !strings.Contains(strings.ToLower(msg), "unavailable") {
			// A message that only says it again adds nothing.
			text = withMsg(text)
		}
		return text
	case CodeUnknownSession:
		return withMsg("the deployment does not know " + session)
	case CodeInvalidContinuationToken:
		return withMsg("the deployment rejected the continuation token")
	case CodeConflictingBinding:
		return withMsg("a call cannot carry both a session id and a continuation token")
	case CodeAgentTool:
		name := "this tool"
		if e.Tool != "" {
			name = e.Tool
		}
		text := name + " runs inside the agent's model turn and cannot be called from agsh"
		if lower := strings.ToLower(msg); strings.Contains(lower, "agent") || strings.Contains(lower, "cannot be called") {
			// The deployment's message says the same thing again.
			return text
		}
		return withMsg(text)
	case CodeUnknownCall:
		return withMsg(fmt.Sprintf("%s has no call %s that asked for approval", session, e.callText()))
	case CodeNotParked:
		text := fmt.Sprintf("call %s of %s no longer waits for a decision: it was decided already, or its turn ended",
			e.callText(), session)
		if restatesNotParked(msg) {
			return text // the deployment's message says the same again
		}
		return withMsg(text)
	case CodeStaleContinuationToken:
		return withMsg("the continuation token is stale: a later message to its session rotated it away, " +
			"and the answer to that message carried the new one")
	case CodeTaskSession:
		return withMsg(session + " is a task session: it runs the turn it was created with and takes no further message")
	case CodeUnauthorized:
		return withMsg(fmt.Sprintf("the deployment refused the credentials (%s)", e.statusText()))
	case CodeForbidden:
		return withMsg(fmt.Sprintf("not allowed (%s)", e.statusText())) +
			"; a session belongs to the principal that created it, and a loopback-only server refuses other hosts"
	}
	// An unknown code is shown verbatim.
	code := e.ErrCode
	if code == "" {
		code = "error"
	}
	if msg == "" && e.Status >= 500 {
		return fmt.Sprintf("deployment failed the request: %s (%s)", code, e.statusText())
	}
	if msg == "" {
		return fmt.Sprintf("deployment refused the request: %s (%s)", code, e.statusText())
	}
	return fmt.Sprintf("%s: %s", code, msg)
}

// restatesNotParked reports a not_parked message that only says what
// agsh's own sentence says: the call waits no more, it was decided, or its
// turn ended.
func restatesNotParked(msg string) bool {
	lower := strings.ToLower(msg)
	for _, w := range []string{"decided", "decision", "turn ended", "not parked", "not_parked", "no longer parked"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// callText is the call id named, "" shown as "(none)".
func (e *Error) callText() string {
	if e.CallID == "" {
		return "(none)"
	}
	return e.CallID
}

// statusText is "HTTP 409" or "no HTTP status".
func (e *Error) statusText() string {
	if e.Status == 0 {
		return "no HTTP status"
	}
	return fmt.Sprintf("HTTP %d", e.Status)
}

// invalidInputText lists the issues one per line: "--limit: expected integer".
func (e *Error) invalidInputText() string {
	var b strings.Builder
	b.WriteString("the deployment rejected the input")
	if e.Tool != "" {
		b.WriteString(" of ")
		b.WriteString(e.Tool)
	}
	if len(e.Issues) == 0 {
		if e.Message != "" {
			b.WriteString(": ")
			b.WriteString(e.Message)
		}
		return b.String()
	}
	b.WriteString(":")
	name := e.IssueFlag
	if name == nil {
		name = DefaultIssueFlag
	}
	for _, is := range e.Issues {
		b.WriteString("\n  ")
		flag := name(is.Path)
		if flag != "" {
			b.WriteString(flag)
			b.WriteString(": ")
		}
		msg := is.Message
		if msg == "" {
			msg = "invalid value"
		}
		b.WriteString(msg)
	}
	return b.String()
}

// DefaultIssueFlag names an issue path as a flag: "--" and the kebab-cased
// property names joined by "-", array indexes as "[i]"; "input" for an
// empty path (the whole input object).
func DefaultIssueFlag(path []any) string {
	var b strings.Builder
	for _, el := range path {
		switch v := el.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteString(names.Kebab(v))
		default:
			fmt.Fprintf(&b, "[%v]", v)
		}
	}
	if b.Len() == 0 {
		return "input"
	}
	return "--" + b.String()
}

// usageError is an agsh usage error (exit 2).
func usageError(format string, args ...any) *Error {
	return &Error{ErrCode: CodeUsage, Message: fmt.Sprintf(format, args...)}
}

// Package tool is the contract between the development deployment's HTTP
// server (internal/devserver) and the packages that provide its tools: the
// workspace file tools (internal/devserver/fstools) and the MCP connections
// (internal/devserver/mcpconn). It holds types only.
package tool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/internal/wire"
)

// Tool is one tool an agent of the development deployment serves.
type Tool struct {
	Name        string
	Title       string
	Description string
	// InputSchema is served byte for byte by GET /v1/tools/{name}.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage // nil when none is declared
	// Effect is "read", "write", or "" (undeclared: counts as a write).
	Effect        string
	NeedsApproval bool
	// Execution is "server" (callable) or "agent" (a direct call answers 400
	// agent_tool). "" means server.
	Execution   string
	Annotations *wire.Annotations
	// Icons and Meta are an MCP tool's icons and _meta as listed, passed
	// through to the detail byte for byte (nil when none).
	Icons  json.RawMessage
	Meta   json.RawMessage
	Source wire.Source
	// Validate asks the server to validate the input against InputSchema
	// before Call runs (authored tools); invalid input answers 400
	// invalid_input with issues.
	Validate bool
	// Call runs the tool. A returned *InputError answers 400 invalid_input,
	// a *StatusError its status and code; any other error answers 200 with
	// isError true and the error's text.
	Call func(ctx context.Context, c *Call) (Result, error)
}

// ReadOnly reports whether a call of the tool counts as a read for busy
// semantics: a declared effect "read", or an MCP readOnlyHint.
func (t *Tool) ReadOnly() bool {
	if t.Effect == "read" {
		return true
	}
	return t.Annotations != nil && t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint
}

// Call is what a tool body gets.
type Call struct {
	// Input is the call's input object as sent (JSON, numbers exact). It is
	// "{}" when the request had none.
	Input json.RawMessage
	// Session is the call's session identity; zero for an ephemeral call.
	Session Session
	// Record adds an entry to the session's record (report_change_issue
	// records issues). It is a no-op for calls without a session.
	Record func(kind string, v any)
}

// Session identifies the session a call is bound to.
type Session struct {
	ID                string // "" when unbound or scratch-bound by token
	ContinuationToken string
	Scratch           bool // running in a scratch workspace
}

// Result is a tool's answer: Value becomes the envelope's `result`.
type Result struct {
	Value   json.RawMessage
	IsError bool
}

// Text returns a successful plain-text result: s as a JSON string, the
// bytes json.Marshal writes (<, > and & escaped), without its reflection.
func Text(s string) Result {
	return Result{Value: jsontext.AppendString(make([]byte, 0, len(s)+len(s)/16+2), s, true)}
}

// ErrorText returns an error result whose text is s (isError: true).
func ErrorText(s string) Result {
	return Result{Value: jsontext.AppendString(nil, s, true), IsError: true}
}

// JSON returns a successful result holding v encoded as JSON.
func JSON(v any) (Result, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Result{}, err
	}
	return Result{Value: b}, nil
}

// InputError makes the server answer 400 invalid_input before or instead of
// a result (an invalid regular expression, an unknown grep type).
type InputError struct {
	Issues []wire.Issue
}

func (e *InputError) Error() string {
	if len(e.Issues) == 0 {
		return "invalid input"
	}
	i := e.Issues[0]
	return fmt.Sprintf("%v: %s", i.Path, i.Message)
}

// StatusError makes the server answer an error envelope with Status and
// Code instead of a result: a connection tool whose MCP server is down
// answers 502 connection_failed.
type StatusError struct {
	Status  int
	Code    string
	Message string
}

func (e *StatusError) Error() string { return e.Message }

// CodeConnectionFailed is the code of a call whose connection is down.
const CodeConnectionFailed = "connection_failed"

// BadInput is a one-issue InputError at the property named by field.
func BadInput(field, format string, args ...any) *InputError {
	return &InputError{Issues: []wire.Issue{{Path: []any{field}, Message: fmt.Sprintf(format, args...)}}}
}

// Mount maps a virtual workspace path ("/repo") to a real directory.
type Mount struct {
	Path string // absolute virtual path, no trailing slash
	Dir  string // absolute real directory
}

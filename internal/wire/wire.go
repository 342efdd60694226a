package wire

import (
	"bytes"
	"encoding/json"
)

// The shapes below are the bodies of docs/wire.md#routes, field by field.
// Every field is tolerant on decode: unknown fields are ignored, missing
// ones stay zero. Raw JSON is kept wherever byte order or exact numbers
// matter (schemas, inputs, results).

// Source tells where a tool comes from. Kind is "authored" or "connection".
// A connection tool's group is its Connector when declared, else its
// Connection.
type Source struct {
	Kind       string `json:"kind"`
	Connection string `json:"connection,omitempty"`
	Connector  string `json:"connector,omitempty"`
}

// UnmarshalJSON accepts the object form, a plain string naming the group
// (taken as a connection), and null or a missing value (authored).
func (s *Source) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		*s = Source{Kind: "authored"}
		return nil
	}
	if b[0] == '"' {
		var name string
		if err := json.Unmarshal(b, &name); err != nil {
			return err
		}
		if name == "" || name == "authored" {
			*s = Source{Kind: "authored"}
		} else {
			*s = Source{Kind: "connection", Connection: name}
		}
		return nil
	}
	type plain Source
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*s = Source(p)
	s.DefaultKind()
	return nil
}

// DefaultKind sets an undeclared kind: a connection when one is named,
// else authored.
func (s *Source) DefaultKind() {
	if s.Kind == "" {
		if s.Connection != "" || s.Connector != "" {
			s.Kind = "connection"
		} else {
			s.Kind = "authored"
		}
	}
}

// Authored reports whether the tool is one of the deployment's authored tools.
func (s Source) Authored() bool { return s.Kind == "" || s.Kind == "authored" }

// Group is the help group of a connection tool: the connector when declared,
// else the connection; "" for authored tools.
func (s Source) Group() string {
	if s.Authored() {
		return ""
	}
	if s.Connector != "" {
		return s.Connector
	}
	return s.Connection
}

// ToolEntry is one light row of GET /v1/tools.
type ToolEntry struct {
	Name   string `json:"name"`
	Title  string `json:"title,omitempty"`
	Source Source `json:"source"`
}

// ToolDetail is the tool object of GET /v1/tools/{name}. InputSchema is kept
// byte for byte: property order is the order of flags and help.
type ToolDetail struct {
	Name          string          `json:"name"`
	Title         string          `json:"title,omitempty"`
	Description   string          `json:"description,omitempty"`
	InputSchema   json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema  json.RawMessage `json:"outputSchema,omitempty"`
	Effect        Effect          `json:"effect,omitempty"`
	NeedsApproval Approval        `json:"needsApproval,omitempty"`
	Execution     string          `json:"execution,omitempty"`
	Annotations   *Annotations    `json:"annotations,omitempty"`
	Source        Source          `json:"source"`
}

// Approval is a tool's needsApproval. Only false (or null) reads as false:
// any other shape (1, "true", an object) reads as true, so that a malformed
// declaration makes agsh ask rather than call without a question
// (docs/console.md#the-write-guard).
type Approval bool

// UnmarshalJSON reads b as above; it never fails.
func (a *Approval) UnmarshalJSON(b []byte) error {
	switch string(bytes.TrimSpace(b)) {
	case "false", "null":
		*a = false
	default:
		*a = true
	}
	return nil
}

// Effect is a tool's declared effect. A JSON string is kept as is; null is
// no effect; any other shape (["write"], 1, an object) is kept as its JSON
// text, cut to maxEffect bytes, so that it is neither lost nor taken for a
// read (docs/console.md#the-write-guard).
type Effect string

// maxEffect bounds an Effect kept from a value that is not a string.
const maxEffect = 64

// UnmarshalJSON reads b as above; it never fails.
func (e *Effect) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	var s string
	switch {
	case string(b) == "null":
		*e = ""
	case json.Unmarshal(b, &s) == nil:
		*e = Effect(s)
	default:
		if len(b) > maxEffect {
			b = append(b[:maxEffect:maxEffect], "…"...)
		}
		*e = Effect(b)
	}
	return nil
}

// Annotations are the MCP tool annotations a connection tool carries.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// UnmarshalJSON reads the annotations so that the write guard fails closed
// (docs/console.md#the-write-guard): a destructiveHint that is not true,
// false or null (1, "true") reads as true, a malformed readOnlyHint as
// false, and annotations that are not an object as destructive; another
// malformed hint is left out. It never fails.
func (a *Annotations) UnmarshalJSON(b []byte) error {
	var raw struct {
		Title           json.RawMessage `json:"title"`
		ReadOnlyHint    json.RawMessage `json:"readOnlyHint"`
		DestructiveHint json.RawMessage `json:"destructiveHint"`
		IdempotentHint  json.RawMessage `json:"idempotentHint"`
		OpenWorldHint   json.RawMessage `json:"openWorldHint"`
	}
	*a = Annotations{}
	yes, no := true, false
	if err := json.Unmarshal(b, &raw); err != nil {
		a.DestructiveHint = &yes
		return nil
	}
	_ = json.Unmarshal(raw.Title, &a.Title)
	a.ReadOnlyHint = hint(raw.ReadOnlyHint, &no)
	a.DestructiveHint = hint(raw.DestructiveHint, &yes)
	a.IdempotentHint = hint(raw.IdempotentHint, nil)
	a.OpenWorldHint = hint(raw.OpenWorldHint, nil)
	return nil
}

// hint is one annotation's value: nil when absent or null, the boolean
// when it is one, else malformed.
func hint(raw json.RawMessage, malformed *bool) *bool {
	var v bool
	switch string(bytes.TrimSpace(raw)) {
	case "", "null":
		return nil
	case "true":
		v = true
	case "false":
	default:
		return malformed
	}
	return &v
}

// InfoTool is one tool of the /v1/info agent document.
type InfoTool struct {
	Name          string          `json:"name"`
	Description   string          `json:"description,omitempty"`
	InputSchema   json.RawMessage `json:"inputSchema,omitempty"`
	Effect        string          `json:"effect,omitempty"`
	NeedsApproval bool            `json:"needsApproval,omitempty"`
	Execution     string          `json:"execution,omitempty"`
}

// Info is the body of GET /v1/info.
type Info struct {
	OK          bool       `json:"ok"`
	Name        string     `json:"name"`
	Description string     `json:"description,omitempty"`
	Tools       []InfoTool `json:"tools"`
}

// ToolsResponse is the body of GET /v1/tools.
type ToolsResponse struct {
	OK    bool        `json:"ok"`
	Tools []ToolEntry `json:"tools"`
	// Starting names the connections still starting, whose tools are not
	// listed yet (docs/wire.md#the-tool-listing) [assumed].
	Starting []string `json:"starting,omitempty"`
}

// ToolResponse is the body of GET /v1/tools/{name}.
type ToolResponse struct {
	OK   bool       `json:"ok"`
	Tool ToolDetail `json:"tool"`
}

// Session is one row of GET /v1/sessions.
type Session struct {
	SessionID         string `json:"sessionId"`
	ContinuationToken string `json:"continuationToken,omitempty"`
	Title             string `json:"title,omitempty"`
	Mode              string `json:"mode,omitempty"`
	Status            string `json:"status,omitempty"`
	Running           bool   `json:"running"`
	Queued            bool   `json:"queued"`
	CreatedAt         string `json:"createdAt,omitempty"`
	UpdatedAt         string `json:"updatedAt,omitempty"`
	// DryRun: the session was created as a dry run (its turns run read
	// tools and stub the others); the development deployment's.
	DryRun bool `json:"dryRun,omitempty"`
	// Principal names the session's owner where the listing has one
	// [assumed]; TraceURL is its record's URL when the listing gives it
	// [assumed].
	Principal string `json:"principal,omitempty"`
	TraceURL  string `json:"traceUrl,omitempty"`
}

// SessionsResponse is the body of GET /v1/sessions.
type SessionsResponse struct {
	OK       bool      `json:"ok"`
	Sessions []Session `json:"sessions"`
}

// CallRequest is the body of POST /v1/tools/{name}. SessionID and
// ContinuationToken are mutually exclusive; without either the call runs in
// an ephemeral workspace.
type CallRequest struct {
	Input             json.RawMessage `json:"input"`
	SessionID         string          `json:"sessionId,omitempty"`
	ContinuationToken string          `json:"continuationToken,omitempty"`
}

// CallResult is the 200 answer of POST /v1/tools/{name}. Result is the value
// the model would see: a string, any JSON value, or an MCP tool result.
type CallResult struct {
	OK               bool            `json:"ok"`
	ToolName         string          `json:"toolName"`
	CallID           string          `json:"callId"`
	IsError          bool            `json:"isError"`
	Result           json.RawMessage `json:"result"`
	DurationMs       json.Number     `json:"durationMs,omitempty"`
	SessionID        string          `json:"sessionId,omitempty"`
	ScratchWorkspace bool            `json:"scratchWorkspace,omitempty"`
}

// Issue is one schema-validation problem of a 400 invalid_input answer.
// Path elements are property names (strings) or array indexes (numbers).
type Issue struct {
	Path    []any  `json:"path"`
	Message string `json:"message"`
}

// ErrorBody is the error envelope: {"ok": false, "error": code, "message": …}.
type ErrorBody struct {
	OK        bool     `json:"ok"`
	Error     string   `json:"error"`
	Message   string   `json:"message,omitempty"`
	Available []string `json:"available,omitempty"`
	Issues    []Issue  `json:"issues,omitempty"`
}

// Agent is one row of GET /v1/agents on a multi-agent host.
type Agent struct {
	Slug string `json:"slug"`
	URL  string `json:"url"`
	Name string `json:"name,omitempty"`
}

// AgentsResponse is the body of GET /v1/agents.
type AgentsResponse struct {
	OK     bool    `json:"ok"`
	Agents []Agent `json:"agents"`
}

// MessageRequest is the body of POST /v1/session: a new session (Message,
// with Title and DryRun when given), or, with ContinuationToken, a
// follow-up message to the session the token names
// (docs/wire.md#session-records-and-console-routes).
type MessageRequest struct {
	Message           string `json:"message"`
	Title             string `json:"title,omitempty"`
	ContinuationToken string `json:"continuationToken,omitempty"`
	DryRun            bool   `json:"dryRun,omitempty"`
}

// MessageResponse is the 200 answer of POST /v1/session. A follow-up's
// ContinuationToken is the rotated one. TurnID, Queued, Title, Mode and
// Steps are the development deployment's; a dry run answers DryRun and
// creates nothing.
type MessageResponse struct {
	OK                bool        `json:"ok"`
	SessionID         string      `json:"sessionId"`
	ContinuationToken string      `json:"continuationToken"`
	PlaygroundURL     string      `json:"playgroundUrl,omitempty"`
	TraceURL          string      `json:"traceUrl,omitempty"`
	TurnID            string      `json:"turnId,omitempty"`
	Queued            bool        `json:"queued,omitempty"`
	DryRun            bool        `json:"dryRun,omitempty"`
	Title             string      `json:"title,omitempty"`
	Mode              string      `json:"mode,omitempty"`
	Steps             json.Number `json:"steps,omitempty"`
}

// DecisionRequest is the body of POST /v1/session/{id}/approvals/{callId}.
type DecisionRequest struct {
	Decision string `json:"decision"` // "approve" or "deny"
	Reason   string `json:"reason,omitempty"`
}

// Decisions of a DecisionRequest.
const (
	DecisionApprove = "approve"
	DecisionDeny    = "deny"
)

// DecisionResponse is the 200 answer of a decision: {"ok": true}.
type DecisionResponse struct {
	OK bool `json:"ok"`
}

// InterruptResponse is the 200 answer of POST /v1/session/{id}/interrupt:
// whether a turn was running (and now ended with turn.failed, reason
// interrupted).
type InterruptResponse struct {
	OK          bool `json:"ok"`
	Interrupted bool `json:"interrupted"`
}

package catalog

import (
	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/internal/wire"
)

// The wire shapes the client decodes, by their client names. They are
// defined in internal/wire, which the development deployment encodes too;
// the routes and fields the client assumes of them are in routes.go.
type (
	Source           = wire.Source
	ToolEntry        = wire.ToolEntry
	ToolDetail       = wire.ToolDetail
	Annotations      = wire.Annotations
	InfoTool         = wire.InfoTool
	Info             = wire.Info
	ToolsResponse    = wire.ToolsResponse
	ToolResponse     = wire.ToolResponse
	Session          = wire.Session
	SessionsResponse = wire.SessionsResponse
	CallRequest      = wire.CallRequest
	Issue            = wire.Issue
	ErrorBody        = wire.ErrorBody
	Agent            = wire.Agent
	AgentsResponse   = wire.AgentsResponse
	MessageRequest   = wire.MessageRequest
	MessageAnswer    = wire.MessageResponse
)

// CallResult is the 200 answer of POST /v1/tools/{name} as the client
// returns it: the wire's answer and how the client received it.
type CallResult struct {
	wire.CallResult
	// Streamed: the result was a string written to the caller's stream as
	// it arrived (Client.CallStream); Result is then empty.
	Streamed bool `json:"-"`
	// Checked: Result is exactly one JSON value that the client checked
	// as encoding/json would (nested at most 9,000 deep), so that a
	// renderer need not check it again (render.FromCheckedResult).
	Checked bool `json:"-"`
	// Rows, when the call was made WithRows and Result is a checked array
	// of objects, indexes its members (offsets into Result), found by the
	// pass that checked it; render.FromCheckedResult takes it over.
	Rows *jsontext.Rows `json:"-"`
}

// Codes of the error envelope (docs/wire.md#the-envelope).
const (
	CodeUnknownTool              = wire.CodeUnknownTool
	CodeInvalidInput             = wire.CodeInvalidInput
	CodeAgentTool                = wire.CodeAgentTool
	CodeInvalidContinuationToken = wire.CodeInvalidContinuationToken
	CodeConflictingBinding       = wire.CodeConflictingBinding
	CodeSessionBusy              = wire.CodeSessionBusy
	CodeWorkspaceUnavailable     = wire.CodeWorkspaceUnavailable
	CodeUnknownSession           = wire.CodeUnknownSession
	CodeUnauthorized             = wire.CodeUnauthorized
	CodeForbidden                = wire.CodeForbidden
	CodeStaleContinuationToken   = wire.CodeStaleContinuationToken
	CodeTaskSession              = wire.CodeTaskSession
	CodeNotParked                = wire.CodeNotParked
	CodeUnknownCall              = wire.CodeUnknownCall
)

package wire

// Codes of the error envelope (docs/wire.md#the-envelope).
const (
	CodeUnknownTool              = "unknown_tool"
	CodeInvalidInput             = "invalid_input"
	CodeAgentTool                = "agent_tool"
	CodeInvalidContinuationToken = "invalid_continuation_token"
	CodeConflictingBinding       = "conflicting_binding"
	CodeSessionBusy              = "session_busy"
	CodeWorkspaceUnavailable     = "workspace_unavailable"
	CodeUnknownSession           = "unknown_session"
	CodeUnauthorized             = "unauthorized"
	CodeForbidden                = "forbidden"
)

// CodeNotFound is the development deployment's code for a route it does
// not have; under an agent mount, the client reads it as a target that
// names no agent.
const CodeNotFound = "not_found"

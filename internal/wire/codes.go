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

// Codes of the session console routes
// (docs/wire.md#session-records-and-console-routes).
const (
	// CodeStaleContinuationToken: a later message rotated the token away.
	CodeStaleContinuationToken = "stale_continuation_token"
	// CodeTaskSession: a follow-up to a session that takes none.
	CodeTaskSession = "task_session"
	// CodeNotParked: a decision on a call that no longer waits for one.
	CodeNotParked = "not_parked"
	// CodeUnknownCall: a decision on a call that never waited for one.
	CodeUnknownCall = "unknown_call"
)

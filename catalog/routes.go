package catalog

import "net/http"

// Every route, query field and status rule of ../shared/spec/wire.md that
// the client relies on lives in this file, so that a capture from a live
// deployment can correct an assumption in one commit. The production
// control plane's assumptions live apart, in production.go.

// Routes under the agent's base URL (the target) or the host root.
const (
	pathInfo     = "/v1/info"     // GET: the agent document [assumed shape]
	pathTools    = "/v1/tools"    // GET: the listing; GET/POST + "/{name}": detail, invoke
	pathSessions = "/v1/sessions" // GET: the caller's sessions [shape assumed]
	pathAgents   = "/v1/agents"   // GET on the host root: mounted agents [shape assumed]
)

// Query fields carrying a session binding on GET routes. The seed says the
// listing takes the invocation's binding; the field names are the
// invocation body's.
const (
	querySessionID         = "sessionId"
	queryContinuationToken = "continuationToken"
)

// Own error codes: the failures agsh names itself (cli.md, "Exit status").
const (
	CodeUsage        = "usage"
	CodeNoTarget     = "no_target"
	CodeNotAnAgent   = "not_an_agent"
	CodeUnreachable  = "unreachable"
	CodeTimeout      = "timeout"
	CodeBadResponse  = "bad_response"
	CodeNoCredential = "no_credential"
	CodeInterrupted  = "interrupted"
	// CodeUnknownDeployment is agsh's code for a production name that
	// resolves to no deployment (exit 3).
	CodeUnknownDeployment = "unknown_deployment"
	// CodeNoSessionsRoute is agsh's code for a deployment that has no
	// GET /v1/sessions route, so the default binding cannot work (exit 5).
	CodeNoSessionsRoute = "no_sessions_route"
)

// Exit statuses of cli.md's table.
const (
	ExitOK          = 0
	ExitToolError   = 1
	ExitUsage       = 2
	ExitRefused     = 3
	ExitAuth        = 4
	ExitUnreachable = 5
	ExitInterrupted = 130
)

// exitForCode is the exit status of the codes whose status does not follow
// from the HTTP status alone. Codes not listed fall to exitForStatus.
func exitForCode(code string) (int, bool) {
	switch code {
	case CodeUsage, CodeNoTarget, CodeNotAnAgent, CodeUnknownTool:
		return ExitUsage, true
	case CodeInvalidInput, CodeSessionBusy, CodeUnknownSession, CodeWorkspaceUnavailable,
		CodeAgentTool, CodeInvalidContinuationToken, CodeConflictingBinding, CodeUnknownDeployment:
		return ExitRefused, true
	case CodeUnauthorized, CodeForbidden, CodeNoCredential:
		return ExitAuth, true
	case CodeUnreachable, CodeTimeout, CodeBadResponse, CodeNoSessionsRoute:
		return ExitUnreachable, true
	case CodeInterrupted:
		return ExitInterrupted, true
	}
	return 0, false
}

// exitForStatus maps an HTTP status to an exit status: 401/403 → 4, other
// 4xx → 3, everything else that is an error → 5.
func exitForStatus(status int) int {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ExitAuth
	case status >= 400 && status < 500:
		return ExitRefused
	default:
		return ExitUnreachable
	}
}

// retryableStatus reports whether a GET answered with status is retried.
func retryableStatus(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusServiceUnavailable ||
		status == http.StatusGatewayTimeout
}

// envelopeFields are the fields of the error envelope the client reads, also
// on a 2xx answer (where an "error" code means the call was refused). The
// "sessionId" of a session_busy answer is assumed.
type envelopeFields struct {
	Error     string
	Message   string
	Available []string
	Issues    []Issue
	SessionID string
}

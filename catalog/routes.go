package catalog

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/wire"
)

// Every route, query field and status rule of docs/wire.md that the client
// relies on lives in this file (docs/wire.md#assumptions-in-the-client), so
// that a capture from a live deployment can correct an assumption in one
// commit. The production control plane's assumptions live apart, in
// production.go.

// Routes under the agent's base URL (the target) or the host root.
const (
	pathInfo     = "/v1/info"     // GET: the agent document [assumed shape]
	pathTools    = "/v1/tools"    // GET: the listing; GET/POST + "/{name}": detail, invoke
	pathSessions = "/v1/sessions" // GET: the caller's sessions [shape assumed]
	pathAgents   = "/v1/agents"   // GET on the host root: mounted agents [shape assumed]
	// pathSession + "/{id}" + a suffix: a session's record routes
	// (docs/wire.md#session-records-and-console-routes).
	pathSession  = "/v1/session"
	suffixEvents = "/events" // GET: the whole record, {"ok":true,"events":[…]} or NDJSON [route stated, shape assumed]
	suffixStream = "/stream" // GET ?startIndex=N: NDJSON, replay then live [observed]
	// The console's routes (console.go): POST pathSession starts a session
	// or, with a continuation token, sends a follow-up [route stated,
	// follow-up body assumed]; POST pathSession + "/{id}" + suffixApprovals
	// + "/{callId}" decides a parked call [route stated, body assumed];
	// POST pathSession + "/{id}" + suffixInterrupt ends the running turn
	// [route assumed].
	suffixApprovals = "/approvals"
	suffixInterrupt = "/interrupt"
)

// fieldStarting is the listing's member naming the connections still
// starting, whose tools are not listed yet: {"ok":true,"tools":[…],
// "starting":["slow"]} [assumed] (docs/wire.md#the-tool-listing).
const fieldStarting = "starting"

// queryStartIndex is the stream's first index [observed].
const queryStartIndex = "startIndex"

// Query fields carrying a session binding on GET routes. That the listing
// takes the invocation's binding is stated; the field names, the invocation
// body's, are assumed (docs/wire.md#the-tool-listing).
const (
	querySessionID         = "sessionId"
	queryContinuationToken = "continuationToken"
)

// Own error codes: the failures agsh names itself
// (docs/cli.md#the-json-error-line).
const (
	CodeUsage        = "usage"
	CodeNoTarget     = "no_target"
	CodeNotAnAgent   = "not_an_agent"
	CodeUnreachable  = "unreachable"
	CodeTimeout      = "timeout"
	CodeBadResponse  = "bad_response"
	CodeNoCredential = "no_credential"
	CodeInterrupted  = "interrupted"
	// CodeProxyAuth: the proxy asked for credentials (407), or refused
	// them.
	CodeProxyAuth = "proxy_auth"
	// CodeUnknownDeployment is agsh's code for a production name that
	// resolves to no deployment (exit 3).
	CodeUnknownDeployment = "unknown_deployment"
	// CodeNoSessionsRoute is agsh's code for a deployment that has no
	// GET /v1/sessions route, so the default binding cannot work (exit 5).
	CodeNoSessionsRoute = "no_sessions_route"
	// CodeNoRecords is agsh's code for a deployment that answers 404 (not
	// the envelope, or not_found) on a record route (exit 3).
	CodeNoRecords = "no_session_records"
	// CodeNoSession is agsh's code for a console command without a session
	// to read: none given, and the run is unbound (exit 3).
	CodeNoSession = "no_session"
	// CodeNotExposed is agsh's code for a console route the deployment
	// answers 404 without a code agsh knows there (exit 3): it does not
	// expose approvals, interrupts or session messages.
	CodeNotExposed = "not_exposed"
)

// Exit statuses of docs/cli.md#exit-status (agsh's one table: exitcode).
const (
	ExitOK          = exitcode.OK
	ExitToolError   = exitcode.ToolError
	ExitUsage       = exitcode.Usage
	ExitRefused     = exitcode.Refused
	ExitAuth        = exitcode.Auth
	ExitUnreachable = exitcode.Unreachable
	ExitInterrupted = exitcode.Interrupted
)

// exitForCode is the exit status of the codes whose status does not follow
// from the HTTP status alone. Codes not listed fall to exitForStatus.
func exitForCode(code string) (int, bool) {
	switch code {
	case CodeUsage, CodeNoTarget, CodeNotAnAgent, CodeUnknownTool:
		return ExitUsage, true
	case CodeInvalidInput, CodeSessionBusy, CodeUnknownSession, CodeWorkspaceUnavailable,
		CodeAgentTool, CodeInvalidContinuationToken, CodeConflictingBinding, CodeUnknownDeployment,
		CodeNoRecords, CodeNoSession, CodeNotExposed, CodeStaleContinuationToken, CodeTaskSession,
		CodeNotParked, CodeUnknownCall:
		return ExitRefused, true
	case CodeUnauthorized, CodeForbidden, CodeNoCredential:
		return ExitAuth, true
	case CodeUnreachable, CodeTimeout, CodeBadResponse, CodeNoSessionsRoute, CodeProxyAuth:
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

// The decoders of the answers: each answer type is the wire payload with
// the envelope's refusal fields beside it, and the paths whose absence or
// wrong type makes the answer unusable.

// Essential paths of each answer (see Client.do).
const (
	essentialTools       = "tools"
	essentialTool        = "tool"
	essentialToolName    = "tool.name"
	essentialSessions    = "sessions"
	essentialIsError     = "isError"
	essentialAgents      = "agents"
	essentialDeployments = "deployments"
)

// refusal holds the envelope fields that turn a 2xx answer into a refusal.
// It is embedded in every answer type beside the payload.
type refusal struct {
	Error   json.RawMessage `json:"error"`
	Message json.RawMessage `json:"message"`
}

func (r *refusal) refused() *refusal { return r }

// answer is one of the decode targets below.
type answer interface{ refused() *refusal }

type (
	infoAnswer struct {
		Info
		refusal
	}
	toolsAnswer struct {
		ToolsResponse
		refusal
	}
	toolAnswer struct {
		ToolResponse
		refusal
	}
	sessionsAnswer struct {
		SessionsResponse
		refusal
	}
	callAnswer struct {
		CallResult
		refusal
		fed *fedArray // its result's rows, checked as they arrived (stream.go)
	}
	agentsAnswer struct {
		AgentsResponse
		refusal
	}
)

// envelopeFields are the fields of the error envelope the client reads.
// The "sessionId" of a session_busy answer is assumed.
type envelopeFields struct {
	Error     string
	Message   string
	Available []string
	Issues    []Issue
	SessionID string
}

// parseEnvelope reads an error envelope tolerantly: a JSON object with
// "ok": false, or with an "error" code (a string without spaces, or an
// object with "code"/"message"). Fields of an unexpected type are skipped.
func parseEnvelope(raw []byte) (envelopeFields, bool) {
	var m map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil || m == nil {
		return envelopeFields{}, false
	}
	var env envelopeFields
	var okField *bool
	_ = json.Unmarshal(m["ok"], &okField)
	errRaw := bytes.TrimSpace(m["error"])
	switch {
	case len(errRaw) > 0 && errRaw[0] == '{':
		var obj struct {
			Code    json.RawMessage `json:"code"`
			Message json.RawMessage `json:"message"`
		}
		_ = json.Unmarshal(errRaw, &obj)
		env.Error, env.Message = jsonText(obj.Code), jsonText(obj.Message)
	case len(errRaw) > 0 && !bytes.Equal(errRaw, []byte("null")):
		env.Error = jsonText(errRaw)
	}
	// Without "ok": false, an "error" must look like a code: web
	// frameworks answer {"error": "Not Found", "statusCode": 404}.
	if explicit := okField != nil && !*okField; !explicit && (env.Error == "" || strings.ContainsAny(env.Error, " \t\n")) {
		return envelopeFields{}, false
	}
	if msg := jsonText(m["message"]); msg != "" {
		env.Message = msg
	}
	_ = json.Unmarshal(m["available"], &env.Available)
	_ = json.Unmarshal(m["issues"], &env.Issues)
	env.SessionID = jsonText(m["sessionId"])
	return env, true
}

// codeRouteNotFound is the envelope code of a route the server does not
// have (the development server's answer under an agent mount); with a 404
// on a route every agent has, it means the target names no agent.
const codeRouteNotFound = wire.CodeNotFound

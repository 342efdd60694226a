// Package devserver is agsh's development deployment: an HTTP server that
// speaks the deployment wire contract (docs/wire.md) for several agents on
// one port, as docs/devserver.md describes.
//
// A Server is configured with agents and their tools (internal/devserver/tool)
// and knows nothing of where the tools come from; Build composes the real
// deployment (workspace file tools, the authored JSON tools, the MCP
// connections) into the executor and planner agents.
//
// Every agent serves, under /<slug>:
//
//	GET  /v1/info                  the agent document
//	GET  /v1/tools                 the tool listing
//	GET  /v1/tools/{name}          one tool, its schemas byte for byte
//	POST /v1/tools/{name}          a direct call
//	GET  /v1/sessions              the caller's sessions, newest activity first
//	POST /v1/session               create a session, or send it a follow-up; the
//	                               scripted agent runs the message's turn
//	GET  /v1/session/{id}/events   the session's record of events
//	GET  /v1/session/{id}/stream   the record live, NDJSON, from ?startIndex=N
//	POST /v1/session/{id}/approvals/{callId}  decide a parked call
//	POST /v1/session/{id}/interrupt           end the running turn
//	POST /v1/dev/turn              mark a turn running/queued, a workspace unavailable
//	GET  /v1/dev/sessions/{id}/calls  the calls and records of a session
//	POST /v1/dev/faults            arm a failure; GET lists, DELETE clears them
//
// and the host serves GET /v1/agents. In control-plane mode (Config.ControlPlane,
// controlplane.go) the host also resolves production names at
// GET /internal/agentsdk/deployments?slug=<name> and serves each agent again
// under /internal/agentsdk/deployments/<name>/v1/… for an API key and its teams. Every answer is the JSON envelope
// ({"ok": …}); a path outside every agent mount is a plain 404, so a client
// can tell "not an agent" from an agent's own 404.
//
// Hardening (browser.go, logsafe.go, limits.go): in the loopback mode a Host
// other than the listen address, localhost or a loopback literal is 403; in
// every mode a cross-origin Origin is 403 and a non-JSON POST 415 (413
// first); the log escapes control characters; a stalled request body is 408;
// connections are capped (503 over the cap); faults belong to the principal
// that armed them; sessions keep their last calls (calllog.go), and --state
// appends each call to a per-session call log.
//
// Sessions with turns (docs/devserver.md#sessions-with-turns-the-scripted-agent):
// the scripted agent (script.go, turns.go, scriptcall.go) runs each message
// as a turn whose steps and calls are events on the session's record
// (record.go, events.go, recordlog.go), served by the console routes
// (consoleroutes.go, stream.go).
package devserver

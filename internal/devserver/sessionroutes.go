package devserver

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/agsh-dev/agsh/internal/wire"
)

// titleFrom derives a title from a message's first line, at most 60
// characters.
func titleFrom(msg string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > 60 {
		line = string(r[:59]) + "…"
	}
	return line
}

// serveSessions answers GET /v1/sessions with the caller's sessions, newest
// activity first.
func (a *agent) serveSessions(c *reqCtx) {
	writeJSON(c.w, http.StatusOK, wire.SessionsResponse{OK: true, Sessions: a.sessions.list(c.principal)})
}

// serveTurn answers POST /v1/dev/turn: it marks a model turn running or
// queued on a session, or ends it, and can make the workspace unavailable.
// A body naming only the session starts a running turn.
func (a *agent) serveTurn(c *reqCtx) {
	var body struct {
		SessionID *string `json:"sessionId"`
		Running   *bool   `json:"running"`
		Queued    *bool   `json:"queued"`
		Workspace *string `json:"workspace"`
	}
	if err := decodeBody(c, maxSmallBody, &body, false); err != nil {
		writeError(c.w, err)
		return
	}
	if body.SessionID == nil || *body.SessionID == "" {
		e := errorf(http.StatusBadRequest, wire.CodeInvalidInput, "name the session: {\"sessionId\": \"ses_…\"}")
		e.body.Issues = []wire.Issue{{Path: []any{"sessionId"}, Message: "required"}}
		writeError(c.w, e)
		return
	}
	if body.Workspace != nil && *body.Workspace != "available" && *body.Workspace != "unavailable" {
		e := errorf(http.StatusBadRequest, wire.CodeInvalidInput,
			fmt.Sprintf("workspace must be \"available\" or \"unavailable\", not %q", *body.Workspace))
		e.body.Issues = []wire.Issue{{Path: []any{"workspace"}, Message: `expected "available" or "unavailable"`}}
		writeError(c.w, e)
		return
	}
	b, aerr := a.resolve(c.principal, body.SessionID, nil)
	if aerr != nil {
		writeError(c.w, aerr)
		return
	}
	if body.Running == nil && body.Queued == nil && body.Workspace == nil {
		t := true
		body.Running = &t
	}
	var row wire.Session
	a.sessions.with(b.sessionID, func(s *session) bool {
		wasBusy := s.busy()
		if body.Running != nil {
			s.Running = *body.Running
		}
		if body.Queued != nil {
			s.Queued = *body.Queued
		}
		if body.Workspace != nil {
			s.Unavailable = *body.Workspace == "unavailable"
		}
		if s.busy() && !wasBusy {
			s.Updated = a.sessions.stamp() // a turn starting is activity
		}
		row = s.row()
		return true
	})
	writeJSON(c.w, http.StatusOK, map[string]any{"ok": true, "session": row})
}

// serveCalls answers GET /v1/dev/sessions/{id}/calls: the session's calls in
// order, and what its tools recorded.
func (a *agent) serveCalls(c *reqCtx) {
	id := c.segs[0]
	b, aerr := a.resolve(c.principal, &id, nil)
	if aerr != nil {
		writeError(c.w, aerr)
		return
	}
	var calls, records [][]byte
	var droppedCalls, droppedRecords int
	a.sessions.with(b.sessionID, func(s *session) bool {
		droppedCalls, droppedRecords = s.DroppedCalls, s.DroppedRecords
		for _, cr := range s.Calls {
			calls = append(calls, object(
				val("callId", cr.CallID), val("toolName", cr.ToolName), raw("input", cr.Input),
				val("turnId", cr.TurnID), val("isError", cr.IsError), val("at", cr.At),
				valIf(cr.Scratch, "scratchWorkspace", true)))
		}
		for _, r := range s.Records {
			records = append(records, object(val("kind", r.Kind), val("callId", r.CallID),
				raw("value", r.Value), val("at", r.At)))
		}
		return false
	})
	note := ""
	if droppedCalls > 0 || droppedRecords > 0 {
		note = fmt.Sprintf("%d older calls and %d older records were dropped: a session keeps its last %d calls and %d records, %d MiB in all",
			droppedCalls, droppedRecords, maxSessionCalls, maxSessionRecords, maxSessionBytes>>20)
	}
	writeBody(c.w, http.StatusOK, object(val("ok", true), val("sessionId", b.sessionID),
		raw("calls", array(calls)), raw("records", array(records)),
		valIf(note != "", "droppedCalls", droppedCalls), valIf(note != "", "droppedRecords", droppedRecords),
		valIf(note != "", "note", note)))
}

package devserver

import (
	"bufio"
	"fmt"
	"net/http"
	"strconv"
)

// The console routes of a session (docs/wire.md#session-records-and-console-routes):
//
//	GET  /v1/session/{id}/events               the whole record kept
//	GET  /v1/session/{id}/stream?startIndex=N  the record live (stream.go)
//	POST /v1/session/{id}/approvals/{callId}   decide a parked call
//	POST /v1/session/{id}/interrupt            end the running turn

// maxReason bounds the reason of a decision.
const maxReason = 4096

// serveEvents answers GET /v1/session/{id}/events: {"ok":true,"sessionId",
// "firstIndex","nextIndex","dropped"?,"events":[…]}, the events as they were
// recorded, the record.truncated stand-in first when older ones were
// dropped.
func (a *agent) serveEvents(c *reqCtx) {
	id := c.segs[0]
	if _, aerr := a.resolve(c.principal, &id, nil); aerr != nil {
		writeError(c.w, aerr)
		return
	}
	var evs []event
	var note []byte
	var first, next int64
	a.sessions.with(id, func(s *session) bool {
		rec := s.log()
		evs, note, first, next = rec.events, rec.standIn(-1), rec.first, rec.next
		return false
	})
	head := object(val("ok", true), val("sessionId", id), val("firstIndex", first), val("nextIndex", next),
		valIf(first > 0, "dropped", first))
	head = append(head[:len(head)-1], `,"events":[`...)
	size := len(head) + 2 + len(evs)
	if note != nil {
		size += len(note) + 1
	}
	for i := range evs {
		size += len(evs[i].line)
	}
	if len(evs) > 0 || note != nil {
		size-- // n items, n-1 commas
	}
	h := c.w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(size))
	c.w.WriteHeader(http.StatusOK)
	if c.r.Method == http.MethodHead {
		return
	}
	bw := bufio.NewWriterSize(c.w, 64<<10)
	bw.Write(head)
	sep := false
	if note != nil {
		bw.Write(note)
		sep = true
	}
	for i := range evs {
		if sep {
			bw.WriteByte(',')
		}
		bw.Write(evs[i].line)
		sep = true
	}
	bw.WriteString("]}")
	_ = bw.Flush()
}

// serveInterrupt answers POST /v1/session/{id}/interrupt: the running turn
// ends with turn.failed (reason interrupted) before the answer, which says
// whether one ran. Queued turns stay queued; the next one starts. A body,
// when sent, must be a JSON object; nothing in it is read.
func (a *agent) serveInterrupt(c *reqCtx) {
	id := c.segs[0]
	if _, aerr := a.resolve(c.principal, &id, nil); aerr != nil {
		writeError(c.w, aerr)
		return
	}
	var body struct{}
	if aerr := decodeBody(c, maxSmallBody, &body, true); aerr != nil {
		writeError(c.w, aerr)
		return
	}
	writeBody(c.w, http.StatusOK, object(val("ok", true), val("interrupted", a.interrupt(id))))
}

// serveDecision answers POST /v1/session/{id}/approvals/{callId}
// {"decision": "approve"|"deny", "reason"?}: {"ok":true} once the parked
// call has the decision; 404 unknown_call when the record never parked it,
// 409 not_parked when it was decided already or its turn ended.
func (a *agent) serveDecision(c *reqCtx) {
	id, callID := c.segs[0], c.segs[1]
	if _, aerr := a.resolve(c.principal, &id, nil); aerr != nil {
		writeError(c.w, aerr)
		return
	}
	var body struct {
		Decision *string `json:"decision"`
		Reason   *string `json:"reason"`
	}
	if aerr := decodeBody(c, maxSmallBody, &body, false); aerr != nil {
		writeError(c.w, aerr)
		return
	}
	if body.Decision == nil {
		writeError(c.w, invalidField(`a decision needs {"decision": "approve"} or {"decision": "deny"}`, "required", "decision"))
		return
	}
	d := decision{approve: *body.Decision == "approve"}
	if !d.approve && *body.Decision != "deny" {
		writeError(c.w, invalidField(fmt.Sprintf(`decision must be "approve" or "deny", not %q`, clip(*body.Decision, 40)),
			`expected "approve" or "deny"`, "decision"))
		return
	}
	if body.Reason != nil {
		if len(*body.Reason) > maxReason {
			writeError(c.w, invalidField(fmt.Sprintf("the reason is longer than %d bytes", maxReason), "too long", "reason"))
			return
		}
		d.reason = *body.Reason
	}
	if aerr := a.decide(id, callID, d); aerr != nil {
		writeError(c.w, aerr)
		return
	}
	writeBody(c.w, http.StatusOK, object(val("ok", true)))
}

package devserver

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// createBody is the body of POST /v1/session: a new session, or with
// continuationToken a follow-up message to one
// (docs/wire.md#session-records-and-console-routes).
type createBody struct {
	Message           *string `json:"message"`
	Title             *string `json:"title"`
	ContinuationToken *string `json:"continuationToken"`
	SessionID         *string `json:"sessionId"`
	Mode              *string `json:"mode"` // development only: "chat" or "task"
	// DryRun starts a session whose turns run read tools and get stub
	// results for the others, as the runtime's dryRun; CheckOnly
	// (development only) checks the message and creates nothing.
	DryRun    *bool `json:"dryRun"`
	CheckOnly *bool `json:"checkOnly"`
}

// maxTitle bounds a session's title.
const maxTitle = 1000

// serveNewSession answers POST /v1/session: it checks the message (a step
// script must be well formed), then creates the session and runs the
// message's turn, or sends a follow-up. A dry run's session stubs its
// writes (docs/wire.md#session-records-and-console-routes); checkOnly stops
// after the checks.
func (a *agent) serveNewSession(c *reqCtx) {
	var body createBody
	if err := decodeBody(c, maxSmallBody, &body, false); err != nil {
		writeError(c.w, err)
		return
	}
	if body.Message == nil {
		writeError(c.w, invalidField(`a session needs a message: {"message": "…"}`, "required", "message"))
		return
	}
	sc, aerr := parseScript(*body.Message, func(name string) bool { return a.entry(name) != nil }, a.slug)
	if aerr != nil {
		writeError(c.w, aerr)
		return
	}
	check := body.CheckOnly != nil && *body.CheckOnly
	if body.ContinuationToken != nil {
		a.followUp(c, &body, sc, check)
		return
	}
	if body.SessionID != nil {
		writeError(c.w, invalidField("a new session takes no sessionId; a follow-up names its session by continuationToken",
			"not allowed", "sessionId"))
		return
	}
	mode := modeChat
	if body.Mode != nil {
		if *body.Mode != modeChat && *body.Mode != modeTask {
			writeError(c.w, invalidField(fmt.Sprintf(`mode must be "chat" or "task", not %q`, clip(*body.Mode, 40)),
				`expected "chat" or "task"`, "mode"))
			return
		}
		mode = *body.Mode
	}
	title := ""
	if body.Title != nil {
		title = strings.TrimSpace(*body.Title)
	}
	if len(title) > maxTitle {
		writeError(c.w, invalidField(fmt.Sprintf("the title is longer than %d bytes", maxTitle), "too long", "title"))
		return
	}
	if title == "" {
		title = titleFrom(*body.Message)
	}
	if check {
		writeBody(c.w, http.StatusOK, object(val("ok", true), val("checkOnly", true), val("title", title),
			val("mode", mode), val("steps", stepCount(sc))))
		return
	}
	dry := body.DryRun != nil && *body.DryRun
	s, aerr := a.sessions.create(c.principal, *body.Message, title, mode, dry)
	if aerr != nil {
		writeError(c.w, aerr)
		return
	}
	t := a.newTurn(sourceMessage, *body.Message, sc)
	a.startTurn(s.ID, t)
	writeBody(c.w, http.StatusOK, object(val("ok", true), val("sessionId", s.ID), val("continuationToken", s.Token),
		val("traceUrl", a.traceURL(c, s.ID)), val("turnId", t.id), valIf(dry, "dryRun", true)))
}

// followUp answers a follow-up message: the session behind the token runs
// (or queues) the message's turn, and the token rotates; check: only the
// checks. A follow-up's turn stubs writes when its session is a dry run.
func (a *agent) followUp(c *reqCtx, body *createBody, sc *script, check bool) {
	for _, f := range []struct {
		name string
		set  bool
	}{{"title", body.Title != nil}, {"mode", body.Mode != nil}, {"sessionId", body.SessionID != nil}, {"dryRun", body.DryRun != nil}} {
		if name := f.name; f.set {
			writeError(c.w, invalidField(fmt.Sprintf("a follow-up message takes no %s: it is set when the session is created", name),
				"not allowed with continuationToken", name))
			return
		}
	}
	b, aerr := a.resolve(c.principal, nil, body.ContinuationToken)
	if aerr != nil {
		writeError(c.w, aerr)
		return
	}
	if !b.bound() {
		writeError(c.w, unknownSession(fmt.Sprintf(
			"no session on agent %s answers this continuation token; a follow-up needs a session's current token", a.slug)))
		return
	}
	var tok string
	var t *turn
	a.sessions.with(b.sessionID, func(s *session) bool {
		switch {
		case s.Mode == modeTask:
			aerr = errorf(http.StatusConflict, codeTaskSession, fmt.Sprintf(
				"session %s is a task session: it runs the one turn it was created with and takes no follow-up", s.ID))
		case s.Token != *body.ContinuationToken:
			aerr = staleToken(s.ID) // rotated by a follow-up at the same moment
		case check:
			tok = s.Token
		default:
			a.sessions.rotateLocked(s)
			tok = s.Token
			s.Updated = a.sessions.stamp()
			t = a.newTurn(sourceFollowUp, *body.Message, sc)
			return true
		}
		return false
	})
	if aerr != nil {
		writeError(c.w, aerr)
		return
	}
	if check {
		writeBody(c.w, http.StatusOK, object(val("ok", true), val("checkOnly", true), val("sessionId", b.sessionID),
			val("steps", stepCount(sc))))
		return
	}
	queued := a.startTurn(b.sessionID, t)
	writeBody(c.w, http.StatusOK, object(val("ok", true), val("sessionId", b.sessionID), val("continuationToken", tok),
		val("traceUrl", a.traceURL(c, b.sessionID)), val("turnId", t.id), val("queued", queued)))
}

// stepCount is the number of steps of a script, 0 for a plain message.
func stepCount(sc *script) int {
	if sc.plain {
		return 0
	}
	return len(sc.steps)
}

// traceURL is where the session's record is read: its events route on
// this agent's mount, as the request reached the host.
func (a *agent) traceURL(c *reqCtx, id string) string {
	host := c.r.Host
	if host == "" {
		host = "127.0.0.1"
	}
	return "http://" + host + "/" + url.PathEscape(a.slug) + "/v1/session/" + url.PathEscape(id) + "/events"
}

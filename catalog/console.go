package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/agsh-dev/agsh/internal/wire"
)

// The console's routes that act on a session
// (docs/wire.md#session-records-and-console-routes): decide a parked call,
// interrupt the running turn, start a session or send it a message. Each
// is a POST, sent once and never retried, so nothing is decided or said
// twice. Their answers are checked as strictly as a call's: "ok": true and
// the members each route promises, else the answer is not taken for a
// success (exit 5). A 404 without a code agsh knows there means the
// deployment does not expose the route (CodeNotExposed, exit 3).

// Essential paths of the console's answers.
const (
	essentialOK          = "ok"
	essentialInterrupted = "interrupted"
	essentialSessionID   = "sessionId"
	essentialToken       = "continuationToken"
)

// What each console route is for, in the message of a 404.
const (
	featureApprovals  = "approvals"
	featureInterrupts = "interrupts"
	featureMessages   = "session messages"
)

type (
	decisionAnswer struct {
		wire.DecisionResponse
		refusal
	}
	interruptAnswer struct {
		wire.InterruptResponse
		// Interrupted shadows the wire's member to tell an absent one from
		// false.
		Interrupted *bool `json:"interrupted"`
		refusal
	}
	messageAnswer struct {
		wire.MessageResponse
		refusal
	}
)

// Decide approves or denies the parked call callID of session sessionID
// (POST /v1/session/{id}/approvals/{callId}); reason goes with a denial
// when not empty. Refusals: 404 unknown_session or unknown_call, 409
// not_parked, 403; any other 404 is CodeNotExposed.
func (c *Client) Decide(ctx context.Context, sessionID, callID string, approve bool, reason string) error {
	if err := checkSessionID(sessionID); err != nil {
		return err
	}
	if err := checkCallID(callID); err != nil {
		return err
	}
	body := wire.DecisionRequest{Decision: wire.DecisionDeny, Reason: reason}
	if approve {
		body.Decision, body.Reason = wire.DecisionApprove, ""
	}
	r := &request{method: http.MethodPost, root: c.base,
		path:    sessionRoute(sessionID, suffixApprovals) + "/" + url.PathEscape(callID),
		body:    encodeBody(body),
		session: sessionID, call: callID, feature: featureApprovals}
	var a decisionAnswer
	if err := c.do(ctx, r, &a, essentialOK); err != nil {
		return err
	}
	if !a.OK {
		return c.notTheAnswer(r, `{"ok": true}`)
	}
	return nil
}

// Interrupt ends the running turn of session sessionID (POST
// /v1/session/{id}/interrupt) and reports whether one was running.
func (c *Client) Interrupt(ctx context.Context, sessionID string) (bool, error) {
	if err := checkSessionID(sessionID); err != nil {
		return false, err
	}
	r := &request{method: http.MethodPost, root: c.base, path: sessionRoute(sessionID, suffixInterrupt),
		body: []byte("{}"), session: sessionID, feature: featureInterrupts}
	var a interruptAnswer
	if err := c.do(ctx, r, &a, essentialOK, essentialInterrupted); err != nil {
		return false, err
	}
	if !a.OK || a.Interrupted == nil {
		return false, c.notTheAnswer(r, `{"ok": true, "interrupted": true|false}`)
	}
	return *a.Interrupted, nil
}

// Message starts a session with m's message (POST /v1/session), or, with
// m.ContinuationToken, sends that session a follow-up message; the answer
// then carries the rotated token, and the one sent is stale from then on.
// A dry run (m.DryRun) starts a session like any other, whose turns run
// read tools and get stub results for write tools (the runtime's dryRun).
// The answer's session id and token are checked (SessionIDOK): a
// deployment's odd id is never used as one.
func (c *Client) Message(ctx context.Context, m MessageRequest) (*MessageAnswer, error) {
	if strings.TrimSpace(m.Message) == "" {
		return nil, usageError("the message is empty")
	}
	r := &request{method: http.MethodPost, root: c.base, path: pathSession, body: encodeBody(m),
		feature: featureMessages}
	var a messageAnswer
	if err := c.do(ctx, r, &a, essentialOK, essentialSessionID, essentialToken); err != nil {
		return nil, err
	}
	ans := &a.MessageResponse
	want := `{"ok": true, "sessionId", "continuationToken"}`
	if !ans.OK {
		return nil, c.notTheAnswer(r, want)
	}
	if _, ok := SessionIDOK(ans.SessionID); !ok {
		return nil, c.notTheAnswer(r, want)
	}
	if _, ok := SessionIDOK(ans.ContinuationToken); !ok {
		return nil, c.notTheAnswer(r, want)
	}
	ans.TraceURL, ans.PlaygroundURL = answerURL(ans.TraceURL), answerURL(ans.PlaygroundURL)
	return ans, nil
}

// notTheAnswer is the error of a 2xx answer that is not the one the route
// promises (want): nothing is taken from it (exit 5).
func (c *Client) notTheAnswer(r *request, want string) *Error {
	return c.fail(&Error{ErrCode: CodeBadResponse, Status: http.StatusOK, Route: r.route(),
		Message: "deployment answered " + r.route() + " without " + want + "; agsh does not take it for a success"})
}

// encodeBody is v as JSON without HTML escaping.
func encodeBody(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // plain strings and booleans: never fails
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// maxAnswerURL bounds a URL an answer carries.
const maxAnswerURL = 2048

// answerURL is a URL of an answer as agsh shows it: an http(s) URL with a
// host, its userinfo removed; "" for anything else.
func answerURL(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxAnswerURL {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return ""
	}
	u.User = nil
	return u.String()
}

// checkCallID refuses a call id no route can carry (a usage error).
func checkCallID(id string) error {
	if _, ok := SessionIDOK(id); !ok {
		return usageError("%s is not a call id", quoteOperand(id))
	}
	return nil
}

package catalog

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/exitcode"
)

// consoleServer answers every request with status and body, and records
// the requests (method, path, body) it was sent.
func consoleServer(t *testing.T, status int, ctype, body string) (*Client, *[]string) {
	t.Helper()
	var seen []string
	c, _ := serve(t, "/executor", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		seen = append(seen, r.Method+" "+r.URL.EscapedPath()+" "+string(b))
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
	return c, &seen
}

const jsonType = "application/json"

func TestDecideSends(t *testing.T) {
	for _, tt := range []struct {
		approve bool
		reason  string
		want    string
	}{
		{true, "ignored", `POST /executor/v1/session/ses_1/approvals/call_2 {"decision":"approve"}`},
		{false, "", `POST /executor/v1/session/ses_1/approvals/call_2 {"decision":"deny"}`},
		{false, `not <now> "x"`, `POST /executor/v1/session/ses_1/approvals/call_2 {"decision":"deny","reason":"not <now> \"x\""}`},
	} {
		c, seen := consoleServer(t, 200, jsonType, `{"ok":true}`)
		if err := c.Decide(ctxT(t), "ses_1", "call_2", tt.approve, tt.reason); err != nil {
			t.Fatal(err)
		}
		if len(*seen) != 1 || (*seen)[0] != tt.want {
			t.Errorf("sent %q, want %q", *seen, tt.want)
		}
	}
}

// TestConsoleRefusals: each refusal and odd answer of the console routes
// is one message with its exit status, and the request went out once.
func TestConsoleRefusals(t *testing.T) {
	type call func(c *Client) error
	decide := func(c *Client) error { return c.Decide(ctxT(t), "ses_1", "call_9", true, "") }
	interrupt := func(c *Client) error { _, err := c.Interrupt(ctxT(t), "ses_1"); return err }
	message := func(c *Client) error {
		_, err := c.Message(ctxT(t), MessageRequest{Message: "hi", ContinuationToken: "tok_1"})
		return err
	}
	tests := []struct {
		name        string
		do          call
		status      int
		ctype, body string
		code        string
		exit        int
		text        string
	}{
		{"unknown call", decide, 404, jsonType, `{"ok":false,"error":"unknown_call","message":"no call call_9 was parked"}`,
			CodeUnknownCall, 3, "session ses_1 has no call call_9 that asked for approval: no call call_9 was parked"},
		{"unknown session", decide, 404, jsonType, `{"ok":false,"error":"unknown_session"}`,
			CodeUnknownSession, 3, "the deployment does not know session ses_1"},
		{"plain 404", decide, 404, "text/plain", "404 page not found",
			CodeNotExposed, 3, "this deployment does not expose approvals (POST /v1/session/ses_1/approvals/call_9 answered 404)"},
		{"not_found envelope", decide, 404, jsonType, `{"ok":false,"error":"not_found","message":"no route"}`,
			CodeNotExposed, 3, "this deployment does not expose approvals (POST /v1/session/ses_1/approvals/call_9 answered 404)"},
		{"another code on 404", interrupt, 404, jsonType, `{"ok":false,"error":"no_such_thing"}`,
			CodeNotExposed, 3, "this deployment does not expose interrupts (POST /v1/session/ses_1/interrupt answered 404)"},
		{"messages not exposed", message, 404, "", "",
			CodeNotExposed, 3, "this deployment does not expose session messages (POST /v1/session answered 404)"},
		{"decided already", decide, 409, jsonType, `{"ok":false,"error":"not_parked","message":"call call_9 was approved already"}`,
			CodeNotParked, 3, "call call_9 of session ses_1 no longer waits for a decision: it was decided already, or its turn ended: call call_9 was approved already"},
		{"decided already, said again", decide, 409, jsonType,
			`{"ok":false,"error":"not_parked","message":"call call_9 of session ses_1 is not waiting for a decision: it was decided, or its turn ended"}`,
			CodeNotParked, 3, "call call_9 of session ses_1 no longer waits for a decision: it was decided already, or its turn ended"},
		{"another principal", decide, 403, jsonType, `{"ok":false,"error":"forbidden"}`,
			CodeForbidden, 4, "not allowed (HTTP 403); a session belongs to the principal that created it, and a loopback-only server refuses other hosts"},
		{"stale token", message, 409, jsonType, `{"ok":false,"error":"stale_continuation_token"}`,
			CodeStaleContinuationToken, 3, "the continuation token is stale: a later message to its session rotated it away, and the answer to that message carried the new one"},
		{"task session", message, 409, jsonType, `{"ok":false,"error":"task_session","sessionId":"ses_t"}`,
			CodeTaskSession, 3, "session ses_t is a task session: it runs the turn it was created with and takes no further message"},
		{"not JSON", decide, 200, "text/html", "<html>ok</html>",
			CodeBadResponse, 5, "deployment answered POST /v1/session/ses_1/approvals/call_9 with 200 OK (text/html), not the expected JSON: \"<html>ok</html>\""},
		{"ok false without a code", decide, 200, jsonType, `{"ok":false}`,
			CodeBadResponse, 5, `deployment answered POST /v1/session/ses_1/approvals/call_9 without {"ok": true}; agsh does not take it for a success`},
		{"ok missing", decide, 200, jsonType, `{"decided":true}`,
			CodeBadResponse, 5, `deployment answered POST /v1/session/ses_1/approvals/call_9 without {"ok": true}; agsh does not take it for a success`},
		{"ok of another type", decide, 200, jsonType, `{"ok":"yes"}`,
			CodeBadResponse, 5, `deployment answered POST /v1/session/ses_1/approvals/call_9 with an unexpected shape (ok is a JSON string): "{\"ok\":\"yes\"}"`},
		{"a code in a 200", decide, 200, jsonType, `{"ok":false,"error":"not_parked"}`,
			CodeNotParked, 3, "call call_9 of session ses_1 no longer waits for a decision: it was decided already, or its turn ended"},
		{"interrupted missing", interrupt, 200, jsonType, `{"ok":true}`,
			CodeBadResponse, 5, `deployment answered POST /v1/session/ses_1/interrupt without {"ok": true, "interrupted": true|false}; agsh does not take it for a success`},
		{"interrupted of another type", interrupt, 200, jsonType, `{"ok":true,"interrupted":"yes"}`,
			CodeBadResponse, 5, `deployment answered POST /v1/session/ses_1/interrupt with an unexpected shape (interrupted is a JSON string): "{\"ok\":true,\"interrupted\":\"yes\"}"`},
		{"message without a token", message, 200, jsonType, `{"ok":true,"sessionId":"ses_1"}`,
			CodeBadResponse, 5, `deployment answered POST /v1/session without {"ok": true, "sessionId", "continuationToken"}; agsh does not take it for a success`},
		{"message with a hostile id", message, 200, jsonType, `{"ok":true,"sessionId":"ses_\u001b[2J","continuationToken":"t"}`,
			CodeBadResponse, 5, `deployment answered POST /v1/session without {"ok": true, "sessionId", "continuationToken"}; agsh does not take it for a success`},
		{"server error", interrupt, 500, jsonType, `{"ok":false,"error":"internal","message":"boom"}`,
			"internal", 5, "internal: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, seen := consoleServer(t, tt.status, tt.ctype, tt.body)
			wantError(t, tt.do(c), tt.code, tt.exit, tt.text)
			if len(*seen) != 1 {
				t.Errorf("sent %d requests, want 1: %q", len(*seen), *seen)
			}
		})
	}
}

func TestInterruptAnswers(t *testing.T) {
	for _, body := range []string{`{"ok":true,"interrupted":true}`, `{"ok":true,"interrupted":false,"extra":[1]}`} {
		c, seen := consoleServer(t, 200, jsonType, body)
		got, err := c.Interrupt(ctxT(t), "ses_1")
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Contains(body, "true}"); got != want {
			t.Errorf("%s: interrupted = %v", body, got)
		}
		if (*seen)[0] != "POST /executor/v1/session/ses_1/interrupt {}" {
			t.Errorf("sent %q", *seen)
		}
	}
}

func TestMessageAnswers(t *testing.T) {
	c, seen := consoleServer(t, 200, jsonType, `{"ok":true,"sessionId":"ses_9","continuationToken":"tok_2",`+
		`"traceUrl":"http://user:pw@127.0.0.1:1/executor/v1/session/ses_9/events","playgroundUrl":"javascript:alert(1)","turnId":"turn_1","queued":true}`)
	a, err := c.Message(ctxT(t), MessageRequest{Message: "say hi", Title: "T"})
	if err != nil {
		t.Fatal(err)
	}
	if a.SessionID != "ses_9" || a.ContinuationToken != "tok_2" || a.TurnID != "turn_1" || !a.Queued ||
		a.TraceURL != "http://127.0.0.1:1/executor/v1/session/ses_9/events" || a.PlaygroundURL != "" {
		t.Errorf("answer %+v", a)
	}
	var sent map[string]any
	_ = json.Unmarshal([]byte(strings.SplitN((*seen)[0], " ", 3)[2]), &sent)
	if sent["message"] != "say hi" || sent["title"] != "T" || len(sent) != 2 {
		t.Errorf("sent %q", *seen)
	}

	// A dry run starts a session: its answer is a create's; one without a
	// session is not the answer (the runtime's dryRun creates a session).
	c, seen = consoleServer(t, 200, jsonType, `{"ok":true,"sessionId":"ses_d","continuationToken":"tok_d","dryRun":true}`)
	a, err = c.Message(ctxT(t), MessageRequest{Message: "say hi", DryRun: true})
	if err != nil || !a.DryRun || a.SessionID != "ses_d" || a.ContinuationToken != "tok_d" || !strings.Contains((*seen)[0], `"dryRun":true`) {
		t.Errorf("dry run: %+v %v %q", a, err, *seen)
	}
	c, _ = consoleServer(t, 200, jsonType, `{"ok":true,"checkOnly":true,"title":"T","mode":"chat","steps":2}`)
	if _, err = c.Message(ctxT(t), MessageRequest{Message: "say hi", DryRun: true}); exitcode.Of(err) != ExitUnreachable {
		t.Errorf("a dry run answered without a session: %v", err)
	}
	if _, err := c.Message(ctxT(t), MessageRequest{Message: "  "}); err == nil {
		t.Error("an empty message was sent")
	}
}

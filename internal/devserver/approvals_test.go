package devserver_test

import (
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// startJSON starts the default test agent: the authored JSON tools (two of
// them need approval) and echo_read, echo_write; tokens, when given, are
// its principals.
func startJSON(t *testing.T, tokens ...string) string {
	t.Helper()
	return devservertest.Start(t, devserver.Config{BearerTokens: tokens}).AgentURL("executor")
}

// parked starts a script whose first call needs approval and answers the
// session, its stream and the parked call's id.
func parked(t *testing.T, exec, token string, lines ...string) (created, *stream, string) {
	t.Helper()
	c := send(t, exec, token, map[string]any{"message": strings.Join(lines, "\n")})
	s := openStream(t, exec, token, c.SessionID, "0")
	evs := s.until("approval.requested")
	e := evs[len(evs)-1]
	if e.str("toolName") == "" || e.Data["input"] == nil || e.str("turnId") != c.TurnID {
		t.Fatalf("approval.requested: %+v", e)
	}
	return c, s, e.str("callId")
}

func TestApprovalApprove(t *testing.T) {
	t.Parallel()
	exec := startJSON(t)
	c, s, callID := parked(t, exec, "",
		`call report_change_issue {"title": "Nil map write", "severity": "high"}`,
		"say filed")
	r := row(t, exec, "", c.SessionID)
	if r["status"] != "waiting_approval" || r["running"] != true {
		t.Fatalf("row while parked: %v", r)
	}
	// A direct call of the same tool bypasses the gate (the turn is a
	// read's only company, so use another session).
	other := send(t, exec, "", map[string]any{"message": "plain"})
	status, body := post(t, exec, "report_change_issue", "", map[string]any{"sessionId": other.SessionID, "input": map[string]any{"title": "direct"}})
	if status != 200 || !strings.Contains(string(body), `"isError":false`) {
		t.Fatalf("direct call: %d %s", status, body)
	}
	if status, body := decide(t, exec, "", c.SessionID, callID, map[string]any{"decision": "approve"}); status != 200 || string(body) != `{"ok":true}` {
		t.Fatalf("approve: %d %s", status, body)
	}
	evs := s.until("session.waiting")
	want := []string{"approval.resolved", "action.result", "message.completed", "turn.completed", "session.waiting"}
	if !reflect.DeepEqual(types(evs), want) {
		t.Fatalf("events %v, want %v", types(evs), want)
	}
	if e := evs[0]; e.str("callId") != callID || e.str("decision") != "approve" || e.Data["reason"] != nil {
		t.Fatalf("approval.resolved: %+v", e)
	}
	res, _ := evs[1].Data["result"].(map[string]any)
	if evs[1].Data["isError"] != false || res["title"] != "Nil map write" || res["issueId"] == nil {
		t.Fatalf("action.result: %+v", evs[1])
	}
	if r := row(t, exec, "", c.SessionID); r["status"] != "waiting" {
		t.Fatalf("row after: %v", r)
	}
	status, body = decide(t, exec, "", c.SessionID, callID, map[string]any{"decision": "deny"})
	expectError(t, status, body, 409, "not_parked", "call "+callID+" of session "+c.SessionID+" is not waiting for a decision: it was decided, or its turn ended")
}

func TestApprovalDeny(t *testing.T) {
	t.Parallel()
	exec := startJSON(t)
	c, s, callID := parked(t, exec, "",
		`call report_change_succeeded {"summary": "all fine"}`,
		`call echo_read {"after": "denial"}`)
	if status, body := decide(t, exec, "", c.SessionID, callID, map[string]any{"decision": "deny", "reason": "not yet"}); status != 200 {
		t.Fatalf("deny: %d %s", status, body)
	}
	evs := s.until("session.waiting")
	want := []string{"approval.resolved", "action.result", "action.result", "turn.completed", "session.waiting"}
	if !reflect.DeepEqual(types(evs), want) {
		t.Fatalf("events %v, want %v", types(evs), want)
	}
	if e := evs[0]; e.str("decision") != "deny" || e.str("reason") != "not yet" {
		t.Fatalf("approval.resolved: %+v", e)
	}
	if e := evs[1]; e.str("callId") != callID || e.Data["isError"] != true || e.Data["result"] != "denied by the operator" {
		t.Fatalf("denied result: %+v", e)
	}
	if e := evs[2]; e.str("toolName") != "echo_read" || e.Data["isError"] != false {
		t.Fatalf("the turn goes on: %+v", e)
	}
}

func TestApprovalInterrupted(t *testing.T) {
	t.Parallel()
	exec := startJSON(t)
	c, s, callID := parked(t, exec, "", `call report_change_issue {"title": "x"}`, "say never")
	if !interrupt(t, exec, c.SessionID) {
		t.Fatal("the parked turn was not interrupted")
	}
	evs := s.until("session.waiting")
	if got := types(evs); !reflect.DeepEqual(got, []string{"turn.failed", "session.waiting"}) || evs[0].str("reason") != "interrupted" {
		t.Fatalf("after the interrupt: %v %+v", got, evs)
	}
	status, body := decide(t, exec, "", c.SessionID, callID, map[string]any{"decision": "approve"})
	expectError(t, status, body, 409, "not_parked", "")
	if r := row(t, exec, "", c.SessionID); r["status"] != "waiting" || r["running"] != false {
		t.Fatalf("row: %v", r)
	}
}

func TestApprovalErrors(t *testing.T) {
	t.Parallel()
	exec := startJSON(t, "alice", "bob")
	c, _, callID := parked(t, exec, "alice", `call report_change_issue {"title": "x"}`)
	plain := send(t, exec, "alice", map[string]any{"message": "call echo_read {}"})
	waitCalls := openStream(t, exec, "alice", plain.SessionID, "0").until("action.result")
	otherCall := waitCalls[len(waitCalls)-1].str("callId")
	tests := []struct {
		name, token, id, call string
		body                  any
		status                int
		code, msg             string
	}{
		{"another principal", "bob", c.SessionID, callID, map[string]any{"decision": "approve"}, 403, "forbidden",
			"session " + c.SessionID + " belongs to another principal; use the identity that created it"},
		{"unknown session", "alice", "ses_0000000000000000", callID, map[string]any{"decision": "approve"}, 404, "unknown_session",
			"no session ses_0000000000000000 on agent executor"},
		{"unknown call", "alice", c.SessionID, "call_nope", map[string]any{"decision": "approve"}, 404, "unknown_call",
			"session " + c.SessionID + " has no call call_nope waiting for approval"},
		{"a call never parked", "alice", plain.SessionID, otherCall, map[string]any{"decision": "approve"}, 404, "unknown_call", ""},
		{"no decision", "alice", c.SessionID, callID, map[string]any{"reason": "x"}, 400, "invalid_input",
			`a decision needs {"decision": "approve"} or {"decision": "deny"}`},
		{"bad decision", "alice", c.SessionID, callID, map[string]any{"decision": "yes"}, 400, "invalid_input",
			`decision must be "approve" or "deny", not "yes"`},
		{"decision not a string", "alice", c.SessionID, callID, `{"decision": true}`, 400, "invalid_input",
			"the request body's field decision must be a string, not bool"},
		{"long reason", "alice", c.SessionID, callID, map[string]any{"decision": "deny", "reason": strings.Repeat("r", 4097)}, 400, "invalid_input",
			"the reason is longer than 4096 bytes"},
		{"not JSON", "alice", c.SessionID, callID, `{"decision":`, 400, "invalid_input", "the request body is not valid JSON: it ends early"},
		{"empty body", "alice", c.SessionID, callID, "", 400, "invalid_input", "the request body is empty; expected a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := decide(t, exec, tt.token, tt.id, tt.call, tt.body)
			expectError(t, status, body, tt.status, tt.code, tt.msg)
		})
	}
	// None of that decided anything: the call is still parked.
	if r := row(t, exec, "alice", c.SessionID); r["status"] != "waiting_approval" {
		t.Fatalf("row: %v", r)
	}
	status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session/"+c.SessionID+"/approvals/"+callID, "alice", strings.Repeat(" ", 2<<20))
	expectError(t, status, body, 413, "request_too_large", "the request body is larger than 1048576 bytes")
	interrupt2(t, exec, "alice", c.SessionID)
}

// interrupt2 interrupts as a principal.
func interrupt2(t *testing.T, exec, token, id string) {
	t.Helper()
	if status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session/"+id+"/interrupt", token, nil); status != 200 {
		t.Fatalf("interrupt: %d %s", status, body)
	}
}

// TestApprovalEchoTool: an --echo-tools definition that declares
// needsApproval parks the scripted agent's call on the real deployment.
func TestApprovalEchoTool(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	def := filepath.Join(dir, "tracker.json")
	if err := os.WriteFile(def, []byte(`{"name":"close_issue","inputSchema":{"type":"object"},"needsApproval":true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	planner := devservertest.StartDeployment(t, devserver.Options{EchoTools: []string{def}}).AgentURL("planner")
	_, body := devservertest.Do(t, http.MethodGet, planner+"/v1/tools/tracker_close_issue", "", nil)
	if !strings.Contains(string(body), `"needsApproval":true`) {
		t.Fatalf("detail: %s", body)
	}
	c, s, callID := parked(t, planner, "", `call tracker_close_issue {"id": 7}`)
	if status, body := decide(t, planner, "", c.SessionID, callID, map[string]any{"decision": "approve"}); status != 200 {
		t.Fatalf("approve: %d %s", status, body)
	}
	evs := s.until("action.result")
	res, _ := evs[len(evs)-1].Data["result"].(map[string]any)
	if sc, _ := res["structuredContent"].(map[string]any); sc["id"] != float64(7) {
		t.Fatalf("the echo: %+v", evs[len(evs)-1].Data)
	}
}

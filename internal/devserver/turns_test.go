package devserver_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

func TestPlainMessageAnsweredBeforeCreate(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	c := send(t, exec, "", map[string]any{"message": "Check the nightly deploy\nand more"})
	evs := events(t, exec, "", c.SessionID)
	want := []string{"turn.started", "message.completed", "turn.completed", "session.waiting"}
	if !reflect.DeepEqual(types(evs), want) {
		t.Fatalf("events %v, want %v", types(evs), want)
	}
	for i, e := range evs {
		if e.Index != int64(i) || e.At == "" {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
	if e := evs[0]; e.str("turnId") != c.TurnID || e.str("source") != "message" || e.str("message") != "Check the nightly deploy\nand more" {
		t.Fatalf("turn.started: %+v", e)
	}
	if e := evs[1]; e.str("text") != "(dev agent) no steps in the message" || e.str("finishReason") != "stop" || e.str("turnId") != c.TurnID {
		t.Fatalf("message.completed: %+v", e)
	}
	if e := evs[2]; e.str("turnId") != c.TurnID || e.Data["reason"] != nil {
		t.Fatalf("turn.completed: %+v", e)
	}
	r := row(t, exec, "", c.SessionID)
	if r["status"] != "waiting" || r["running"] != false || r["queued"] != false || r["updatedAt"] != r["createdAt"] {
		t.Fatalf("row: %v", r)
	}
}

func TestScriptCallsTwoTools(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	c := script(t, exec,
		"# two calls, then an answer",
		`call echo_read {"n": 12345678901234567890, "s": "x"}`,
		`call echo_write   {}`,
		"",
		"say looked at two things",
	)
	evs := waitFor(t, exec, c.SessionID, "session.waiting")
	want := []string{"turn.started", "actions.requested", "action.result", "action.result", "message.completed", "turn.completed", "session.waiting"}
	if !reflect.DeepEqual(types(evs), want) {
		t.Fatalf("events %v, want %v", types(evs), want)
	}
	calls, _ := evs[1].Data["calls"].([]any)
	if len(calls) != 2 || evs[1].str("turnId") != c.TurnID {
		t.Fatalf("actions.requested: %+v", evs[1])
	}
	for i, name := range []string{"echo_read", "echo_write"} {
		call := calls[i].(map[string]any)
		res := evs[2+i]
		if call["toolName"] != name || res.str("callId") != call["callId"] || res.str("toolName") != name ||
			res.Data["isError"] != false || res.Data["durationMs"] == nil || res.str("turnId") != c.TurnID {
			t.Fatalf("call %d: %v\nresult %+v", i, call, res)
		}
	}
	// Numbers keep their spelling, in the input and in the result.
	_, body := devservertest.Do(t, http.MethodGet, exec+"/v1/session/"+c.SessionID+"/events", "", nil)
	if strings.Count(string(body), `{"n":12345678901234567890,"s":"x"}`) != 2 {
		t.Fatalf("the input is not kept as written: %s", body)
	}
	if evs[4].str("text") != "looked at two things" {
		t.Fatalf("message: %+v", evs[4])
	}
	// The turn's calls are the session's calls, under the turn's id.
	recorded := sessionCalls(t, exec, c.SessionID)
	if len(recorded) != 2 || recorded[0].ToolName != "echo_read" || recorded[1].TurnID != c.TurnID {
		t.Fatalf("calls: %+v", recorded)
	}
	if r := row(t, exec, "", c.SessionID); r["status"] != "waiting" || r["updatedAt"] == r["createdAt"] {
		t.Fatalf("row after the turn: %v", r)
	}
}

func TestScriptErrorResults(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	c := script(t, exec,
		`call agentonly {"checks": ["lint"]}`,
		`call limited {"limit": "ten"}`,
		`call fail`,
		`call badinput {}`,
		`fail the plan is wrong`,
		`say never said`,
	)
	evs := waitFor(t, exec, c.SessionID, "session.waiting")
	want := []string{"turn.started", "actions.requested", "action.result", "action.result", "action.result", "action.result", "turn.failed", "session.waiting"}
	if !reflect.DeepEqual(types(evs), want) {
		t.Fatalf("events %v, want %v", types(evs), want)
	}
	results := []struct{ tool, text string }{
		{"agentonly", "agent tools are not simulated"},
		{"limited", "invalid input for limited: limit: expected integer (and 1 more)"},
		{"fail", "disk on fire"},
		{"badinput", "invalid input for badinput: pattern: invalid regular expression"},
	}
	for i, r := range results {
		e := evs[2+i]
		if e.str("toolName") != r.tool || e.Data["isError"] != true || e.Data["result"] != r.text {
			t.Errorf("result %d: %+v\nwant %s: %q", i, e.Data, r.tool, r.text)
		}
	}
	if e := evs[6]; e.str("reason") != "error" || e.str("message") != "the plan is wrong" || e.str("turnId") != c.TurnID {
		t.Fatalf("turn.failed: %+v", e)
	}
	// Every call the model made is a call of the session, errors too.
	if calls := sessionCalls(t, exec, c.SessionID); len(calls) != 4 || !calls[0].IsError || !calls[3].IsError {
		t.Fatalf("calls: %+v", calls)
	}
}

func TestBusyRuleDuringATurn(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	// The turn's own write runs: the busy rule is not for it.
	c := script(t, exec, `call echo_write {"own": true}`, "sleep 10m")
	s := openStream(t, exec, "", c.SessionID, "0")
	if evs := s.until("action.result"); evs[len(evs)-1].Data["isError"] != false {
		t.Fatalf("the turn's own write: %+v", evs[len(evs)-1])
	}
	if r := row(t, exec, "", c.SessionID); r["status"] != "running" || r["running"] != true || r["queued"] != false {
		t.Fatalf("row: %v", r)
	}
	status, body := post(t, exec, "echo_write", "", map[string]any{"sessionId": c.SessionID})
	expectError(t, status, body, 409, "session_busy", "session "+c.SessionID+
		" has a model turn running and echo_write is a write; wait for the turn to finish, or call without a session")
	status, body = post(t, exec, "echo_read", "", map[string]any{"sessionId": c.SessionID, "input": map[string]any{"beside": 1}})
	if status != 200 {
		t.Fatalf("a read beside the turn: %d %s", status, body)
	}
	// The direct read is a turn of its own on the record.
	evs := s.until("turn.completed")
	direct := evs[0].str("turnId")
	if got := types(evs); !reflect.DeepEqual(got, []string{"turn.started", "actions.requested", "action.result", "turn.completed"}) ||
		evs[0].str("source") != "direct" || direct == c.TurnID || evs[3].str("turnId") != direct {
		t.Fatalf("direct turn: %v %+v", got, evs)
	}
	if !interrupt(t, exec, c.SessionID) {
		t.Fatal("the sleeping turn was not interrupted")
	}
	if e := s.until("turn.failed"); e[len(e)-1].str("reason") != "interrupted" || e[len(e)-1].str("turnId") != c.TurnID {
		t.Fatalf("turn.failed: %+v", e[len(e)-1])
	}
	if status, body := post(t, exec, "echo_write", "", map[string]any{"sessionId": c.SessionID}); status != 200 {
		t.Fatalf("a write after the turn: %d %s", status, body)
	}
}

func TestTwoSessionsRunIndependently(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	slow := script(t, exec, "sleep 10m")
	fast := script(t, exec, "sleep 1ms", "say done")
	waitFor(t, exec, fast.SessionID, "session.waiting")
	if r := row(t, exec, "", slow.SessionID); r["status"] != "running" {
		t.Fatalf("the slow session: %v", r)
	}
	if r := row(t, exec, "", fast.SessionID); r["status"] != "waiting" {
		t.Fatalf("the fast session: %v", r)
	}
	interrupt(t, exec, slow.SessionID)
}

func TestFollowUpsQueueBehindTheRunningTurn(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	first := script(t, exec, "sleep 10m")
	second := send(t, exec, "", map[string]any{"message": "say second", "continuationToken": first.ContinuationToken})
	third := send(t, exec, "", map[string]any{"message": "plain words", "continuationToken": second.ContinuationToken})
	if !second.Queued || !third.Queued || second.SessionID != first.SessionID {
		t.Fatalf("follow-ups: %+v %+v", second, third)
	}
	s := openStream(t, exec, "", first.SessionID, "0")
	evs := s.until("turn.queued", "turnId", third.TurnID)
	if got := types(evs); !reflect.DeepEqual(got, []string{"turn.started", "turn.queued", "turn.queued"}) ||
		evs[1].str("turnId") != second.TurnID || evs[1].Data["position"] != float64(1) || evs[2].Data["position"] != float64(2) {
		t.Fatalf("queue: %v %+v", got, evs)
	}
	if r := row(t, exec, "", first.SessionID); r["running"] != true || r["queued"] != true || r["continuationToken"] != third.ContinuationToken {
		t.Fatalf("row: %v", r)
	}
	// An interrupt ends the running turn; the queued ones run next.
	if !interrupt(t, exec, first.SessionID) {
		t.Fatal("not interrupted")
	}
	evs = s.until("session.waiting")
	want := []string{"turn.failed", "turn.started", "message.completed", "turn.completed", "turn.started", "message.completed", "turn.completed", "session.waiting"}
	if !reflect.DeepEqual(types(evs), want) {
		t.Fatalf("events %v, want %v", types(evs), want)
	}
	if evs[1].str("turnId") != second.TurnID || evs[1].str("source") != "follow-up" || evs[2].str("text") != "second" ||
		evs[4].str("turnId") != third.TurnID || evs[5].str("text") != "(dev agent) no steps in the message" {
		t.Fatalf("follow-up turns: %+v", evs)
	}
	if r := row(t, exec, "", first.SessionID); r["running"] != false || r["queued"] != false || r["status"] != "waiting" {
		t.Fatalf("row after: %v", r)
	}
}

func TestInterruptSleep(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	c := script(t, exec, "say thinking", "sleep 10m", "say never")
	s := openStream(t, exec, "", c.SessionID, "0")
	s.until("message.completed")
	begin := time.Now()
	if !interrupt(t, exec, c.SessionID) {
		t.Fatal("not interrupted")
	}
	// The answer comes once the end is recorded: the record has it.
	evs := events(t, exec, "", c.SessionID)
	last := evs[len(evs)-2]
	if last.Type != "turn.failed" || last.str("reason") != "interrupted" || last.str("message") != "interrupted by the operator" ||
		evs[len(evs)-1].Type != "session.waiting" {
		t.Fatalf("record after the interrupt: %v", types(evs))
	}
	s.until("turn.failed")
	t.Logf("interrupt of a sleep 10m turn: turn.failed on the stream %s after the POST", time.Since(begin))
	if interrupt(t, exec, c.SessionID) {
		t.Fatal("interrupted twice")
	}
}

func TestInterruptNothingRunning(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	id, _ := devservertest.NewSession(t, exec, "", "plain")
	if interrupt(t, exec, id) {
		t.Fatal("a waiting session was interrupted")
	}
	// A turn marked through /v1/dev/turn is not the scripted agent's.
	devservertest.SetTurn(t, exec, "", devservertest.Turn{SessionID: id})
	if interrupt(t, exec, id) {
		t.Fatal("a marked turn was interrupted")
	}
	status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session/"+id+"/interrupt", "", "[1]")
	expectError(t, status, body, 400, "invalid_input", "the request body must be a JSON object, not array")
	status, body = devservertest.Do(t, http.MethodPost, exec+"/v1/session/ses_0000000000000000/interrupt", "", nil)
	expectError(t, status, body, 404, "unknown_session", "no session ses_0000000000000000 on agent executor")
	status, body = devservertest.Do(t, http.MethodGet, exec+"/v1/session/"+id+"/interrupt", "", nil)
	expectError(t, status, body, 405, "method_not_allowed", "method not allowed; this route answers POST")
}

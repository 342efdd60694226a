package devserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

func TestFollowUpRotatesTheToken(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	first := send(t, exec, "", map[string]any{"message": "hello", "title": "Nightly"})
	next := send(t, exec, "", map[string]any{"message": "say again", "continuationToken": first.ContinuationToken})
	if next.SessionID != first.SessionID || next.ContinuationToken == first.ContinuationToken ||
		!strings.HasPrefix(next.ContinuationToken, "http:") || next.Queued {
		t.Fatalf("follow-up: %+v after %+v", next, first)
	}
	evs := waitFor(t, exec, first.SessionID, "turn.completed", "turnId", next.TurnID)
	if started := evs[4]; started.Type != "turn.started" || started.str("source") != "follow-up" || started.str("message") != "say again" {
		t.Fatalf("follow-up turn: %+v", evs)
	}
	if r := row(t, exec, "", first.SessionID); r["continuationToken"] != next.ContinuationToken || r["title"] != "Nightly" {
		t.Fatalf("row: %v", r)
	}
	stale := "this continuation token of session " + first.SessionID +
		" was replaced by a follow-up message; use the session's current token (GET /v1/sessions lists it) or its id"
	// The old token is refused everywhere, never a scratch fallback.
	status, body := post(t, exec, "echo_read", "", map[string]any{"continuationToken": first.ContinuationToken})
	expectError(t, status, body, 409, "stale_continuation_token", stale)
	for _, path := range []string{"/v1/tools?continuationToken=", "/v1/tools/echo_read?continuationToken="} {
		status, body := devservertest.Do(t, http.MethodGet, exec+path+first.ContinuationToken, "", nil)
		expectError(t, status, body, 409, "stale_continuation_token", stale)
	}
	status, body = devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", map[string]any{"message": "x", "continuationToken": first.ContinuationToken})
	expectError(t, status, body, 409, "stale_continuation_token", stale)
	// The new one binds.
	status, body = post(t, exec, "echo_write", "", map[string]any{"continuationToken": next.ContinuationToken})
	if status != 200 || envelope(t, body)["sessionId"] != first.SessionID {
		t.Fatalf("the new token: %d %s", status, body)
	}
}

func TestFollowUpErrors(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.BearerTokens = []string{"alice", "bob"}
	exec := devservertest.Start(t, cfg).AgentURL("executor")
	chat := send(t, exec, "alice", map[string]any{"message": "hi"})
	task := send(t, exec, "alice", map[string]any{"message": "say once", "mode": "task"})
	waitForAs(t, exec, "alice", task.SessionID, "turn.completed")
	tok := chat.ContinuationToken
	tests := []struct {
		name, token string
		body        any
		status      int
		code, msg   string
	}{
		{"task session", "alice", map[string]any{"message": "x", "continuationToken": task.ContinuationToken}, 409, "task_session",
			"session " + task.SessionID + " is a task session: it runs the one turn it was created with and takes no follow-up"},
		{"task session check", "alice", map[string]any{"message": "x", "continuationToken": task.ContinuationToken, "checkOnly": true}, 409, "task_session", ""},
		{"another principal", "bob", map[string]any{"message": "x", "continuationToken": tok}, 403, "forbidden",
			"session " + chat.SessionID + " belongs to another principal; use the identity that created it"},
		{"unknown token", "alice", map[string]any{"message": "x", "continuationToken": "http:nope"}, 404, "unknown_session",
			"no session on agent executor answers this continuation token; a follow-up needs a session's current token"},
		{"malformed token", "alice", map[string]any{"message": "x", "continuationToken": "nope"}, 400, "invalid_continuation_token",
			`malformed continuation token "nope": expected <channelId>:<key>`},
		{"title", "alice", map[string]any{"message": "x", "continuationToken": tok, "title": "t"}, 400, "invalid_input",
			"a follow-up message takes no title: it is set when the session is created"},
		{"mode", "alice", map[string]any{"message": "x", "continuationToken": tok, "mode": "chat"}, 400, "invalid_input",
			"a follow-up message takes no mode: it is set when the session is created"},
		{"session id too", "alice", map[string]any{"message": "x", "continuationToken": tok, "sessionId": chat.SessionID}, 400, "invalid_input",
			"a follow-up message takes no sessionId: it is set when the session is created"},
		{"no message", "alice", map[string]any{"continuationToken": tok}, 400, "invalid_input", `a session needs a message: {"message": "…"}`},
		{"bad script", "alice", map[string]any{"message": "say a\nsleep forever", "continuationToken": tok}, 400, "invalid_input",
			`the message's step script is malformed: line 2: sleep takes a Go duration such as 2s or 1m30s, not "forever"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session", tt.token, tt.body)
			expectError(t, status, body, tt.status, tt.code, tt.msg)
		})
	}
	// Nothing above rotated the token or ran a turn.
	if r := row(t, exec, "alice", chat.SessionID); r["continuationToken"] != tok {
		t.Fatalf("row: %v", r)
	}
	if n := len(events(t, exec, "alice", chat.SessionID)); n != 4 {
		t.Fatalf("%d events on the chat session", n)
	}
	if r := row(t, exec, "alice", task.SessionID); r["mode"] != "task" || r["status"] != "completed" {
		t.Fatalf("task row: %v", r)
	}
}

func TestTaskSessionEnds(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	task := send(t, exec, "", map[string]any{"message": "fail no luck", "mode": "task"})
	evs := waitFor(t, exec, task.SessionID, "turn.failed")
	if r := row(t, exec, "", task.SessionID); r["status"] != "failed" || r["mode"] != "task" {
		t.Fatalf("row: %v", r)
	}
	// A task session does not wait for a follow-up.
	if all := events(t, exec, "", task.SessionID); len(all) != len(evs) {
		t.Fatalf("events after the turn: %v", types(all))
	}
}

// checkOnly (the development deployment's) checks a message and creates
// nothing: no session, no turn, no token rotated.
func TestCheckOnly(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", map[string]any{
		"message": "call echo_read {}\nsleep 10m\nsay done", "checkOnly": true, "mode": "task"})
	if status != 200 || string(body) != `{"ok":true,"checkOnly":true,"title":"call echo_read {}","mode":"task","steps":3}` {
		t.Fatalf("check: %d %s", status, body)
	}
	status, body = devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", map[string]any{"message": "plain", "title": " T ", "checkOnly": true})
	if status != 200 || string(body) != `{"ok":true,"checkOnly":true,"title":"T","mode":"chat","steps":0}` {
		t.Fatalf("check: %d %s", status, body)
	}
	if rows := listSessions(t, exec, ""); len(rows) != 0 {
		t.Fatalf("a check made a session: %+v", rows)
	}
	c := send(t, exec, "", map[string]any{"message": "hi"})
	status, body = devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", map[string]any{
		"message": "say more", "continuationToken": c.ContinuationToken, "checkOnly": true})
	if status != 200 || string(body) != `{"ok":true,"checkOnly":true,"sessionId":"`+c.SessionID+`","steps":1}` {
		t.Fatalf("follow-up check: %d %s", status, body)
	}
	if r := row(t, exec, "", c.SessionID); r["continuationToken"] != c.ContinuationToken || len(events(t, exec, "", c.SessionID)) != 4 {
		t.Fatalf("a check changed the session: %v", r)
	}
	status, body = devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", map[string]any{"message": "call nope", "checkOnly": true})
	expectError(t, status, body, 400, "invalid_input", `the message's step script is malformed: line 1: no tool "nope" on agent executor`)
}

// A dry run (the runtime's dryRun) starts a session whose turns run read
// tools and get a stub result, marked stubbed, for every other tool: a
// declared write, a tool that declares no effect; a readOnlyHint counts as
// a read. Nothing a stubbed tool does happens (the recorder records
// nothing), its follow-ups stub too, and the row says dryRun.
func TestDryRunStubsWrites(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", map[string]any{"dryRun": true,
		"message": "call echo_read {\"a\":1}\ncall recorder {\"x\":1}\ncall echo_undeclared {}\ncall datadog_get_monitor {}\nsay done"})
	a := envelope(t, body)
	id, _ := a["sessionId"].(string)
	if status != 200 || a["dryRun"] != true || id == "" || a["continuationToken"] == nil {
		t.Fatalf("dry run: %d %s", status, body)
	}
	evs := waitFor(t, exec, id, "session.waiting")
	results := map[string]ev{}
	for _, e := range evs {
		if e.Type == "action.result" {
			results[e.str("toolName")] = e
		}
	}
	for tool, stubbed := range map[string]bool{"echo_read": false, "recorder": true, "echo_undeclared": true, "datadog_get_monitor": false} {
		r, ok := results[tool]
		switch {
		case !ok:
			t.Errorf("no result of %s: %v", tool, types(evs))
		case (r.Data["stubbed"] == true) != stubbed:
			t.Errorf("%s: stubbed %v, want %v: %+v", tool, r.Data["stubbed"], stubbed, r.Data)
		case stubbed && (r.Data["isError"] != false || r.str("result") != "(dry run) "+tool+" was not run: a dry run runs read tools only"):
			t.Errorf("%s's stub: %+v", tool, r.Data)
		}
	}
	if got := string(mustJSON(t, results["echo_read"].Data["result"])); got != `{"a":1}` {
		t.Errorf("the read ran with %s", got)
	}
	calls := getCalls(t, exec, id)
	if len(calls.Records) != 0 || len(calls.Calls) != 2 {
		t.Errorf("a stubbed tool ran: %+v", calls)
	}
	if r := row(t, exec, "", id); r["dryRun"] != true {
		t.Errorf("row: %v", r)
	}
	// A follow-up of a dry run is one too; a follow-up cannot make one.
	next := send(t, exec, "", map[string]any{"message": "call recorder {}", "continuationToken": a["continuationToken"]})
	evs = waitFor(t, exec, id, "turn.completed", "turnId", next.TurnID)
	if last := evs[len(evs)-2]; last.Type != "action.result" || last.Data["stubbed"] != true {
		t.Errorf("follow-up of a dry run: %+v", last)
	}
	status, body = devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", map[string]any{
		"message": "say x", "continuationToken": next.ContinuationToken, "dryRun": true})
	expectError(t, status, body, 400, "invalid_input", "a follow-up message takes no dryRun: it is set when the session is created")
	// Another session is no dry run.
	live := script(t, exec, "call recorder {}")
	waitFor(t, exec, live.SessionID, "session.waiting")
	if got := getCalls(t, exec, live.SessionID); len(got.Records) != 1 {
		t.Errorf("a session that is no dry run: %+v", got)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// waitForAs is waitFor as a principal.
func waitForAs(t *testing.T, agentURL, token, id, typ string) []ev {
	t.Helper()
	s := openStream(t, agentURL, token, id, "0")
	defer s.close()
	return s.until(typ)
}

package devserver_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
	"github.com/agsh-dev/agsh/internal/wire"
)

func listSessions(t *testing.T, agentURL, token string) []wire.Session {
	t.Helper()
	status, body := devservertest.Do(t, http.MethodGet, agentURL+"/v1/sessions", token, nil)
	var out wire.SessionsResponse
	if status != 200 || json.Unmarshal(body, &out) != nil || !out.OK {
		t.Fatalf("sessions: %d %s", status, body)
	}
	return out.Sessions
}

func TestCreateSessionShape(t *testing.T) {
	_, exec := start(t)
	status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", `{"message":"Check the nightly deploy\nand more","title":"Nightly"}`)
	m := regexp.MustCompile(`^\{"ok":true,"sessionId":"(ses_[0-9a-f]{16})","continuationToken":"http:[0-9a-f]{24}","traceUrl":"http://127\.0\.0\.1:\d+/executor/v1/session/(ses_[0-9a-f]{16})/events","turnId":"turn_[0-9a-f]{16}"\}$`).FindSubmatch(body)
	if status != 200 || m == nil || string(m[1]) != string(m[2]) {
		t.Fatalf("got %d %s", status, body)
	}
	devservertest.NewSession(t, exec, "", "Check the nightly deploy\nsecond line")
	rows := listSessions(t, exec, "")
	if len(rows) != 2 || rows[0].Title != "Check the nightly deploy" || rows[1].Title != "Nightly" {
		t.Fatalf("titles: %+v", rows)
	}
	r := rows[1]
	if r.Mode != "chat" || r.Status != "waiting" || r.Running || r.Queued || r.CreatedAt == "" || r.UpdatedAt != r.CreatedAt {
		t.Fatalf("row: %+v", r)
	}
	status, body = devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", `{"title":"x"}`)
	expectError(t, status, body, 400, "invalid_input", `a session needs a message: {"message": "…"}`)
}

func TestSessionsNewestActivityFirst(t *testing.T) {
	_, exec := start(t)
	a, _ := devservertest.NewSession(t, exec, "", "a")
	b, _ := devservertest.NewSession(t, exec, "", "b")
	if rows := listSessions(t, exec, ""); rows[0].SessionID != b || rows[1].SessionID != a {
		t.Fatalf("want b then a: %+v", rows)
	}
	// A call bound to a makes it the most recently active.
	if status, body := post(t, exec, "echo_read", "", map[string]any{"sessionId": a}); status != 200 {
		t.Fatalf("call: %d %s", status, body)
	}
	rows := listSessions(t, exec, "")
	if rows[0].SessionID != a || rows[1].SessionID != b || rows[0].UpdatedAt <= rows[1].UpdatedAt {
		t.Fatalf("want a then b: %+v", rows)
	}
}

func TestOwnership(t *testing.T) {
	cfg := testConfig()
	cfg.BearerTokens = []string{"alice-token", "bob-token"}
	s := devservertest.Start(t, cfg)
	exec := s.AgentURL("executor")
	id, tok := devservertest.NewSession(t, exec, "alice-token", "alice's")
	if rows := listSessions(t, exec, "bob-token"); len(rows) != 0 {
		t.Fatalf("bob sees alice's sessions: %+v", rows)
	}
	if rows := listSessions(t, exec, "alice-token"); len(rows) != 1 || rows[0].SessionID != id {
		t.Fatalf("alice's listing: %+v", rows)
	}
	msg := "session " + id + " belongs to another principal; use the identity that created it"
	for name, body := range map[string]any{
		"by id":    map[string]any{"sessionId": id},
		"by token": map[string]any{"continuationToken": tok},
	} {
		status, out := post(t, exec, "echo_read", "bob-token", body)
		expectError(t, status, out, 403, "forbidden", msg)
		_ = name
	}
	for _, path := range []string{"/v1/tools?sessionId=" + id, "/v1/tools/echo_read?session=" + id,
		"/v1/tools?continuationToken=" + tok, "/v1/dev/sessions/" + id + "/calls"} {
		status, out := devservertest.Do(t, http.MethodGet, exec+path, "bob-token", nil)
		expectError(t, status, out, 403, "forbidden", msg)
	}
	status, out := devservertest.Do(t, http.MethodPost, exec+"/v1/dev/turn", "bob-token", map[string]any{"sessionId": id})
	expectError(t, status, out, 403, "forbidden", msg)
	if status, out := post(t, exec, "echo_read", "alice-token", map[string]any{"sessionId": id}); status != 200 {
		t.Fatalf("owner call: %d %s", status, out)
	}
}

func TestBindingErrors(t *testing.T) {
	_, exec := start(t)
	id, tok := devservertest.NewSession(t, exec, "", "m")
	tests := []struct {
		name   string
		body   any
		query  string
		status int
		code   string
		msg    string
	}{
		{"both", map[string]any{"sessionId": id, "continuationToken": tok}, "sessionId=" + id + "&continuationToken=" + tok,
			400, "conflicting_binding", "pass either sessionId or continuationToken, not both"},
		{"empty token", map[string]any{"continuationToken": ""}, "continuationToken=",
			400, "invalid_continuation_token", `malformed continuation token "": expected <channelId>:<key>`},
		{"token without colon", map[string]any{"continuationToken": "abc"}, "continuationToken=abc",
			400, "invalid_continuation_token", `malformed continuation token "abc": expected <channelId>:<key>`},
		{"unknown session", map[string]any{"sessionId": "ses_0000000000000000"}, "sessionId=ses_0000000000000000",
			404, "unknown_session", "no session ses_0000000000000000 on agent executor"},
		{"unknown session alias", nil, "session=ses_0000000000000000",
			404, "unknown_session", "no session ses_0000000000000000 on agent executor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.body != nil {
				status, out := post(t, exec, "echo_read", "", tt.body)
				expectError(t, status, out, tt.status, tt.code, tt.msg)
			}
			for _, path := range []string{"/v1/tools?", "/v1/tools/echo_read?"} {
				status, out := devservertest.Do(t, http.MethodGet, exec+path+tt.query, "", nil)
				expectError(t, status, out, tt.status, tt.code, tt.msg)
			}
		})
	}
}

func TestTokenBinding(t *testing.T) {
	_, exec := start(t)
	id, tok := devservertest.NewSession(t, exec, "", "m")
	// A token behind a live session binds exactly like its id.
	status, body := post(t, exec, "echo_write", "", map[string]any{"continuationToken": tok, "input": map[string]any{"a": 1}})
	res := envelope(t, body)
	if status != 200 || res["sessionId"] != id {
		t.Fatalf("got %d %s", status, body)
	}
	devservertest.SetTurn(t, exec, "", devservertest.Turn{SessionID: id})
	status, body = post(t, exec, "echo_write", "", map[string]any{"continuationToken": tok})
	expectError(t, status, body, 409, "session_busy", "")
	// A well-formed token with no session runs scratch-bound and unrecorded.
	status, body = post(t, exec, "echo_write", "", map[string]any{"continuationToken": "slack:C042-1700000000", "input": map[string]any{"b": 2}})
	res = envelope(t, body)
	if _, has := res["sessionId"]; status != 200 || has || res["isError"] != false {
		t.Fatalf("got %d %s", status, body)
	}
	if res["scratchWorkspace"] != false {
		t.Fatalf("an unbound token call is not a scratch fallback: %s", body)
	}
	calls := sessionCalls(t, exec, id)
	if len(calls) != 1 || calls[0].ToolName != "echo_write" || string(calls[0].Input) != `{"a":1}` {
		t.Fatalf("calls: %+v", calls)
	}
}

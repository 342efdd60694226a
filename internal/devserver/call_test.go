package devserver_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// recordedCall is one row of GET /v1/dev/sessions/{id}/calls.
type recordedCall struct {
	CallID   string          `json:"callId"`
	ToolName string          `json:"toolName"`
	Input    json.RawMessage `json:"input"`
	TurnID   string          `json:"turnId"`
	IsError  bool            `json:"isError"`
	At       string          `json:"at"`
}

func sessionCalls(t *testing.T, agentURL, id string) []recordedCall {
	t.Helper()
	status, body := devservertest.Do(t, http.MethodGet, agentURL+"/v1/dev/sessions/"+id+"/calls", "", nil)
	var out struct {
		OK    bool           `json:"ok"`
		Calls []recordedCall `json:"calls"`
	}
	if status != 200 || json.Unmarshal(body, &out) != nil || !out.OK {
		t.Fatalf("calls: %d %s", status, body)
	}
	return out.Calls
}

func TestCallAnswers(t *testing.T) {
	_, exec := start(t)
	tests := []struct {
		name, tool, body string
		want             string // the answer with callId and durationMs blanked
	}{
		{"echo keeps input bytes", "echo_read", `{"input": {"n": 12345678901234567890123, "d": 1.50}}`,
			`{"ok":true,"toolName":"echo_read","callId":"#","isError":false,"result":{"n": 12345678901234567890123, "d": 1.50},"durationMs":#,"scratchWorkspace":false}`},
		{"no body", "echo_read", ``,
			`{"ok":true,"toolName":"echo_read","callId":"#","isError":false,"result":{},"durationMs":#,"scratchWorkspace":false}`},
		{"null input", "echo_read", `{"input": null}`,
			`{"ok":true,"toolName":"echo_read","callId":"#","isError":false,"result":{},"durationMs":#,"scratchWorkspace":false}`},
		{"go error", "fail", `{}`,
			`{"ok":true,"toolName":"fail","callId":"#","isError":true,"result":"disk on fire","durationMs":#,"scratchWorkspace":false}`},
		{"panic", "boom", `{}`,
			`{"ok":true,"toolName":"boom","callId":"#","isError":true,"result":"boom failed: internal error (kaboom)","durationMs":#,"scratchWorkspace":false}`},
		{"mcp result", "datadog_get_monitor", `{}`,
			`{"ok":true,"toolName":"datadog_get_monitor","callId":"#","isError":false,"result":{"content":[{"type":"text","text":"ok"}],"isError":false},"durationMs":#,"scratchWorkspace":false}`},
	}
	blank := regexp.MustCompile(`"callId":"call_[0-9a-f]{16}"|"durationMs":\d+`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, exec, tt.tool, "", tt.body)
			got := blank.ReplaceAllStringFunc(string(body), func(m string) string {
				if m[1] == 'c' {
					return `"callId":"#"`
				}
				return `"durationMs":#`
			})
			if status != 200 || got != tt.want {
				t.Fatalf("got %d\n%s\nwant\n%s", status, got, tt.want)
			}
		})
	}
	// The server survived the panic.
	if status, _ := post(t, exec, "echo_read", "", `{}`); status != 200 {
		t.Fatalf("server did not survive a panicking tool: %d", status)
	}
}

func TestCallErrorsBeforeTheBody(t *testing.T) {
	_, exec := start(t)
	status, body := post(t, exec, "agentonly", "", `{}`)
	expectError(t, status, body, 400, "agent_tool",
		"agentonly is an agent-execution tool; it runs only inside a model turn and cannot be called on the host")
	status, body = post(t, exec, "badinput", "", `{}`)
	want := `{"ok":false,"error":"invalid_input","message":"invalid input for badinput: pattern: invalid regular expression","issues":[{"path":["pattern"],"message":"invalid regular expression"}]}`
	if status != 400 || string(body) != want {
		t.Fatalf("got %d %s\nwant %s", status, body, want)
	}
}

func TestBusySemanticsByEffect(t *testing.T) {
	_, exec := start(t)
	for _, state := range []string{"running", "queued"} {
		t.Run(state, func(t *testing.T) {
			id, _ := devservertest.NewSession(t, exec, "", "m")
			turn := devservertest.Turn{SessionID: id}
			if state == "running" {
				turn.Running = devservertest.Ptr(true)
			} else {
				turn.Queued = devservertest.Ptr(true)
			}
			devservertest.SetTurn(t, exec, "", turn)
			rows := listSessions(t, exec, "")
			if rows[0].SessionID != id || rows[0].Status != "running" || rows[0].Running != (state == "running") || rows[0].Queued != (state == "queued") {
				t.Fatalf("listing during the turn: %+v", rows[0])
			}
			for tool, wantStatus := range map[string]int{
				"echo_read": 200, "datadog_get_monitor": 200, // effect read, readOnlyHint
				"echo_write": 409, "echo_undeclared": 409, // write, undeclared
			} {
				status, body := post(t, exec, tool, "", map[string]any{"sessionId": id})
				if wantStatus == 409 {
					expectError(t, status, body, 409, "session_busy", "session "+id+" has a model turn "+state+
						" and "+tool+" is a write; wait for the turn to finish, or call without a session")
					continue
				}
				if status != 200 {
					t.Fatalf("%s: %d %s", tool, status, body)
				}
			}
			// Unbound, the write runs.
			if status, body := post(t, exec, "echo_write", "", `{}`); status != 200 {
				t.Fatalf("unbound write: %d %s", status, body)
			}
			// Ending the turn lets writes in again.
			devservertest.SetTurn(t, exec, "", devservertest.Turn{SessionID: id, Running: devservertest.Ptr(false), Queued: devservertest.Ptr(false)})
			if status, body := post(t, exec, "echo_write", "", map[string]any{"sessionId": id}); status != 200 {
				t.Fatalf("after the turn: %d %s", status, body)
			}
			calls := sessionCalls(t, exec, id)
			if len(calls) != 3 || calls[2].ToolName != "echo_write" {
				t.Fatalf("calls: %+v", calls)
			}
			turns := map[string]bool{}
			for _, c := range calls {
				if !regexp.MustCompile(`^turn_[0-9a-f]{16}$`).MatchString(c.TurnID) || turns[c.TurnID] {
					t.Fatalf("each call needs its own turnId: %+v", calls)
				}
				turns[c.TurnID] = true
			}
		})
	}
}

func TestUnavailableWorkspace(t *testing.T) {
	_, exec := start(t)
	id, _ := devservertest.NewSession(t, exec, "", "m")
	devservertest.SetTurn(t, exec, "", devservertest.Turn{SessionID: id, Workspace: devservertest.Ptr("unavailable")})
	if rows := listSessions(t, exec, ""); rows[0].Running || rows[0].Status != "waiting" {
		t.Fatalf("only the workspace changed: %+v", rows[0])
	}
	status, body := post(t, exec, "echo_read", "", map[string]any{"sessionId": id})
	res := envelope(t, body)
	if status != 200 || res["scratchWorkspace"] != true || res["sessionId"] != id {
		t.Fatalf("read: %d %s", status, body)
	}
	for _, tool := range []string{"echo_write", "echo_undeclared"} {
		status, body = post(t, exec, tool, "", map[string]any{"sessionId": id})
		expectError(t, status, body, 409, "workspace_unavailable",
			"the workspace of session "+id+" is unavailable; "+tool+" is a write and cannot run in a scratch workspace")
	}
	devservertest.SetTurn(t, exec, "", devservertest.Turn{SessionID: id, Workspace: devservertest.Ptr("available")})
	status, body = post(t, exec, "echo_write", "", map[string]any{"sessionId": id})
	// The answer carries scratchWorkspace false, as the example of
	// docs/wire.md#invoking-a-tool does.
	if res := envelope(t, body); status != 200 || res["scratchWorkspace"] != false {
		t.Fatalf("write after: %d %s", status, body)
	}
}

func TestCallsAndRecords(t *testing.T) {
	_, exec := start(t)
	id, _ := devservertest.NewSession(t, exec, "", "m")
	post(t, exec, "echo_read", "", `{"sessionId":"`+id+`","input":{ "spaced" :  true }}`)
	post(t, exec, "recorder", "", `{"sessionId":"`+id+`","input":{"x":1}}`)
	post(t, exec, "fail", "", `{"sessionId":"`+id+`"}`)
	post(t, exec, "echo_read", "", `{"input":{"unbound":1}}`)
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/dev/sessions/"+id+"/calls", "", nil)
	blank := regexp.MustCompile(`"(callId|turnId|at)":"[^"]+"`)
	got := blank.ReplaceAllString(string(body), `"$1":"#"`)
	want := `{"ok":true,"sessionId":"` + id + `","calls":[` +
		`{"callId":"#","toolName":"echo_read","input":{ "spaced" :  true },"turnId":"#","isError":false,"at":"#"},` +
		`{"callId":"#","toolName":"recorder","input":{"x":1},"turnId":"#","isError":false,"at":"#"},` +
		`{"callId":"#","toolName":"fail","input":{},"turnId":"#","isError":true,"at":"#"}],` +
		`"records":[{"kind":"note","callId":"#","value":{"seen":"{\"x\":1}"},"at":"#"}]}`
	if status != 200 || got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	status, body = devservertest.Do(t, http.MethodGet, exec+"/v1/dev/sessions/ses_nope/calls", "", nil)
	expectError(t, status, body, 404, "unknown_session", "no session ses_nope on agent executor")
}

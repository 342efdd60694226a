package devserver_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// TestScriptChecked: a malformed step is a 400 naming its line, for a dry
// run and a real create alike, and creates nothing.
func TestScriptChecked(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	pre := "the message's step script is malformed: "
	tests := []struct {
		name, message, msg string
	}{
		{"unknown step", "say hi\nsing a song", `line 2: unknown step "sing": a step is call, say, sleep or fail (# starts a comment)`},
		{"sleep too long", "sleep 10m1s", "line 1: sleep is at most 10m, not 10m1s"},
		{"sleep an hour", "# plan\n\nsleep 1h", "line 3: sleep is at most 10m, not 1h"},
		{"sleep negative", "sleep -1s", "line 1: sleep takes a duration that is not negative, not -1s"},
		{"sleep no unit", "sleep 5", `line 1: sleep takes a Go duration such as 2s or 1m30s, not "5"`},
		{"sleep nothing", "sleep", `line 1: sleep takes a Go duration such as 2s or 1m30s, not ""`},
		{"sleep overflow", "sleep 99999999999999999999h", `line 1: sleep takes a Go duration such as 2s or 1m30s, not "99999999999999999999h"`},
		{"call no tool", "call", "line 1: call needs a tool name: call <tool> <json input>"},
		{"call unknown tool", "call nope {}", `line 1: no tool "nope" on agent executor`},
		{"call bad json", `call echo_read {"a":`, "line 1: the input of call echo_read is not valid JSON"},
		{"call array", `call echo_read [1]`, "line 1: the input of call echo_read must be a JSON object"},
		{"call two values", `call echo_read {} {}`, "line 1: the input of call echo_read is not valid JSON"},
		{"call control characters", "call echo_read {\"a\":\"\x1b\"}", "line 1: the input of call echo_read is not valid JSON"},
		{"too many steps", "say x" + strings.Repeat("\nsay x", 10000), "line 10001: a message holds at most 10000 steps"},
		{"long unknown word", "say a\n" + strings.Repeat("z", 100), `line 2: unknown step "` + strings.Repeat("z", 40) + `…": a step is call, say, sleep or fail (# starts a comment)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, body := range []map[string]any{{"checkOnly": true}, {"dryRun": true}, {}} {
				body["message"] = tt.message
				status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", body)
				expectError(t, status, body, 400, "invalid_input", pre+tt.msg)
				if e := envelope(t, body); !strings.Contains(string(body), `"issues":[{"path":["message"],"message":"`+strings.ReplaceAll(tt.msg, `"`, `\"`)) {
					t.Fatalf("issues: %v", e)
				}
			}
		})
	}
	if rows := listSessions(t, exec, ""); len(rows) != 0 {
		t.Fatalf("a refused script made a session: %+v", rows)
	}
}

// TestScriptReading: what counts as a script, and what a step keeps.
func TestScriptReading(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	tests := []struct {
		name, message string
		steps         int
	}{
		{"prose", "Please check the deploy\nsay nothing", 0},
		{"empty", "", 0},
		{"blank and comments", "\n  \n# only a comment\n", 0},
		{"a step word inside a word", "sayonara", 0},
		{"crlf lines", "say a\r\ncall echo_read {}\r\n", 2},
		{"tabs", "say\tsomething\ncall\techo_read\t{}", 2},
		{"say alone", "say", 1},
		{"sleep at the bound", "sleep 10m", 1},
		{"comments between", "# plan\nsay a\n  # note\nfail", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", map[string]any{"message": tt.message, "checkOnly": true})
			if status != 200 || envelope(t, body)["steps"] != jsonNumber(tt.steps) {
				t.Fatalf("got %d %s, want %d steps", status, body, tt.steps)
			}
		})
	}
	c := script(t, exec, "say  spaced   text  ", "fail")
	evs := waitFor(t, exec, c.SessionID, "turn.failed")
	if evs[1].str("text") != "spaced   text" || evs[2].str("message") != "the script failed the turn" {
		t.Fatalf("events: %+v", evs)
	}
}

// TestCreateBodyChecked: the create body's own fields.
func TestCreateBodyChecked(t *testing.T) {
	t.Parallel()
	_, exec := start(t)
	tests := []struct {
		name string
		body any
		msg  string
	}{
		{"mode", map[string]any{"message": "m", "mode": "batch"}, `mode must be "chat" or "task", not "batch"`},
		{"session id", map[string]any{"message": "m", "sessionId": "ses_x"}, "a new session takes no sessionId; a follow-up names its session by continuationToken"},
		{"long title", map[string]any{"message": "m", "title": strings.Repeat("t", 1001)}, "the title is longer than 1000 bytes"},
		{"message not a string", `{"message": 5}`, "the request body's field message must be a string, not number"},
		{"dry run not a boolean", `{"message": "m", "dryRun": "yes"}`, "the request body's field dryRun must be a boolean, not string"},
		{"check not a boolean", `{"message": "m", "checkOnly": 1}`, "the request body's field checkOnly must be a boolean, not number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", tt.body)
			expectError(t, status, body, 400, "invalid_input", tt.msg)
		})
	}
	status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/session", "", `{"message":"`+strings.Repeat("a", 1<<20)+`"}`)
	expectError(t, status, body, 413, "request_too_large", "the request body is larger than 1048576 bytes")
}

// jsonNumber is n as envelope decodes it.
func jsonNumber(n int) any { return json.Number(strconv.Itoa(n)) }

package devserver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

func TestAgentsListing(t *testing.T) {
	s, _ := start(t)
	status, body := devservertest.Do(t, http.MethodGet, s.URL()+"/v1/agents", "", nil)
	want := `{"ok":true,"agents":[{"slug":"executor","url":"` + s.URL() + `/executor","name":"change-monitor-executor"},` +
		`{"slug":"planner","url":"` + s.URL() + `/planner","name":"change-monitor-planner"}]}`
	if status != 200 || string(body) != want {
		t.Fatalf("got %d %s\nwant %s", status, body, want)
	}
}

func TestToolDetailServesSchemaByteForByte(t *testing.T) {
	_, exec := start(t)
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/tools/odd", "", nil)
	want := `{"ok":true,"tool":{"name":"odd","title":"Odd schema","inputSchema":` + oddSchema +
		`,"effect":"read","needsApproval":false,"execution":"server","source":{"kind":"authored"}}}`
	if status != 200 || string(body) != want {
		t.Fatalf("got %d\n%s\nwant\n%s", status, body, want)
	}
	// The agent document embeds the same bytes.
	_, info := devservertest.Do(t, http.MethodGet, exec+"/v1/info", "", nil)
	if !strings.Contains(string(info), `{"name":"odd","inputSchema":`+oddSchema+`,"effect":"read","needsApproval":false,"execution":"server"}`) {
		t.Fatalf("info does not embed the schema verbatim:\n%s", info)
	}
}

func TestToolDetailOfConnectionTool(t *testing.T) {
	_, exec := start(t)
	// The name is path-escaped by clients; an escaped letter must resolve too.
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/tools/datadog_get_%6Donitor", "", nil)
	want := `{"ok":true,"tool":{"name":"datadog_get_monitor","title":"Get monitor","inputSchema":{"type":"object","properties":{}},` +
		`"needsApproval":false,"execution":"server","annotations":{"readOnlyHint":true},` +
		`"source":{"kind":"connection","connection":"datadog","connector":"datadog"}}}`
	if status != 200 || string(body) != want {
		t.Fatalf("got %d\n%s\nwant\n%s", status, body, want)
	}
}

func TestInfoDocument(t *testing.T) {
	_, exec := start(t)
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/info", "", nil)
	prefix := `{"ok":true,"name":"change-monitor-executor","description":"Executes monitoring plans against changed code.","tools":[` +
		`{"name":"echo_read","description":"Answers its input.","inputSchema":{"type":"object"},"effect":"read","needsApproval":false,"execution":"server"},`
	if status != 200 || !strings.HasPrefix(string(body), prefix) {
		t.Fatalf("got %d\n%s", status, body)
	}
	if !strings.Contains(string(body), `{"name":"agentonly","inputSchema":{"type":"object"},"needsApproval":false,"execution":"agent"}`) {
		t.Fatalf("agent tool missing from info:\n%s", body)
	}
}

func TestToolListing(t *testing.T) {
	s, _ := start(t)
	status, body := devservertest.Do(t, http.MethodGet, s.AgentURL("planner")+"/v1/tools", "", nil)
	want := `{"ok":true,"tools":[{"name":"echo_read","source":{"kind":"authored"}}]}`
	if status != 200 || string(body) != want {
		t.Fatalf("got %d %s\nwant %s", status, body, want)
	}
}

func TestUnknownToolListsAvailableSorted(t *testing.T) {
	_, exec := start(t)
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		status, body := devservertest.Do(t, method, exec+"/v1/tools/nope", "", nil)
		want := `{"ok":false,"error":"unknown_tool","message":"no tool \"nope\" on agent executor","available":` +
			`["agentonly","badinput","boom","datadog_get_monitor","echo_read","echo_undeclared","echo_write","fail","limited","odd","recorder"]}`
		if status != 404 || string(body) != want {
			t.Fatalf("%s: got %d %s\nwant %s", method, status, body, want)
		}
	}
}

func TestRoutingErrors(t *testing.T) {
	s, exec := start(t)
	tests := []struct {
		name, method, url string
		status            int
		body              string
	}{
		{"method not allowed", http.MethodDelete, exec + "/v1/tools",
			405, `{"ok":false,"error":"method_not_allowed","message":"method not allowed; this route answers GET"}`},
		{"post on sessions", http.MethodPost, exec + "/v1/sessions",
			405, `{"ok":false,"error":"method_not_allowed","message":"method not allowed; this route answers GET"}`},
		{"unknown agent route", http.MethodGet, exec + "/v1/nope",
			404, `{"ok":false,"error":"not_found","message":"no route GET /executor/v1/nope"}`},
		{"agent root", http.MethodGet, exec,
			404, `{"ok":false,"error":"not_found","message":"no route GET /executor"}`},
		{"host route is not an agent", http.MethodGet, s.URL() + "/v1/tools", 404, "404 page not found\n"},
		{"unknown agent", http.MethodGet, s.URL() + "/nope/v1/tools", 404, "404 page not found\n"},
		{"agents wrong method", http.MethodPost, s.URL() + "/v1/agents",
			405, `{"ok":false,"error":"method_not_allowed","message":"method not allowed; this route answers GET"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := devservertest.Do(t, tt.method, tt.url, "", nil)
			if status != tt.status || string(body) != tt.body {
				t.Fatalf("got %d %q\nwant %d %q", status, body, tt.status, tt.body)
			}
		})
	}
}

func TestMalformedBodies(t *testing.T) {
	_, exec := start(t)
	tests := []struct {
		name, body, message string
	}{
		{"syntax", `{"input": {`, "the request body is not valid JSON: it ends early"},
		{"garbage", `nope`, "the request body is not valid JSON: invalid character 'o' in literal null (expecting 'u')"},
		{"not an object", `[1]`, "the request body must be a JSON object, not array"},
		{"trailing data", `{} {}`, "the request body is not valid JSON: unexpected data after the JSON object"},
		{"session id type", `{"sessionId": 5}`, "the request body's field sessionId must be a string, not number"},
		{"input not an object", `{"input": [1]}`, "input must be a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, exec, "echo_read", "", tt.body)
			expectError(t, status, body, 400, "invalid_input", tt.message)
		})
	}
}

func TestBodyTooLarge(t *testing.T) {
	s, err := devserver.New(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/executor/v1/tools/echo_read",
		strings.NewReader(`{"input":{"pad":"`+strings.Repeat("x", 64<<20)+`"}}`))
	req.RemoteAddr = "127.0.0.1:9"
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if want := `{"ok":false,"error":"request_too_large","message":"the request body is larger than 67108864 bytes"}`; rec.Code != 413 || rec.Body.String() != want {
		t.Fatalf("got %d %s", rec.Code, rec.Body.String())
	}
}

package devserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/wire"
)

// oddSchema has unusual key order, whitespace, HTML characters and numbers
// no float64 holds: it must come back byte for byte.
const oddSchema = `{"properties": {
    "zeta": {"type": "integer", "maximum": 123456789012345678901234567890},
    "alpha": {"type": "number", "default": 1.10, "description": "<b>&amp;</b> \u00e9"}
  },
  "type": "object",   "required": ["zeta"]}`

// limitedSchema is validated: a required path and an integer limit.
const limitedSchema = `{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer","minimum":1},"tags":{"type":"array","items":{"type":"string"}}},"required":["path"],"additionalProperties":false}`

// testTools are the synthetic tools of the tests' executor agent.
func testTools() []*tool.Tool {
	answer := func(r tool.Result, err error) func(context.Context, *tool.Call) (tool.Result, error) {
		return func(context.Context, *tool.Call) (tool.Result, error) { return r, err }
	}
	authored := wire.Source{Kind: "authored"}
	return []*tool.Tool{
		devservertest.Echo("echo_read", "read"),
		devservertest.Echo("echo_write", "write"),
		devservertest.Echo("echo_undeclared", ""),
		{Name: "odd", Title: "Odd schema", InputSchema: json.RawMessage(oddSchema), Effect: "read", Source: authored,
			Call: answer(tool.Text("odd"), nil)},
		{Name: "limited", InputSchema: json.RawMessage(limitedSchema), Effect: "read", Validate: true, Source: authored,
			Call: func(_ context.Context, c *tool.Call) (tool.Result, error) { return tool.Result{Value: c.Input}, nil }},
		{Name: "boom", Effect: "read", Call: func(context.Context, *tool.Call) (tool.Result, error) { panic("kaboom") }},
		{Name: "fail", Effect: "read", Call: answer(tool.Result{}, errors.New("disk on fire"))},
		{Name: "badinput", Effect: "read", Call: answer(tool.Result{}, tool.BadInput("pattern", "invalid regular expression"))},
		{Name: "agentonly", Execution: "agent", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "recorder", Effect: "write", Call: func(_ context.Context, c *tool.Call) (tool.Result, error) {
			c.Record("note", map[string]string{"seen": string(c.Input)})
			return tool.Text("noted"), nil
		}},
		{Name: "datadog_get_monitor", Title: "Get monitor", Effect: "",
			Annotations: &wire.Annotations{ReadOnlyHint: devservertest.Ptr(true)},
			Source:      wire.Source{Kind: "connection", Connection: "datadog", Connector: "datadog"},
			Call:        answer(tool.Result{Value: json.RawMessage(`{"content":[{"type":"text","text":"ok"}],"isError":false}`)}, nil)},
	}
}

// testConfig is a two-agent configuration over the synthetic tools.
func testConfig() devserver.Config {
	return devserver.Config{Agents: []devserver.AgentConfig{
		{Slug: "executor", Name: "change-monitor-executor", Description: "Executes monitoring plans against changed code.", Tools: testTools()},
		{Slug: "planner", Name: "change-monitor-planner", Description: "Plans.", Tools: []*tool.Tool{devservertest.Echo("echo_read", "read")}},
	}}
}

// start starts the two-agent test server and returns the executor's URL.
func start(t *testing.T) (*devserver.Server, string) {
	t.Helper()
	s := devservertest.Start(t, testConfig())
	return s, s.AgentURL("executor")
}

// envelope decodes an answer into a generic map, numbers exact.
func envelope(t *testing.T, body []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("answer is not a JSON object: %v\n%s", err, body)
	}
	return m
}

// expectError checks an error envelope's status, code and message.
func expectError(t *testing.T, status int, body []byte, wantStatus int, wantCode, wantMessage string) {
	t.Helper()
	if status != wantStatus {
		t.Fatalf("status %d, want %d: %s", status, wantStatus, body)
	}
	var e wire.ErrorBody
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("not an envelope: %v: %s", err, body)
	}
	if e.OK || e.Error != wantCode {
		t.Fatalf("error %q (ok %v), want %q: %s", e.Error, e.OK, wantCode, body)
	}
	if wantMessage != "" && e.Message != wantMessage {
		t.Fatalf("message\n got %q\nwant %q", e.Message, wantMessage)
	}
}

// post sends a call of name with body to the agent.
func post(t *testing.T, agentURL, name, token string, body any) (int, []byte) {
	t.Helper()
	return devservertest.Do(t, http.MethodPost, agentURL+"/v1/tools/"+name, token, body)
}

package devserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

func TestSchemaValidationIssues(t *testing.T) {
	_, exec := start(t)
	tests := []struct {
		name, input, want string
	}{
		{"missing required", `{}`,
			`{"ok":false,"error":"invalid_input","message":"invalid input for limited: path: required","issues":[{"path":["path"],"message":"required"}]}`},
		{"wrong type", `{"path":"a","limit":"ten"}`,
			`{"ok":false,"error":"invalid_input","message":"invalid input for limited: limit: expected integer","issues":[{"path":["limit"],"message":"expected integer"}]}`},
		{"decimal is no integer", `{"path":"a","limit":2.5}`,
			`{"ok":false,"error":"invalid_input","message":"invalid input for limited: limit: expected integer","issues":[{"path":["limit"],"message":"expected integer"}]}`},
		{"below minimum", `{"path":"a","limit":0}`,
			`{"ok":false,"error":"invalid_input","message":"invalid input for limited: limit: minimum: got 0, want 1","issues":[{"path":["limit"],"message":"minimum: got 0, want 1"}]}`},
		{"array index is a number", `{"path":"a","tags":["x",7]}`,
			`{"ok":false,"error":"invalid_input","message":"invalid input for limited: tags.1: expected string","issues":[{"path":["tags",1],"message":"expected string"}]}`},
		{"unknown property", `{"path":"a","extra":1}`,
			`{"ok":false,"error":"invalid_input","message":"invalid input for limited: extra: unknown property","issues":[{"path":["extra"],"message":"unknown property"}]}`},
		{"several sorted", `{"limit":"x","extra":1}`,
			`{"ok":false,"error":"invalid_input","message":"invalid input for limited: extra: unknown property (and 2 more)","issues":[{"path":["extra"],"message":"unknown property"},{"path":["limit"],"message":"expected integer"},{"path":["path"],"message":"required"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, exec, "limited", "", `{"input":`+tt.input+`}`)
			if status != 400 || string(body) != tt.want {
				t.Fatalf("got %d\n%s\nwant\n%s", status, body, tt.want)
			}
		})
	}
	// Valid input reaches the body; a big integer passes "integer" exactly.
	status, body := post(t, exec, "limited", "", `{"input":{"path":"a","limit":123456789012345678901234567890}}`)
	if status != 200 {
		t.Fatalf("valid input: %d %s", status, body)
	}
	if res := envelope(t, body); res["result"].(map[string]any)["limit"].(interface{ String() string }).String() != "123456789012345678901234567890" {
		t.Fatalf("the number lost precision: %s", body)
	}
}

func TestSchemasThatDoNotCompile(t *testing.T) {
	ok := func(context.Context, *tool.Call) (tool.Result, error) { return tool.Text("ran"), nil }
	s := devservertest.Start(t, devserver.Config{Agents: []devserver.AgentConfig{{Slug: "executor", Tools: []*tool.Tool{
		{Name: "remote_ref", Validate: true, Effect: "read", Call: ok,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`)},
		{Name: "bad_type", Validate: true, Effect: "read", Call: ok, InputSchema: json.RawMessage(`{"type":"banana"}`)},
	}}}})
	for _, name := range []string{"remote_ref", "bad_type"} {
		for i := 0; i < 2; i++ { // compiled once; the second call gets the same answer
			status, body := post(t, s.AgentURL("executor"), name, "", `{"input":{"a":1}}`)
			if status != 500 || !strings.HasPrefix(string(body), `{"ok":false,"error":"internal","message":"the input schema of `+name+` does not compile: `) {
				t.Fatalf("%s: got %d %s", name, status, body)
			}
		}
	}
}

func TestNewRefusesBrokenTools(t *testing.T) {
	tests := []struct {
		name  string
		tools []*tool.Tool
		want  string
	}{
		{"schema not JSON", []*tool.Tool{{Name: "x", InputSchema: json.RawMessage(`{"type":`), Call: devservertest.Echo("e", "").Call}},
			`devserver: agent executor: tool "x": input schema is not valid JSON`},
		{"no call", []*tool.Tool{{Name: "x"}}, `devserver: agent executor: tool "x" has no Call`},
		{"twice", []*tool.Tool{devservertest.Echo("e", ""), devservertest.Echo("e", "")},
			`devserver: agent executor: tool "e" configured twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := devserver.New(devserver.Config{Agents: []devserver.AgentConfig{{Slug: "executor", Tools: tt.tools}}})
			if err == nil || err.Error() != tt.want {
				t.Fatalf("got %v\nwant %s", err, tt.want)
			}
		})
	}
	for _, slug := range []string{"", "v1", "Exec", "a/b"} {
		if _, err := devserver.New(devserver.Config{Agents: []devserver.AgentConfig{{Slug: slug}}}); err == nil {
			t.Fatalf("slug %q accepted", slug)
		}
	}
}

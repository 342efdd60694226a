package devserver_test

import (
	"testing"
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

package mcpconn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSplitToolFile(t *testing.T) {
	tests := []struct {
		data    string
		want    []string
		wantErr string
	}{
		{data: `{"name":"a","inputSchema":{}}`, want: []string{`{"name":"a","inputSchema":{}}`}},
		{data: " [ {\"name\":\"a\"} , {\"name\":\"b\"} ] \n", want: []string{`{"name":"a"}`, `{"name":"b"}`}},
		{data: `{"tools":[{"name":"a"},{"name":"b"}],"nextCursor":""}`, want: []string{`{"name":"a"}`, `{"name":"b"}`}},
		{data: `{"name":"tools","tools":"not a wrapper"}`, want: []string{`{"name":"tools","tools":"not a wrapper"}`}},
		{data: `[]`, want: []string{}},
		{data: ``, wantErr: "empty file"},
		{data: `{"name":`, wantErr: "not valid JSON"},
		{data: `"a tool"`, wantErr: `want a tool definition object, an array of them, or {"tools": [...]}`},
		{data: `{"tools":{"name":"a"}}`, wantErr: `"tools" is not an array of tool definitions`},
	}
	for _, tt := range tests {
		got, err := splitToolFile([]byte(tt.data))
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("splitToolFile(%q) error = %v, want %s", tt.data, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("splitToolFile(%q): %v", tt.data, err)
			continue
		}
		var gs []string
		for _, g := range got {
			gs = append(gs, string(g))
		}
		if strings.Join(gs, "|") != strings.Join(tt.want, "|") {
			t.Errorf("splitToolFile(%q) = %q, want %q", tt.data, gs, tt.want)
		}
	}
}

func TestObjectTyped(t *testing.T) {
	tests := []struct{ schema, want, wantErr string }{
		{schema: `{"type": "object", "properties": {}}`, want: `{"type": "object", "properties": {}}`},
		{schema: `{}`, want: `{"type":"object"}`},
		{schema: ` { } `, want: `{"type":"object"}`},
		{schema: `{"properties": {"b": {}, "a": {}}, "required": ["b"]}`, want: `{"properties":{"b": {}, "a": {}},"required":["b"],"type":"object"}`},
		{schema: `{"type":"string","x":1.50}`, want: `{"type":"object","x":1.50}`},
		{schema: `{"type":["object","null"],"properties":{"z":{}}}`, want: `{"type":"object","properties":{"z":{}}}`},
		{schema: `{"type":"object","type":"x","a":1}`, want: `{"type":"object","a":1}`},
		{schema: `{"a":1,"type":"x","type":"object"}`, want: `{"a":1,"type":"object"}`},
		{schema: `[]`, wantErr: "is not a JSON object"},
		{schema: `true`, wantErr: "is not a JSON object"},
	}
	for _, tt := range tests {
		got, err := objectTyped([]byte(tt.schema))
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("objectTyped(%s) error = %v, want %s", tt.schema, err, tt.wantErr)
			}
			continue
		}
		if err != nil || string(got) != tt.want {
			t.Errorf("objectTyped(%s) = %s, %v; want %s", tt.schema, got, err, tt.want)
		}
	}
}

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestEchoToolsFromFiles(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"Tracker/create.json":       "{\n  \"name\": \"create\",\n  \"title\": \"Create\",\n  \"inputSchema\": {\n    \"type\": \"object\",\n    \"properties\": {\"z\": {}, \"a\": {}}\n  }\n}\n",
		"Tracker/anything.json":     `{"name":"anything","inputSchema":{},"annotations":{"title":"Take anything","readOnlyHint":true}}`,
		"Tracker/pair.json":         `[{"name":"first","inputSchema":{"type":"object"}},{"name":"second","inputSchema":{"type":"object"},"needsApproval":true}]`,
		"Tracker/wrapped.json":      `{"tools":[{"name":"wrapped","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}]}`,
		"Tracker/broken.json":       `{"name":`,
		"Tracker/nameless.json":     `{"inputSchema":{}}`,
		"Tracker/schemaless.json":   `{"name":"schemaless"}`,
		"Tracker/scalar.json":       `{"name":"scalar","inputSchema":"object"}`,
		"Tracker/header.json":       `{"name":"header","inputSchema":{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"X-O"}}}}`,
		"Tracker/notes.txt":         "not a tool",
		"Tracker/nested/deep.json":  `{"name":"deep","inputSchema":{}}`,
		"other/Tracker/create.json": `{"name":"create","inputSchema":{}}`,
		"solo.json":                 `{"name":"Solo Tool","inputSchema":{"type":"object"}}`,
		"empty/README.md":           "nothing",
	})
	logs := &logSink{}
	s := startSet(t, Config{
		EchoTools: []string{
			filepath.Join(root, "Tracker"),
			filepath.Join(root, "solo.json"),
			filepath.Join(root, "other", "Tracker"),
			filepath.Join(root, "missing"),
			filepath.Join(root, "empty"),
		},
		Logf: logs.logf,
	})
	// Files are reported as they load, then tools the SDK refuses or that
	// repeat a name as they register.
	wantReports := []string{
		"mcp echo: " + root + "/Tracker/broken.json: not valid JSON; skipped",
		"mcp echo: " + root + "/Tracker/nameless.json: no \"name\"; skipped",
		"mcp echo: " + root + "/Tracker/scalar.json: tool \"scalar\": inputSchema is not a JSON object; skipped",
		"mcp echo: " + root + "/Tracker/schemaless.json: tool \"schemaless\" has no inputSchema; skipped",
		"mcp echo: --echo-tools " + root + "/missing: no such file or directory",
		"mcp echo: --echo-tools " + root + "/empty: no tool definitions (*.json) in the directory",
		"mcp echo: " + root + "/Tracker/header.json: tool \"header\": refused by the MCP SDK: AddTool \"Tracker.header\": invalid parameter header annotations: property \"o\": x-mcp-header can only be applied to primitive types (integer, string, boolean), got \"object\"; skipped",
		"mcp echo: " + root + "/other/Tracker/create.json: tool \"create\" of connector Tracker is already defined by " + root + "/Tracker/create.json; skipped",
	}
	if got := logs.String(); got != strings.Join(wantReports, "\n") {
		t.Errorf("reports:\n%s\nwant:\n%s", got, strings.Join(wantReports, "\n"))
	}
	planner := s.Tools("planner")
	if got, want := toolNames(planner[3:]), "tracker_anything,tracker_create,tracker_first,tracker_second,tracker_wrapped,solo_solo_tool"; got != want {
		t.Errorf("echo tools = %s, want %s", got, want)
	}
	if got := toolNames(s.Tools("executor")); strings.Contains(got, "tracker") {
		t.Errorf("the executor has echo tools: %s", got)
	}
	create := toolNamed(t, planner, "tracker_create")
	if want := "{\n    \"type\": \"object\",\n    \"properties\": {\"z\": {}, \"a\": {}}\n  }"; string(create.InputSchema) != want || create.Title != "Create" {
		t.Errorf("create: schema %q title %q", create.InputSchema, create.Title)
	}
	anything := toolNamed(t, planner, "tracker_anything")
	if string(anything.InputSchema) != `{}` || anything.Title != "Take anything" || !anything.ReadOnly() {
		t.Errorf("anything: schema %s, title %q, read-only %v", anything.InputSchema, anything.Title, anything.ReadOnly())
	}
	if src := anything.Source; src.Connection != "echo" || src.Connector != "Tracker" {
		t.Errorf("anything: source %+v", src)
	}
	if r, _ := callTool(t, anything, `{"n":1.0e-7,"s":"x"}`); string(r.StructuredContent) != `{"n":1.0e-7,"s":"x"}` {
		t.Errorf("anything echoed %s", r.StructuredContent)
	}
	// A file may declare needsApproval, the deployment's own field.
	if toolNamed(t, planner, "tracker_first").NeedsApproval || !toolNamed(t, planner, "tracker_second").NeedsApproval {
		t.Errorf("needsApproval: first %v, second %v", toolNamed(t, planner, "tracker_first").NeedsApproval, toolNamed(t, planner, "tracker_second").NeedsApproval)
	}
	if got := string(toolNamed(t, planner, "tracker_wrapped").OutputSchema); got != `{"type":"object","properties":{"ok":{"type":"boolean"}}}` {
		t.Errorf("wrapped: output schema %s", got)
	}
}

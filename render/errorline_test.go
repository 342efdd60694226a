package render

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		wantOK bool
	}{
		{`{"ok":false,"error":"session_busy","message":"a turn is running"}`, "a turn is running", true},
		{`{"ok":false,"error":"not_found"}`, "not_found", true},
		{`{"error":"boom","code":"E42"}`, "boom (E42)", true},
		{`{"error":"boom","code":404}`, "boom (404)", true},
		{`{"message":"bad","error":"x","status":500,"details":{"a":1}}`, "bad", true},
		{`{"ok":false}`, "the tool reported failure (ok: false)", true},
		{`{"error":{"message":"nested","type":"x"}}`, "nested", true},
		{`{"error":{"type":"x"}}`, `{"type":"x"}`, true},
		{`{"ok":false,"message":"","error":"e","code":""}`, "e", true},
		// success: false is ok: false under another name (our own
		// fixtures, shaped like dbhub's, duckdb's and git-mcp-server's).
		{`{"success":false,"error":"relation \"orders\" does not exist","code":"EXECUTION_ERROR"}`, `relation "orders" does not exist (EXECUTION_ERROR)`, true},
		{`{"success":false,"error":"Catalog Error: Table missing"}`, "Catalog Error: Table missing", true},
		{`{"success":false,"error":{"code":"GIT_ERROR","message":"not a git repository"}}`, "not a git repository", true},
		{`{"success":false,"message":"branch exists"}`, "branch exists", true},
		{`{"success":false}`, "the tool reported failure (success: false)", true},
		{`{"success":false,"ok":false}`, "the tool reported failure (ok: false)", true},
		// Not error wrappers.
		{`{"status":"ok","message":"Monitor muted"}`, "", false},
		{`{"ok":true,"error":""}`, "", false},
		{`{"error":""}`, "", false},
		{`{"error":null,"message":"hi"}`, "", false},
		{`{"ok":false,"data":1}`, "", false},
		{`{"success":true,"message":"Committed"}`, "", false},
		{`{"success":true,"error":null}`, "", false},
		{`{"success":"false","message":"x"}`, "", false},
		{`{"success":false,"rows":[]}`, "", false},
		{`[{"ok":false}]`, "", false},
		{`{}`, "", false},
	}
	for _, tt := range tests {
		got, ok := ErrorMessage(jsonValue(tt.in))
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ErrorMessage(%s) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
		if IsErrorWrapper(jsonValue(tt.in)) != tt.wantOK {
			t.Errorf("IsErrorWrapper(%s) != %v", tt.in, tt.wantOK)
		}
	}
	if _, ok := ErrorMessage(TextValue(`{"ok":false}`)); ok {
		t.Error("text value taken for an error wrapper")
	}
	if _, ok := ErrorMessage(Value{JSON: json.RawMessage(`{"ok":false}`), IsJSON: true, Final: true}); ok {
		t.Error("final value taken for an error wrapper")
	}
}

func TestErrorText(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{TextValue("file not found\n"), "file not found"},
		{jsonValue(`{"ok":false,"error":"x","code":"C"}`), "x (C)"},
		{jsonValue(`{"message":"it broke","trace":"..."}`), "it broke"},
		{jsonValue(`{"reason":"x"}`), `{"reason":"x"}`},
		{jsonValue(`"quoted\n"`), "quoted"},
		{jsonValue(`[1, 2]`), "[1,2]"},
		{FromResult(nil), "the tool reported an error without a message"},
		{TextValue(""), "the tool reported an error without a message"},
		{jsonValue(`"\n"`), "the tool reported an error without a message"},
		// An MCP error keeps its text, not its structuredContent.
		{FromResult(json.RawMessage(`{"content":[{"type":"text","text":"quota exceeded"}],"structuredContent":{"used":120,"limit":100},"isError":true}`)), "quota exceeded"},
		{FromResult(json.RawMessage(`{"content":[{"type":"text","text":"{\"ok\":false,\"error\":\"denied\"}"}],"structuredContent":{"reason":"r"},"isError":true}`)), "denied"},
		{FromResult(json.RawMessage(`{"content":[{"type":"text","text":"first"},{"type":"text","text":"second"}],"isError":true}`)), "first\nsecond"},
		{FromResult(json.RawMessage(`{"content":[{"type":"text","text":" "}],"structuredContent":{"message":"from structure"},"isError":true}`)), "from structure"},
		{FromResult(json.RawMessage(`{"content":[{"type":"text","text":"noted","annotations":{"priority":1}}],"isError":true}`)), "noted"},
	}
	for _, tt := range tests {
		if got := ErrorText(tt.v); got != tt.want {
			t.Errorf("ErrorText(%+v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestWriteError(t *testing.T) {
	tests := []struct {
		text string
		o    Options
		want string
	}{
		{"boom", Options{}, "Error: boom\n"},
		{"boom\n", Options{}, "Error: boom\n"},
		{"boom", Options{Color: true}, "\x1b[31mError:\x1b[0m boom\n"},
		{"a\x1b[2Jb", Options{TTY: true, Color: true}, "\x1b[31mError:\x1b[0m a\\x1b[2Jb\n"},
		// The tool's own "Error:" is not doubled.
		{"Error: Working directory does not exist: /x", Options{}, "Error: Working directory does not exist: /x\n"},
		{"error:  lower case", Options{Color: true}, "\x1b[31mError:\x1b[0m lower case\n"},
		{"ERROR:x", Options{}, "Error: x\n"},
		{"Error:", Options{}, "Error: Error:\n"},
		{"Error reading records: no table", Options{}, "Error: Error reading records: no table\n"},
		{"Errors: 3", Options{}, "Error: Errors: 3\n"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := WriteError(&buf, tt.text, tt.o); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tt.want {
			t.Errorf("WriteError(%q, %+v) = %q, want %q", tt.text, tt.o, buf.String(), tt.want)
		}
	}
}

// TestErrorValue: a tool-reported error, written by a data format, is the
// MCP result as received when it says isError itself, else wrapped as
// {"isError": true, "result": <the value>}.
func TestErrorValue(t *testing.T) {
	mcp := `{"content":[{"type":"text","text":"quota exceeded"}],"structuredContent":{"used":120},"isError":true}`
	tests := []struct {
		v    Value
		want string
	}{
		{FromResult(json.RawMessage(mcp)), mcp},
		{FromResult(json.RawMessage(`{"content":[{"type":"text","text":"x"}]}`)), `{"isError":true,"result":"x"}`},
		{TextValue("file not found"), `{"isError":true,"result":"file not found"}`},
		{jsonValue(`{"ok":false,"error":"denied"}`), `{"isError":true,"result":{"ok":false,"error":"denied"}}`},
		{jsonValue(`[1, 2]`), `{"isError":true,"result":[1, 2]}`},
		{FromResult(nil), `{"isError":true,"result":null}`},
		{FinalValue(""), `{"isError":true,"result":""}`},
	}
	for _, tt := range tests {
		got := ErrorValue(tt.v)
		if !got.IsJSON || string(got.JSON) != tt.want {
			t.Errorf("ErrorValue(%+v) = %s, want %s", tt.v, got.JSON, tt.want)
		}
		var buf bytes.Buffer
		if err := WriteJSON(&buf, got); err != nil || !json.Valid(buf.Bytes()) {
			t.Errorf("WriteJSON(ErrorValue(%+v)): %v\n%s", tt.v, err, buf.String())
		}
	}
}

func TestWriteJSON(t *testing.T) {
	tests := []struct {
		v    Value
		want string
	}{
		{jsonValue(`{"b":1.50,"a":[1,{"x":null}],"e":{},"f":[ ],"s":"<&>\u00e9\n"}`),
			"{\n  \"b\": 1.50,\n  \"a\": [\n    1,\n    {\n      \"x\": null\n    }\n  ],\n  \"e\": {},\n  \"f\": [],\n  \"s\": \"<&>\\u00e9\\n\"\n}\n"},
		{jsonValue(`1e400`), "1e400\n"},
		{jsonValue("\"del\x7f c1\u0085 bad\xff\""), `"del\u007f c1\u0085 bad\ufffd"` + "\n"},
		{TextValue("line\n<b>"), `"line\n<b>"` + "\n"},
		{FinalValue(`{"a":1}`), `"{\"a\":1}"` + "\n"},
		{TextValue("esc\x1b"), `"esc\u001b"` + "\n"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := WriteJSON(&buf, tt.v); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tt.want {
			t.Errorf("WriteJSON(%+v)\n got %q\nwant %q", tt.v, buf.String(), tt.want)
		}
	}
	if err := WriteJSON(&bytes.Buffer{}, jsonValue(`{bad`)); err == nil || err.Error() != "render: invalid JSON: invalid character 'b' looking for beginning of object key string at offset 1" {
		t.Errorf("WriteJSON(bad) err = %v", err)
	}
}

// TestSuccessFalseFromMCP: a server that answers failure as one text part
// holding {"success": false, …} without isError gets the error line, and a
// data format writes the value marked (docs/rendering.md#error-line).
func TestSuccessFalseFromMCP(t *testing.T) {
	for _, tt := range []struct{ part, want string }{
		{`{\"success\":false,\"error\":\"no such table: orders\",\"code\":\"EXECUTION_ERROR\"}`, "no such table: orders (EXECUTION_ERROR)"},
		{`{\"success\":false,\"error\":{\"message\":\"pathspec did not match\"}}`, "pathspec did not match"},
	} {
		v := FromResult(json.RawMessage(`{"content":[{"type":"text","text":"` + tt.part + `"}]}`))
		got, ok := ErrorMessage(v)
		if !ok || got != tt.want {
			t.Errorf("ErrorMessage(%s) = %q, %v; want %q", tt.part, got, ok, tt.want)
		}
		var b bytes.Buffer
		if err := WriteJSON(&b, ErrorValue(v)); err != nil {
			t.Fatal(err)
		}
		var m struct {
			IsError bool `json:"isError"`
			Result  struct {
				Success *bool `json:"success"`
			} `json:"result"`
		}
		if err := json.Unmarshal(b.Bytes(), &m); err != nil || !m.IsError || m.Result.Success == nil || *m.Result.Success {
			t.Errorf("ErrorValue(%s) = %s; want the value unchanged under isError: true", tt.part, b.String())
		}
	}
	ok := FromResult(json.RawMessage(`{"content":[{"type":"text","text":"{\"success\":true,\"message\":\"3 rows\"}"}]}`))
	if IsErrorWrapper(ok) {
		t.Error(`{"success": true, "message": …} taken for an error`)
	}
}

package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

func TestFromResult(t *testing.T) {
	img := strings.Repeat("QUFB", 4848) // 14544 bytes decoded
	mixed := `{"content":[{"type":"text","text":"see"},{"type":"image","data":"` + img + `","mimeType":"image/png"},{"type":"resource_link","uri":"file:///x.log","name":"x"},{"type":"audio","mimeType":"audio/wav"},{"type":"resource","resource":{"uri":"file:///r.txt","mimeType":"text/plain","text":"abc"}},{"type":"weird"}]}`
	annotated := `{"content":[{"type":"text","text":"Error: Operation failed","annotations":{"audience":["user"],"priority":1}}]}`
	withMeta := `{"content":[{"type":"text","text":"x"}],"_meta":{"nextCursor":"c","trace":"t1"}}`
	partMeta := `{"content":[{"type":"text","text":"x","_meta":{"k":1}}]}`
	tests := []struct {
		name string
		in   string
		want Value
	}{
		{"plain string", `"hello\nworld"`, Value{Text: "hello\nworld"}},
		{"empty string", `""`, Value{}},
		{"json object text", `"{\"a\":1.50}"`, Value{JSON: json.RawMessage(`{"a":1.50}`), IsJSON: true}},
		{"json array text with spaces", `"  [1, 2]\n"`, Value{JSON: json.RawMessage(`[1, 2]`), IsJSON: true}},
		{"json scalar text stays text", `"42"`, Value{Text: "42"}},
		{"broken json text stays text", `"{not json"`, Value{Text: "{not json"}},
		{"object", `{"b":1,"a":2}`, Value{JSON: json.RawMessage(`{"b":1,"a":2}`), IsJSON: true}},
		{"number", `1.0e3`, Value{JSON: json.RawMessage(`1.0e3`), IsJSON: true}},
		{"null", `null`, Value{JSON: json.RawMessage(`null`), IsJSON: true}},
		{"not json at all", `oops`, Value{Text: "oops"}},
		{"empty", ``, Value{}},
		{"mcp structured", `{"content":[{"type":"text","text":"x"}],"structuredContent":{"n":1}}`,
			Value{JSON: json.RawMessage(`{"n":1}`), IsJSON: true}},
		{"mcp structured null falls back to text", `{"content":[{"type":"text","text":"x"}],"structuredContent":null}`,
			Value{Text: "x"}},
		{"mcp text parts each a value", `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`,
			Value{JSON: json.RawMessage(`["a","b"]`), IsJSON: true, parts: true}},
		{"mcp text parts parsed each", `{"content":[{"type":"text","text":"Results:"},{"type":"text","text":"{\"n\": 1}"},{"type":"text","text":"[2]"}]}`,
			Value{JSON: json.RawMessage(`["Results:",{"n":1},[2]]`), IsJSON: true, parts: true}},
		{"mcp annotated text stays whole", annotated, Value{JSON: json.RawMessage(annotated), IsJSON: true}},
		{"mcp _meta beyond the cursor stays whole", withMeta, Value{JSON: json.RawMessage(withMeta), IsJSON: true}},
		{"mcp part _meta stays whole", partMeta, Value{JSON: json.RawMessage(partMeta), IsJSON: true}},
		{"mcp protocol _meta does not count", `{"content":[{"type":"text","text":"x","_meta":{"io.modelcontextprotocol/related-task":{}}}],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s"},"nextCursor":"c"}}`,
			Value{Text: "x"}},
		{"mcp _meta of a vendor counts", `{"content":[{"type":"text","text":"x"}],"_meta":{"com.example/trace":"t"}}`,
			Value{JSON: json.RawMessage(`{"content":[{"type":"text","text":"x"}],"_meta":{"com.example/trace":"t"}}`), IsJSON: true}},
		{"mcp empty annotations do not count", `{"content":[{"type":"text","text":"x","annotations":{}}],"_meta":{}}`,
			Value{Text: "x"}},
		{"mcp text part with json", `{"content":[{"type":"text","text":"[{\"id\":1}]"}]}`,
			Value{JSON: json.RawMessage(`[{"id":1}]`), IsJSON: true}},
		{"mcp other parts stay whole", mixed, Value{JSON: json.RawMessage(mixed), IsJSON: true}},
		{"mcp structured wrapper unwrapped", `{"content":[{"type":"text","text":"a\nb"}],"structuredContent":{"content":"a\nb"}}`,
			Value{Text: "a\nb"}},
		{"mcp structured wrapper of json text unwrapped", `{"content":[{"type":"text","text":"[{\"id\":1}]"}],"structuredContent":{"result":[{"id":1}]}}`,
			Value{JSON: json.RawMessage(`[{"id":1}]`), IsJSON: true}},
		{"mcp structured wrapper of a number unwrapped", `{"content":[{"type":"text","text":"42"}],"structuredContent":{"result":42}}`,
			Value{Text: "42"}},
		{"mcp structured wrapper of true unwrapped", `{"content":[{"type":"text","text":"true\n"}],"structuredContent":{"ok":true}}`,
			Value{Text: "true\n"}},
		{"mcp structured number other text wins", `{"content":[{"type":"text","text":"42 apples"}],"structuredContent":{"result":42}}`,
			Value{JSON: json.RawMessage(`{"result":42}`), IsJSON: true}},
		{"mcp structured with two members wins", `{"content":[{"type":"text","text":"x"}],"structuredContent":{"content":"x","n":1}}`,
			Value{JSON: json.RawMessage(`{"content":"x","n":1}`), IsJSON: true}},
		{"mcp structured one member other text wins", `{"content":[{"type":"text","text":"x"}],"structuredContent":{"content":"y"}}`,
			Value{JSON: json.RawMessage(`{"content":"y"}`), IsJSON: true}},
		{"mcp several text parts joined before the json parse", `{"content":[{"type":"text","text":"[{\"id\":1},"},{"type":"text","text":"{\"id\":2}]"}]}`,
			Value{JSON: json.RawMessage(`[{"id":1},` + "\n" + `{"id":2}]`), IsJSON: true}},
		{"mcp _meta never changes the value", `{"content":[{"type":"text","text":"x"}],"_meta":{"nextCursor":"c"}}`,
			Value{Text: "x"}},
		{"mcp isError with an image stays whole", `{"content":[{"type":"image","data":"QUFB","mimeType":"image/png"}],"isError":true}`,
			Value{JSON: json.RawMessage(`{"content":[{"type":"image","data":"QUFB","mimeType":"image/png"}],"isError":true}`), IsJSON: true, IsError: true}},
		{"mcp isError", `{"content":[{"type":"text","text":"boom"}],"isError":true}`,
			Value{Text: "boom", IsError: true}},
		{"mcp empty content", `{"content":[]}`, Value{}},
		{"content not typed is plain object", `{"content":[1,2]}`,
			Value{JSON: json.RawMessage(`{"content":[1,2]}`), IsJSON: true}},
		{"content string is plain object", `{"content":"x"}`,
			Value{JSON: json.RawMessage(`{"content":"x"}`), IsJSON: true}},
	}
	tests = append(tests, []struct {
		name string
		in   string
		want Value
	}{
		{"array", `[{"a":1},{"a":2}]`, Value{JSON: json.RawMessage(`[{"a":1},{"a":2}]`), IsJSON: true}},
		{"broken array stays text", `[1,]`, Value{Text: "[1,]"}},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from := []func(json.RawMessage) Value{FromResult}
			if jsontext.Valid([]byte(tt.in), maxDepth) {
				// The caller's check changes nothing.
				from = append(from, func(r json.RawMessage) Value { return FromCheckedResult(r, nil) })
			}
			for _, f := range from {
				got := f(json.RawMessage(tt.in))
				if got.Text != tt.want.Text || string(got.JSON) != string(tt.want.JSON) ||
					got.IsJSON != tt.want.IsJSON || got.IsError != tt.want.IsError || got.Final || got.parts != tt.want.parts {
					t.Errorf("FromResult(%s)\n got %+v (JSON %s)\nwant %+v (JSON %s)", tt.in, got, got.JSON, tt.want, tt.want.JSON)
				}
			}
		})
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 14540: "14.2 KiB", 3 << 20: "3.0 MiB", 5 << 30: "5.0 GiB"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestParseJSON(t *testing.T) {
	bad := []string{``, `{`, `[1,]`, `{"a"}`, `{"a":1,}`, `01`, `1.`, `-`, `1e`, `tru`, `"a`, `"\x"`, `"\u12"`, "\"\x01\"", `[1 2]`, `{"a":1} x`, `{1:2}`, strings.Repeat("[", maxDepth+2)}
	for _, in := range bad {
		if _, err := parseJSON([]byte(in)); err == nil {
			t.Errorf("parseJSON(%.20q) succeeded, want an error", in)
		}
	}
	n, err := parseJSON([]byte(` {"z": [1.50, -0, 2e-3, true, null, "\u00e9\"x"], "a": {}} `))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(n.Keys, ",") != "z,a" {
		t.Errorf("keys = %v", n.Keys)
	}
	arr := n.Vals[0]
	var got []string
	for _, v := range arr.Vals {
		got = append(got, string(v.Raw))
	}
	if want := `1.50|-0|2e-3|true|null|"\u00e9\"x"`; strings.Join(got, "|") != want {
		t.Errorf("raw tokens = %s, want %s", strings.Join(got, "|"), want)
	}
	if s := arr.Vals[5].Str(); s != `é"x` {
		t.Errorf("str = %q", s)
	}
}

// TestMCPTextView: an MCP result kept whole shows, in the text view, its
// text parts, an embedded text resource's text under its line, a resource
// link's name and description, and one placeholder line (saying how to get
// the bytes) for images, audio and blobs; --output json prints it whole;
// filters see the same text view (PropertyLines); an isError result's error
// text is that view.
func TestMCPTextView(t *testing.T) {
	img := strings.Repeat("QUFB", 4848) // 14544 bytes decoded
	in := `{"content":[{"type":"text","text":"see"},{"type":"image","data":"` + img + `","mimeType":"image/png"},` +
		`{"type":"audio","data":"QUFBQUFB","mimeType":"audio/wav"},` +
		`{"type":"resource","resource":{"uri":"file:///r.txt","mimeType":"text/plain","text":"line one\nline two"}},` +
		`{"type":"resource","resource":{"uri":"file:///b.bin","mimeType":"application/octet-stream","blob":"QUFBQQ=="}},` +
		`{"type":"resource_link","uri":"file:///x.log","name":"x.log","description":"The\nlog"},{"type":"weird"}],` +
		`"structuredContent":{"n":1},"_meta":{"k":"v"}}`
	v := FromResult(json.RawMessage(in))
	var out bytes.Buffer
	if err := Write(&out, nil, v, Options{Width: 80}); err != nil {
		t.Fatal(err)
	}
	want := "see\n[image image/png, 14.2 KiB] (the bytes: --output json)\n[audio audio/wav, 6 B] (the bytes: --output json)\n" +
		"[resource file:///r.txt, text/plain]\nline one\nline two\n" +
		"[resource file:///b.bin, application/octet-stream, 4 B] (the bytes: --output json)\n" +
		"[resource_link file:///x.log x.log — The log]\n[weird]\n"
	if out.String() != want {
		t.Errorf("text view:\n got %q\nwant %q", out.String(), want)
	}
	out.Reset()
	if err := WriteJSON(&out, v); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("--output json is not JSON: %v\n%s", err, out.String())
	}
	parts, _ := back["content"].([]any)
	if len(parts) != 7 || parts[1].(map[string]any)["data"] != img || back["_meta"] == nil || back["structuredContent"] == nil {
		t.Errorf("--output json lost something:\n%.400s", out.String())
	}
	lines, err := PropertyLines(v.JSON, 80)
	if err != nil || strings.Join(lines, "\n")+"\n" != want {
		t.Errorf("PropertyLines (filters) = %q, %v", lines, err)
	}
	ev := FromResult(json.RawMessage(`{"content":[{"type":"text","text":"it broke"},{"type":"image","data":"QUFB","mimeType":"image/png"}],"isError":true}`))
	if got := ErrorText(ev); got != "it broke\n[image image/png, 3 B] (the bytes: --output json)" || !ev.IsError {
		t.Errorf("ErrorText = %q (IsError %v)", got, ev.IsError)
	}
}

// TestContentPartObjectsShowPlaceholders: structured content holding
// objects shaped as content parts (an image with its base64) shows their
// placeholders in the property view and lists, never the base64.
func TestContentPartObjectsShowPlaceholders(t *testing.T) {
	data := strings.Repeat("QUFB", 1000)
	for _, in := range []string{
		`{"content":[{"type":"image","data":"` + data + `","mimeType":"image/png"}]}`,
		`{"file":"a.png","image":{"type":"image","data":"` + data + `","mimeType":"image/png"}}`,
		`[{"type":"image","data":"` + data + `","mimeType":"image/png"},"x"]`,
		`{"type":"resource","resource":{"uri":"file:///a","blob":"` + data + `"}}`,
		// Arrays of objects: a table of parts is the parts' lines, a part in
		// a cell of another table its placeholder.
		`[{"type":"text","text":"see"},{"type":"image","data":"` + data + `","mimeType":"image/png"}]`,
		`[{"name":"a.png","thumb":{"type":"image","data":"` + data + `","mimeType":"image/png"}}]`,
	} {
		var out bytes.Buffer
		if err := Write(&out, nil, Value{JSON: json.RawMessage(in), IsJSON: true}, Options{Width: 80}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "QUFB") || !strings.Contains(out.String(), "2.9 KiB] (the bytes: --output json)") {
			t.Errorf("%.60s…: text view\n%s", in, out.String())
		}
	}
}

func TestIsEmpty(t *testing.T) {
	for in, want := range map[string]bool{`[]`: true, ` [ ] `: true, `{}`: true, "{\n}": true, `[1]`: false, `{"a":1}`: false, `0`: false, `""`: false, `null`: false} {
		if got := IsEmpty(Value{JSON: []byte(in), IsJSON: true}); got != want {
			t.Errorf("IsEmpty(%s) = %v", in, got)
		}
	}
	if !IsEmpty(Value{}) || IsEmpty(Value{Text: " "}) {
		t.Error("IsEmpty of text")
	}
}

func TestWriteGroup(t *testing.T) {
	var b strings.Builder
	g := IndexGroup{Name: "datadog", Rows: []IndexRow{{"datadog_list_monitors", "List monitors"}, {"datadog_get_monitor", "Get monitor"}}}
	if err := WriteGroup(&b, g, Options{Width: 80}); err != nil {
		t.Fatal(err)
	}
	want := "DATADOG\n    datadog_get_monitor      Get monitor\n    datadog_list_monitors    List monitors\n\n" + indexFooter + "\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

package render

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFromResult(t *testing.T) {
	img := strings.Repeat("QUFB", 4848) // 14544 bytes decoded
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
		{"mcp text parts joined", `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`,
			Value{Text: "a\nb"}},
		{"mcp text part with json", `{"content":[{"type":"text","text":"[{\"id\":1}]"}]}`,
			Value{JSON: json.RawMessage(`[{"id":1}]`), IsJSON: true}},
		{"mcp other parts", `{"content":[{"type":"text","text":"see"},{"type":"image","data":"` + img + `","mimeType":"image/png"},{"type":"resource_link","uri":"file:///x.log","name":"x"},{"type":"audio","mimeType":"audio/wav"},{"type":"resource","resource":{"uri":"file:///r.txt","mimeType":"text/plain","text":"abc"}},{"type":"weird"}]}`,
			Value{Text: "see\n[image image/png, 14.2 KiB]\n[resource_link file:///x.log]\n[audio audio/wav]\n[resource file:///r.txt, text/plain, 3 B]\n[weird]"}},
		{"mcp isError", `{"content":[{"type":"text","text":"boom"}],"isError":true}`,
			Value{Text: "boom", IsError: true}},
		{"mcp empty content", `{"content":[]}`, Value{}},
		{"content not typed is plain object", `{"content":[1,2]}`,
			Value{JSON: json.RawMessage(`{"content":[1,2]}`), IsJSON: true}},
		{"content string is plain object", `{"content":"x"}`,
			Value{JSON: json.RawMessage(`{"content":"x"}`), IsJSON: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FromResult(json.RawMessage(tt.in))
			if got.Text != tt.want.Text || string(got.JSON) != string(tt.want.JSON) ||
				got.IsJSON != tt.want.IsJSON || got.IsError != tt.want.IsError || got.Final {
				t.Errorf("FromResult(%s)\n got %+v (JSON %s)\nwant %+v (JSON %s)", tt.in, got, got.JSON, tt.want, tt.want.JSON)
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

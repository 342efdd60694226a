package generated

import (
	"strings"
	"testing"
)

// TestUnionKeepsSchemaType: a union flag keeps a value parsed as JSON only
// when its type is one the schema allows; otherwise the text goes as a
// string when a string is allowed, else it is a bad value (the union rows
// of docs/mapping.md#values).
func TestUnionKeepsSchemaType(t *testing.T) {
	schema := `{"properties":{
		"content":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}]},
		"typed":{"type":["string","object"]},
		"shape":{"anyOf":[{"type":"object"},{"type":"array"}]},
		"num":{"anyOf":[{"type":"integer"},{"type":"object"}]},
		"any":{"anyOf":[{},{"type":"object"}]},
		"rows":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}}
	}}`
	c := mustBuild(t, schema, BuildOptions{})
	for _, tt := range []struct {
		args []string
		want string // the input JSON, or "error: …" (a substring)
	}{
		{[]string{"--content", "42"}, `{"content":"42"}`},
		{[]string{"--content", "true"}, `{"content":"true"}`},
		{[]string{"--content", "null"}, `{"content":"null"}`},
		{[]string{"--content", `{"a":1}`}, `{"content":"{\"a\":1}"}`},
		{[]string{"--content", `["a","b"]`}, `{"content":["a","b"]}`},
		{[]string{"--content", `"quoted"`}, `{"content":"quoted"}`},
		{[]string{"--content", "plain text"}, `{"content":"plain text"}`},
		{[]string{"--typed", "42"}, `{"typed":"42"}`},
		{[]string{"--typed", `{"a":1}`}, `{"typed":{"a":1}}`},
		{[]string{"--shape", "[1]"}, `{"shape":[1]}`},
		{[]string{"--shape", "7"}, "error: invalid value \"7\" for --shape: expected JSON (an object or an array)"},
		{[]string{"--num", "7"}, `{"num":7}`},
		{[]string{"--num", "7.5"}, "error: invalid value \"7.5\" for --num"},
		{[]string{"--any", "7"}, `{"any":7}`},
		{[]string{"--rows", `{"a":"x"}`}, `{"rows":[{"a":"x"}]}`},
		{[]string{"--rows", `[1]`}, "error: invalid value \"[1]\" for --rows: expected JSON (an object)"},
	} {
		p, err := c.Parse(tt.args)
		got := ""
		if err != nil {
			got = "error: " + err.Error()
		} else {
			got = string(p.JSON())
		}
		if strings.HasPrefix(tt.want, "error: ") && strings.HasPrefix(got, tt.want) || got == tt.want {
			continue
		}
		t.Errorf("%q: got %s, want %s", tt.args, got, tt.want)
	}
}

// TestJSONUnionNull: in a JSON-valued union that takes null (a settings
// server's anyOf of string, number, boolean, array of strings and null),
// the text null sends JSON null, a quoted "null" the string, and an array
// branch's items are checked: an array of the wrong items is a usage error
// naming the item, not a string.
func TestJSONUnionNull(t *testing.T) {
	schema := `{"type":"object","properties":{"key":{"type":"string"},
		"value":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"array","items":{"type":"string"}},{"type":"null"}]},
		"filter":{"type":["object","null"]},
		"rows":{"anyOf":[{"type":"array","items":{"type":"integer"}},{"type":"object"}]}},"required":["key"]}`
	c := mustBuild(t, schema, BuildOptions{})
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--value", "null"}, `{"value":null}`},
		{[]string{"--value", `"null"`}, `{"value":"null"}`},
		{[]string{"--value", "1.5"}, `{"value":1.5}`},
		{[]string{"--value", "false"}, `{"value":false}`},
		{[]string{"--value", "plain"}, `{"value":"plain"}`},
		{[]string{"--value", `["a","b"]`}, `{"value":["a","b"]}`},
		{[]string{"--value", `["a",1]`}, `error: invalid value "[\"a\",1]" for --value: [1] is 1, expected a string`},
		{[]string{"--filter", "null"}, `{"filter":null}`},
		{[]string{"--filter", `{"a":1}`}, `{"filter":{"a":1}}`},
		{[]string{"--filter", "7"}, `error: invalid value "7" for --filter: expected a JSON object or null`},
		{[]string{"--rows", `[1,"x"]`}, `error: invalid value "[1,\"x\"]" for --rows: [1] is "x", expected an integer`},
		{[]string{"--rows", "null"}, `error: invalid value "null" for --rows: expected JSON (an array or an object)`},
	} {
		p, err := c.Parse(tt.args)
		got := ""
		if err != nil {
			got = "error: " + err.Error()
		} else {
			got = string(p.JSON())
		}
		if got != tt.want {
			t.Errorf("%q: got %s, want %s", tt.args, got, tt.want)
		}
	}
	if f := c.Lookup("--value"); f.Shape != "string | number | boolean | [string] | null" {
		t.Errorf("--value's shape %q", f.Shape)
	}
	// Argv writes the string "null" quoted, JSON null bare.
	for in, want := range map[string]string{`{"key":"k","value":"null"}`: `--key=k --value="null"`, `{"key":"k","value":null}`: `--key=k --value=null`} {
		words, whole, err := c.Argv([]byte(in))
		if got := strings.Join(words, " "); err != nil || whole || got != want {
			t.Errorf("Argv(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
}

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

package mcpconn

import (
	"encoding/json"
	"testing"
)

// FuzzObjectTyped: any object schema comes out as valid JSON whose "type" is
// "object", its other members untouched.
func FuzzObjectTyped(f *testing.F) {
	for _, s := range []string{`{}`, `{"type":"string"}`, `{"properties":{"a":{}},"type":["object","null"]}`, `{"type":"object","type":"x"}`, `[]`, `1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		if !json.Valid([]byte(schema)) {
			return
		}
		out, err := objectTyped([]byte(schema))
		if err != nil {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("objectTyped(%s) = %s: %v", schema, out, err)
		}
		if m["type"] != "object" {
			t.Fatalf("objectTyped(%s) = %s: type %v", schema, out, m["type"])
		}
	})
}

// FuzzUnescapeHTML: the JSON value never changes.
func FuzzUnescapeHTML(f *testing.F) {
	for _, s := range []string{`"\u003c\u0026\u003e"`, `"\\u003c"`, `{"\u2028":"\u00e9"}`, `[1.50,"\\\u003e"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		out := unescapeHTML([]byte(s))
		if !json.Valid(out) || !sameJSON(t, []byte(s), out) {
			t.Fatalf("unescapeHTML(%s) = %s changes the value", s, out)
		}
	})
}

// FuzzParseMCPFlag: no panic; an accepted flag has a name and a command.
func FuzzParseMCPFlag(f *testing.F) {
	for _, s := range []string{"fs=npx -y x /tmp", `a=b "c d" 'e'`, "=", "a=|", "a=`x`", `a=\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, flag string) {
		spec, err := parseMCPFlag(flag)
		if err == nil && (spec.name == "" || len(spec.argv) == 0 || spec.argv[0] == "") {
			t.Fatalf("parseMCPFlag(%q) = %+v", flag, spec)
		}
	})
}

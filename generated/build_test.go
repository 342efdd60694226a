package generated

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// shape summarizes a command as one line per flag:
// "name type placeholder [rep] [req] [ren] path".
func shape(c *Command) string {
	var lines []string
	if c.NoInput {
		lines = append(lines, "noinput")
	}
	if c.FreeForm {
		lines = append(lines, "freeform")
	}
	for _, f := range c.Flags {
		s := fmt.Sprintf("%s %s", f.Name, f.Type)
		if f.Placeholder != "" {
			s += " " + f.Placeholder
		}
		if f.Repeatable {
			s += " rep"
		}
		if f.Required {
			s += " req"
		}
		if f.Renamed {
			s += " ren"
		}
		s += " " + f.Property()
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n")
}

func mustBuild(t testing.TB, schema string, opts BuildOptions) *Command {
	t.Helper()
	c, err := Build(json.RawMessage(schema), opts)
	if err != nil {
		t.Fatalf("Build(%s): %v", schema, err)
	}
	return c
}

// shapeTests map synthetic schemas to their command shapes; they also
// seed FuzzMapping.
var shapeTests = []struct {
	name, schema string
	opts         BuildOptions
	want         string
}{
	{"empty object", `{}`, BuildOptions{}, "noinput"},
	{"true", `true`, BuildOptions{}, "noinput"},
	{"no properties", `{"type":"object"}`, BuildOptions{}, "noinput"},
	{"empty properties", `{"type":"object","properties":{}}`, BuildOptions{}, "noinput"},
	{"free-form map", `{"type":"object","additionalProperties":{"type":"string"}}`, BuildOptions{}, "noinput\nfreeform"},
	{"additionalProperties true", `{"type":"object","additionalProperties":true}`, BuildOptions{}, "noinput\nfreeform"},
	{"additionalProperties false", `{"type":"object","additionalProperties":false}`, BuildOptions{}, "noinput"},
	{"document order", `{"properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"},"mid":{"type":"number"}}}`, BuildOptions{},
		"--zeta string <string> zeta\n--alpha integer <integer> alpha\n--mid number <number> mid"},
	{"scalars", `{"type":"object","properties":{"s":{"type":"string"},"b":{"type":"boolean"},"n":{"type":"number"},"i":{"type":"integer"}},"required":["s","b"]}`, BuildOptions{},
		"--s string <string> req s\n--b boolean req b\n--n number <number> n\n--i integer <integer> i"},
	{"nested flatten", `{"properties":{"telemetry":{"type":"object","properties":{"context":{"type":"string"},"level":{"type":"integer"}},"required":["context"]}},"required":["telemetry"]}`, BuildOptions{},
		"--telemetry-context string <string> req telemetry.context\n--telemetry-level integer <integer> telemetry.level"},
	{"required needs all ancestors", `{"properties":{"a":{"type":"object","properties":{"b":{"type":"string"}},"required":["b"]}}}`, BuildOptions{},
		"--a-b string <string> a.b"},
	{"deep nesting", `{"properties":{"a":{"properties":{"b":{"properties":{"c":{"properties":{"d":{"type":"string"}},"required":["d"]}},"required":["c"]}},"required":["b"]}},"required":["a"]}`, BuildOptions{},
		"--a-b-c-d string <string> req a.b.c.d"},
	{"required default stays required", `{"properties":{"n":{"type":"integer","default":5}},"required":["n"]}`, BuildOptions{},
		"--n integer <integer> req n"},
	{"enum", `{"properties":{"sort":{"type":"string","enum":["title","-title"]},"lvl":{"enum":[1,2,3]}}}`, BuildOptions{},
		"--sort enum <title|-title> sort\n--lvl enum <1|2|3> lvl"},
	{"const", `{"properties":{"k":{"const":"latest"}}}`, BuildOptions{}, "--k enum <latest> k"},
	{"nullable enum drops null", `{"properties":{"k":{"type":["string","null"],"enum":["a",null]}}}`, BuildOptions{}, "--k enum <a> k"},
	{"arrays of scalars", `{"properties":{"tags":{"type":"array","items":{"type":"string"}},"ids":{"type":"array","items":{"type":"integer"}},"flags":{"type":"array","items":{"type":"boolean"}},"st":{"type":"array","items":{"enum":["x","y"]}}}}`, BuildOptions{},
		"--tags string <string> rep tags\n--ids integer <integer> rep ids\n--flags boolean <true|false> rep flags\n--st enum <x|y> rep st"},
	{"arrays of structures", `{"properties":{"objs":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}},"nested":{"type":"array","items":{"type":"array"}},"any":{"type":"array"},"mixed":{"type":"array","items":{"oneOf":[{"type":"string"},{"type":"object"}]}}}}`, BuildOptions{},
		"--objs json <json> rep objs\n--nested json <json> rep nested\n--any json <json> rep any\n--mixed json <json> rep mixed"},
	{"tuples", `{"properties":{"t":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]},"u":{"type":"array","items":[{"type":"number"}]}}}`, BuildOptions{},
		"--t json <json> rep t\n--u json <json> rep u"},
	{"maps", `{"properties":{"labels":{"type":"object","additionalProperties":{"type":"string"}},"free":{"type":"object"},"pn":{"propertyNames":{"type":"string"}}}}`, BuildOptions{},
		"--labels json <json> labels\n--free json <json> free\n--pn json <json> pn"},
	{"nullable", `{"properties":{"a":{"type":["string","null"]},"b":{"anyOf":[{"type":"integer"},{"type":"null"}]},"c":{"oneOf":[{"type":"null"},{"type":"boolean"}]},"d":{"type":["object","null"],"properties":{"x":{"type":"string"}}},"e":{"anyOf":[{"type":"object","properties":{"y":{"type":"number"}}},{"type":"null"}]}}}`, BuildOptions{},
		"--a string <string> a\n--b integer <integer> b\n--c boolean c\n--d-x string <string> d.x\n--e-y number <number> e.y"},
	{"scalar unions", `{"properties":{"a":{"type":["boolean","string"]},"b":{"oneOf":[{"type":"integer"},{"type":"string"}]},"c":{"anyOf":[{"const":"latest"},{"type":"string","pattern":"^x$"}]},"d":{"type":["integer","number","null"]}}}`, BuildOptions{},
		"--a union <boolean|string> a\n--b union <integer|string> b\n--c union <latest|string> c\n--d union <integer|number|null> d"},
	{"unions with structures", `{"properties":{"a":{"anyOf":[{"type":"object"},{"type":"string"}]},"b":{"type":["array","integer"]},"c":{},"d":true,"e":{"type":"null"}}}`, BuildOptions{},
		"--a json <json> a\n--b json <json> b\n--c json <json> c\n--d json <json> d\n--e json <json> e"},
	{"ref defs", `{"$defs":{"Name":{"type":"string","description":"a name"}},"properties":{"n":{"$ref":"#/$defs/Name"}}}`, BuildOptions{},
		"--n string <string> n"},
	{"ref definitions and properties", `{"definitions":{"P":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"]}},"properties":{"p":{"$ref":"#/definitions/P"},"q":{"$ref":"#/properties/p"}},"required":["p","q"]}`, BuildOptions{},
		"--p-x integer <integer> req p.x\n--q-x integer <integer> req q.x"},
	{"ref pointer escapes", `{"$defs":{"a/b":{"type":"integer"},"c~d":{"type":"boolean"}},"properties":{"x":{"$ref":"#/$defs/a~1b"},"y":{"$ref":"#/$defs/c~0d"}}}`, BuildOptions{},
		"--x integer <integer> x\n--y boolean y"},
	{"unresolvable ref", `{"properties":{"x":{"$ref":"#/$defs/nope"},"y":{"$ref":"http://example.com/s.json"}}}`, BuildOptions{},
		"--x json <json> x\n--y json <json> y"},
	{"recursive ref", `{"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},"child":{"$ref":"#/$defs/Node"}}}},"properties":{"root":{"$ref":"#/$defs/Node"}}}`, BuildOptions{},
		"--root-name string <string> root.name\n--root-child json <json> root.child"},
	{"ref to root", `{"type":"object","properties":{"name":{"type":"string"},"parent":{"$ref":"#"}}}`, BuildOptions{},
		"--name string <string> name\n--parent json <json> parent"},
	{"ref loop", `{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}},"properties":{"x":{"$ref":"#/$defs/A"}}}`, BuildOptions{},
		"--x json <json> x"},
	{"allOf merge in order", `{"allOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"integer"}}}],"properties":{"c":{"type":"boolean"}}}`, BuildOptions{},
		"--a string <string> req a\n--b integer <integer> b\n--c boolean c"},
	{"allOf same property merged", `{"allOf":[{"properties":{"o":{"properties":{"x":{"type":"string"}}}}},{"properties":{"o":{"properties":{"y":{"type":"string"}}}}}]}`, BuildOptions{},
		"--o-x string <string> o.x\n--o-y string <string> o.y"},
	{"allOf leaf keywords", `{"properties":{"a":{"allOf":[{"$ref":"#/$defs/T"}],"description":"d"}},"$defs":{"T":{"type":"integer"}}}`, BuildOptions{},
		"--a integer <integer> a"},
	{"collision with earlier leaf", `{"properties":{"dry_run":{"type":"boolean"},"dryRun":{"type":"boolean"},"dry-run":{"type":"string"}}}`, BuildOptions{},
		"--dry-run boolean dry_run\n--dry-run-2 boolean ren dryRun\n--dry-run-3 string <string> ren dry-run"},
	{"collision with reserved", `{"properties":{"output":{"type":"string"},"target":{"type":"string"},"help":{"type":"boolean"},"session":{"type":"string"},"team":{"type":"string"},"bearer_token":{"type":"string"},"continuationToken":{"type":"string"},"yes":{"type":"boolean"}}}`, BuildOptions{},
		"--output-2 string <string> ren output\n--target-2 string <string> ren target\n--help-2 boolean ren help\n--session-2 string <string> ren session\n--team-2 string <string> ren team\n--bearer-token-2 string <string> ren bearer_token\n--continuation-token-2 string <string> ren continuationToken\n--yes-2 boolean ren yes"},
	{"suffix skips taken", `{"properties":{"output_2":{"type":"string"},"output":{"type":"string"}}}`, BuildOptions{},
		"--output-2 string <string> output_2\n--output-3 string <string> ren output"},
	{"literal flags", `{"properties":{"-i":{"type":"boolean"},"-A":{"type":"integer"},"--context":{"type":"integer"},"-h":{"type":"boolean"},"h":{"type":"string"},"--output":{"type":"string"},"-Bad":{"type":"string"}}}`, BuildOptions{},
		"-i boolean -i\n-A integer <integer> -A\n--context integer <integer> --context\n--h boolean ren -h\n--h-2 string <string> ren h\n--output-2 string <string> ren --output\n--bad string <string> -Bad"},
	{"nested names kebab each part", `{"properties":{"HTTPServer":{"properties":{"maxConns":{"type":"integer"}}},"-x":{"properties":{"y":{"type":"string"}}}}}`, BuildOptions{},
		"--http-server-max-conns integer <integer> HTTPServer.maxConns\n--x-y string <string> -x.y"},
	{"omit and rename", `{"properties":{"path":{"type":"string"},"ignore":{"type":"array","items":{"type":"string"}},"cfg":{"properties":{"a":{"type":"string"}}}},"required":["path"]}`,
		BuildOptions{Omit: []string{"path"}, Rename: map[string]string{"ignore": "--ignore-globs", "cfg": "config"}},
		"--ignore-globs string <string> rep ignore\n--config-a string <string> cfg.a"},
	{"top-level union of objects", `{"oneOf":[{"properties":{"id":{"type":"integer"}},"required":["id"]},{"properties":{"name":{"type":"string"}},"required":["name"]}]}`, BuildOptions{},
		"--id integer <integer> id\n--name string <string> name"},
	{"object and string union is json", `{"properties":{"o":{"type":["object","string"],"properties":{"a":{"type":"string"}}}}}`, BuildOptions{},
		"--o json <json> o"},
	{"empty nested properties is a map", `{"properties":{"o":{"type":"object","properties":{}}}}`, BuildOptions{},
		"--o json <json> o"},
	{"empty property name", `{"properties":{"":{"type":"string"},"$":{"type":"string"}}}`, BuildOptions{},
		"--arg string <string> \n--arg-2 string <string> ren $"},
}

func TestBuildShapes(t *testing.T) {
	for _, tt := range shapeTests {
		t.Run(tt.name, func(t *testing.T) {
			got := shape(mustBuild(t, tt.schema, tt.opts))
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestBuildHelpFields(t *testing.T) {
	c := mustBuild(t, `{"properties":{"url":{"type":"string","format":"uri","description":"URL to check.","pattern":"^https://","maxLength":200},
		"limit":{"type":"integer","default":10,"minimum":1,"exclusiveMaximum":101},
		"region":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null,"title":"Region"},
		"sort":{"$ref":"#/$defs/Sort","description":"local wins"}},
		"$defs":{"Sort":{"type":"string","enum":["asc","desc"],"description":"from def","default":"asc"}}}`, BuildOptions{})
	type help struct {
		desc, format, def, enum, constraints string
	}
	got := map[string]help{}
	for _, f := range c.Flags {
		var cs []string
		for _, k := range f.Constraints {
			cs = append(cs, k.Keyword+"="+string(k.Value))
		}
		var es []string
		for _, e := range f.Enum {
			es = append(es, string(e))
		}
		got[f.Name] = help{f.Description, f.Format, string(f.Default), strings.Join(es, ","), strings.Join(cs, ",")}
	}
	want := map[string]help{
		"--url":    {"URL to check.", "uri", "", "", `pattern="^https://",maxLength=200`},
		"--limit":  {"", "", "10", "", "minimum=1,exclusiveMaximum=101"},
		"--region": {"Region", "", "", "", ""},
		"--sort":   {"local wins", "", `"asc"`, `"asc","desc"`, ""},
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: got %+v, want %+v", name, got[name], w)
		}
	}
}

func TestBuildProperties(t *testing.T) {
	c := mustBuild(t, `{"properties":{"b":{"type":"string"},"a":{"properties":{"x":{"type":"string"}}},"p":{"type":"string"}}}`, BuildOptions{Omit: []string{"p"}})
	if got := strings.Join(c.Properties, ","); got != "b,a,p" {
		t.Errorf("Properties = %s", got)
	}
	if f := c.Lookup("--a-x"); f == nil || f.Property() != "a.x" {
		t.Errorf("Lookup(--a-x) = %v", f)
	}
	if c.Lookup("--p") != nil || c.Lookup("--nope") != nil {
		t.Error("Lookup found a flag that does not exist")
	}
	if f := c.LookupPath([]string{"a", "x"}); f == nil || f.Name != "--a-x" {
		t.Errorf("LookupPath(a.x) = %v", f)
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct{ schema, want string }{
		{``, "invalid input schema: unexpected end of JSON"},
		{`{"properties":`, "invalid input schema: unexpected end of JSON"},
		{`{"a":1} x`, "invalid input schema: unexpected data after the JSON value at offset 8"},
		{`{"a":}`, "invalid input schema: invalid character '}' looking for beginning of value at offset 5"},
		{`{"a" 1}`, "invalid input schema: invalid character '1' after object key at offset 5"},
		{`[1 2]`, "invalid input schema: invalid character '2' after array element at offset 3"},
		{`{"a":1 "b":2}`, "invalid input schema: invalid character '\"' after object key:value pair at offset 7"},
		{`{1:2}`, "invalid input schema: invalid character '1' looking for beginning of object key string at offset 1"},
		{`"\x"`, "invalid input schema: invalid character 'x' in string escape code at offset 2"},
		{`"\u12g4"`, "invalid input schema: invalid character 'g' in \\u hexadecimal character escape at offset 5"},
		{"\"a\nb\"", "invalid input schema: invalid character '\\n' in string literal at offset 2"},
		{`-`, "invalid input schema: invalid character '-' in number at offset 0"},
		{`01`, "invalid input schema: unexpected data after the JSON value at offset 1"},
		{`tru`, "invalid input schema: invalid character 't' looking for beginning of value at offset 0"},
		{strings.Repeat("[", 600) + strings.Repeat("]", 600), "invalid input schema: JSON nested more than 512 levels"},
	}
	for _, tt := range tests {
		_, err := Build(json.RawMessage(tt.schema), BuildOptions{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("Build(%.20q) error = %v, want %s", tt.schema, err, tt.want)
			continue
		}
		if se, ok := err.(*SchemaError); !ok || se.ExitCode() != 5 {
			t.Errorf("Build(%.20q) error is %T, want *SchemaError with exit 5", tt.schema, err)
		}
	}
}

func TestBuildExponentialRefsBounded(t *testing.T) {
	// Each definition uses the next twice: 2^40 leaves if expanded naively.
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	for i := 0; i < 40; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"D%d":{"properties":{"l":{"$ref":"#/$defs/D%d"},"r":{"$ref":"#/$defs/D%d"}}}`, i, i+1, i+1)
	}
	b.WriteString(`,"D40":{"type":"string"}},"properties":{"x":{"$ref":"#/$defs/D0"}}}`)
	_, err := Build(json.RawMessage(b.String()), BuildOptions{})
	if err == nil || err.Error() != "invalid input schema: schema too large to map (more than 50000 expanded nodes)" {
		t.Fatalf("error = %v", err)
	}
}

// SeedSchemas are the synthetic schemas of the table tests, for the fuzz
// and round-trip tests of package generated_test.
func SeedSchemas() []string {
	out := []string{parseSchema}
	for _, tt := range shapeTests {
		out = append(out, tt.schema)
	}
	return out
}

func TestBuildManyProperties(t *testing.T) {
	// Merging stays linear: 8000 properties, all required, in two allOf
	// branches and in a top-level union (the walk budget is 50000 nodes).
	var props, req []string
	for i := 0; i < 8000; i++ {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
		req = append(req, fmt.Sprintf(`"p%d"`, i))
	}
	obj := `{"properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(req, ",") + `]}`
	for _, schema := range []string{
		`{"allOf":[` + obj + `,` + obj + `]}`,
		`{"anyOf":[` + obj + `,` + obj + `]}`,
	} {
		c, err := Build(json.RawMessage(schema), BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Flags) != 8000 || c.Flags[7999].Name != "--p7999" {
			t.Fatalf("got %d flags", len(c.Flags))
		}
	}
}

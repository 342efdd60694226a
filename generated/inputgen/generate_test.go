package inputgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agsh-dev/agsh/internal/testcorpus"
	"github.com/agsh-dev/agsh/internal/testtier"
)

func inputSchema(t *testing.T, file string) json.RawMessage {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var def struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &def); err != nil {
		t.Fatal(err)
	}
	return def.InputSchema
}

// compile compiles a schema as 2020-12, else as draft 7 (tuples written
// as "items": […]).
func compile(t *testing.T, schema json.RawMessage) *jsonschema.Schema {
	var first error
	for _, d := range []*jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft7} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(d)
		c.AssertFormat()
		if err := c.AddResource("mem://schema.json", doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile("mem://schema.json")
		if err == nil {
			return s
		}
		if first == nil {
			first = err
		}
	}
	t.Fatal(first)
	return nil
}

// checkDomain asserts no empty arrays anywhere. (A null is in the domain
// only where a union of scalars takes null; validation against the schema
// catches any other.)
func checkDomain(t *testing.T, where string, v any) {
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			t.Fatalf("%s: empty array", where)
		}
		for _, e := range x {
			checkDomain(t, where, e)
		}
	case map[string]any:
		for k, e := range x {
			checkDomain(t, where+"."+k, e)
		}
	}
}

// hasNull reports a null anywhere in v.
func hasNull(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case []any:
		for _, e := range x {
			if hasNull(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if hasNull(e) {
				return true
			}
		}
	}
	return false
}

func TestGenerateValidAgainstCorpusBig(t *testing.T) {
	testtier.Big(t)
	testcorpus.Each(t, testGenerateValidAgainstCorpus)
}

func testGenerateValidAgainstCorpus(t *testing.T, set testcorpus.Set) {
	var big, decimal, null bool
	for i, f := range testcorpus.Files(t, set.Dir) {
		schema := inputSchema(t, f)
		s := compile(t, schema)
		for j := 0; j < 20; j++ {
			in, err := Generate(schema, rand.New(rand.NewPCG(uint64(i), uint64(j))))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			checkDomain(t, f, in)
			// Validate what the wire carries: the input as JSON.
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(compact(in)))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(inst); err != nil {
				t.Fatalf("%s: generated %s is not valid: %v", f, compact(in), err)
			}
			text := string(compact(in))
			big = big || strings.Contains(text, "9007199254740993") || strings.Contains(text, "9223372036854775807")
			decimal = decimal || strings.Contains(text, "2.50") || strings.Contains(text, "1.5e3")
			null = null || hasNull(in)
		}
	}
	if !big || !decimal {
		t.Errorf("no integer above 2^53 (%v) or no decimal (%v) was generated", big, decimal)
	}
	if set.Name == "testdata" && !null {
		t.Error("no null was generated for a union of scalars that takes null")
	}
}

func TestGenerateSynthetic(t *testing.T) {
	tests := []struct{ name, schema string }{
		{"recursive", `{"$defs":{"N":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/N"}}},"required":["v"]}},"properties":{"root":{"$ref":"#/$defs/N"}},"required":["root"]}`},
		{"ref to root", `{"type":"object","properties":{"name":{"type":"string"},"parent":{"$ref":"#"}},"required":["name"]}`},
		{"unions", `{"properties":{"a":{"type":["integer","string"]},"b":{"anyOf":[{"const":"latest"},{"type":"string"}]},"c":{"oneOf":[{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]},{"type":"array","items":{"type":"boolean"}}]}},"required":["a","b","c"]}`},
		{"tuple", `{"properties":{"t":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer","minimum":3,"maximum":3}]}},"required":["t"]}`},
		{"bounds", `{"properties":{"i":{"type":"integer","exclusiveMinimum":10,"maximum":11},"n":{"type":"number","minimum":0.5,"maximum":0.5},"s":{"type":"string","minLength":70}},"required":["i","n","s"]}`},
		{"allOf", `{"allOf":[{"properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"enum":[1,"x"]}},"required":["b"]}]}`},
		{"map", `{"properties":{"m":{"type":"object","additionalProperties":{"type":"integer"}},"f":{"type":"object","additionalProperties":false}},"required":["m","f"]}`},
	}
	for _, tt := range tests {
		s := compile(t, json.RawMessage(tt.schema))
		for j := 0; j < 50; j++ {
			in, err := Generate(json.RawMessage(tt.schema), rand.New(rand.NewPCG(7, uint64(j))))
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			checkDomain(t, tt.name, in)
			inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(compact(in)))
			if err := s.Validate(inst); err != nil {
				t.Fatalf("%s: generated %s is not valid: %v", tt.name, compact(in), err)
			}
		}
	}
}

func TestGenerateNoValue(t *testing.T) {
	for _, schema := range []string{
		`{"properties":{"n":{"type":"null"}},"required":["n"]}`,
		`{"properties":{"e":{"enum":[null]}},"required":["e"]}`,
		`{"properties":{"i":{"type":"integer","minimum":5,"maximum":4}},"required":["i"]}`,
		`{"$defs":{"L":{"type":"object","properties":{"next":{"$ref":"#/$defs/L"}},"required":["next"]}},"properties":{"l":{"$ref":"#/$defs/L"}},"required":["l"]}`,
	} {
		_, err := Generate(json.RawMessage(schema), rand.New(rand.NewPCG(1, 2)))
		if !errors.Is(err, ErrNoValue) {
			t.Errorf("Generate(%s) error = %v, want ErrNoValue", schema, err)
		}
	}
	if _, err := Generate(json.RawMessage(`{`), rand.New(rand.NewPCG(1, 2))); err == nil || errors.Is(err, ErrNoValue) {
		t.Errorf("Generate of bad JSON: %v", err)
	}
}

func TestGenerateDeterministic(t *testing.T) {
	schema := json.RawMessage(`{"properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"object","properties":{"d":{"type":"number"},"e":{"type":"boolean"}}}}}`)
	for j := uint64(0); j < 20; j++ {
		a, _ := Generate(schema, rand.New(rand.NewPCG(3, j)))
		b, _ := Generate(schema, rand.New(rand.NewPCG(3, j)))
		if string(compact(a)) != string(compact(b)) {
			t.Fatalf("seed %d: %s != %s", j, compact(a), compact(b))
		}
		if len(a) == 0 {
			t.Fatalf("seed %d: empty top-level object", j)
		}
		if c, ok := a["c"].(map[string]any); ok && len(c) == 0 {
			t.Fatalf("seed %d: empty object at a flattened position", j)
		}
	}
}

package generated

import "testing"

// TestFlagShape: a JSON-valued flag knows the shape one occurrence takes
// (a repeatable one: its element's), from the schema, depth-limited; a
// free-form one says what it takes (a map its values' shape, {} any JSON).
func TestFlagShape(t *testing.T) {
	c := mustBuild(t, `{"type":"object","properties":{
		"entities":{"type":"array","items":{"type":"object","required":["name","entityType","observations"],"properties":{"name":{"type":"string"},"entityType":{"type":"string"},"observations":{"type":"array","items":{"type":"string"}}}}},
		"filter":{"type":"object","additionalProperties":true},
		"env":{"type":"object","additionalProperties":{"type":["string","number"]}},
		"labels":{"type":"object","patternProperties":{"^[a-z]+$":{"type":"string"}}},
		"any":{},
		"opt":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"integer"}}]},
		"deep":{"type":"object","required":["a"],"properties":{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"object","properties":{"d":{"type":"string"}}}}}}}},"additionalProperties":false},
		"node":{"$ref":"#/$defs/node"},
		"plain":{"type":"string"},
		"headers":{"type":"array","items":{"type":"array","items":[{"type":"string"},{"type":"string"}]}}
	},"$defs":{"node":{"type":"object","properties":{"kind":{"enum":["leaf","branch"]},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`, BuildOptions{})
	for name, want := range map[string]string{
		"--entities":      "{name: string, entityType: string, observations: [string]}",
		"--filter":        "any JSON object",
		"--any":           "any JSON",
		"--env":           "{string: string|number}",
		"--labels":        "{string: string}",
		"--opt":           "string | [integer]",
		"--plain":         "",
		"--headers":       "[string, string]",
		"--node-children": "{kind?: leaf|branch, children?: [any]}",
	} {
		f := c.Lookup(name)
		if f == nil {
			t.Fatalf("no flag %s: %v", name, c.FlagNames())
		}
		if f.Shape != want {
			t.Errorf("%s: shape %q, want %q", name, f.Shape, want)
		}
	}
	for _, f := range c.Flags {
		t.Logf("%s %s: %s", f.Name, f.Placeholder, f.Shape)
	}
}

// TestLongEnumPlaceholder: a long enum is printed once: its placeholder is
// its type and the values stay in Enum (help's "One of: …").
func TestLongEnumPlaceholder(t *testing.T) {
	c := mustBuild(t, `{"properties":{
		"size":{"enum":["small","medium","large","huge"]},
		"region":{"enum":["us-east-1","us-east-2","us-west-1","us-west-2","eu-west-1","eu-central-1"]},
		"code":{"enum":[100,200,300,400,500,600,700,800,900,1000,1100,1200]}
	}}`, BuildOptions{})
	for name, want := range map[string]string{"--size": "<small|medium|large|huge>", "--region": "<string>", "--code": "<integer>"} {
		f := c.Lookup(name)
		if f.Placeholder != want || len(f.Enum) < 4 {
			t.Errorf("%s: placeholder %q (enum %d), want %q", name, f.Placeholder, len(f.Enum), want)
		}
	}
	if _, err := c.Parse([]string{"--region", "mars"}); err == nil {
		t.Error("a long enum is still checked")
	}
}

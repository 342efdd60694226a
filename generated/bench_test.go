package generated

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchSchema has 60 leaves: 10 at the top, and 5 objects of 10 leaves
// each, one of them nested a level deeper; every row of the value table
// appears.
func benchSchema() (json.RawMessage, []string) {
	kinds := []string{
		`{"type":"string","description":"A string."}`,
		`{"type":"integer","minimum":0}`,
		`{"type":"number"}`,
		`{"type":"boolean"}`,
		`{"type":"string","enum":["asc","desc"]}`,
		`{"type":"array","items":{"type":"string"}}`,
		`{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}}`,
		`{"type":"object","additionalProperties":{"type":"string"}}`,
		`{"anyOf":[{"type":"string"},{"type":"null"}]}`,
		`{"type":["integer","string"]}`,
	}
	values := []string{"text", "42", "-1.5e3", "", "desc", "tag", `{"a":"b"}`, `{"k":"v"}`, "maybe", "7"}
	var args []string
	leaves := func(prefix, flag string) string {
		var ps []string
		for i, k := range kinds {
			name := fmt.Sprintf("%sField%d", prefix, i)
			ps = append(ps, fmt.Sprintf("%q:%s", name, k))
			f := fmt.Sprintf("--%s%s-field%d", flag, strings.ToLower(prefix), i)
			if values[i] == "" {
				args = append(args, f)
			} else {
				args = append(args, f, values[i])
			}
		}
		return strings.Join(ps, ",")
	}
	var top []string
	top = append(top, leaves("top", ""))
	for g := 0; g < 4; g++ {
		top = append(top, fmt.Sprintf(`"group%d":{"type":"object","properties":{%s},"required":["g%dField0"]}`, g, leaves(fmt.Sprintf("g%d", g), fmt.Sprintf("group%d-", g)), g))
	}
	top = append(top, `"outer":{"type":"object","properties":{"inner":{"$ref":"#/$defs/Inner"}}}`)
	def := leaves("in", "outer-inner-")
	schema := fmt.Sprintf(`{"type":"object","$defs":{"Inner":{"type":"object","properties":{%s}}},"properties":{%s},"required":["group0"]}`, def, strings.Join(top, ","))
	return json.RawMessage(schema), args
}

func BenchmarkBuild60(b *testing.B) {
	schema, _ := benchSchema()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(schema, BuildOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse60(b *testing.B) {
	schema, args := benchSchema()
	c, err := Build(schema, BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := c.Parse(args)
		if err != nil {
			b.Fatal(err)
		}
		_ = p.JSON()
	}
}

func BenchmarkBuildAndParse60(b *testing.B) {
	schema, args := benchSchema()
	b.ReportAllocs()
	for b.Loop() {
		c, err := Build(schema, BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		p, err := c.Parse(args)
		if err != nil {
			b.Fatal(err)
		}
		_ = p.JSON()
	}
}

func TestBenchSchemaShape(t *testing.T) {
	schema, args := benchSchema()
	c := mustBuild(t, string(schema), BuildOptions{})
	if len(c.Flags) != 60 {
		t.Fatalf("bench schema has %d flags, want 60", len(c.Flags))
	}
	p, err := c.Parse(args)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(p); err != nil {
		t.Fatal(err)
	}
	if got := len(p.Input); got != 15 {
		t.Fatalf("input has %d top-level keys, want 15: %s", got, p.JSON())
	}
}

// collidingSchema has n properties that all kebab to --a ("_a", "__a$",
// …), each name at most a few dozen bytes longer than the last.
func collidingSchema(n int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"type":"object","properties":{"a":{"type":"string"}`)
	for i := 1; i < n; i++ {
		fmt.Fprintf(&sb, `,"%sa%s":{"type":"string"}`, strings.Repeat("_", i%50+1), strings.Repeat("$", i/50))
	}
	sb.WriteString(`}}`)
	return []byte(sb.String())
}

// BenchmarkBuildColliding names n properties that kebab to one flag (a
// quadratic search for free suffixes once took 25 s of CPU for 20,000). ns/op
// divided by n should stay about flat from 1,000 to 20,000 (O(N log N) at
// worst); compare the sub-benchmarks' ratios.
func BenchmarkBuildColliding(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000} {
		schema := collidingSchema(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cmd, err := Build(schema, BuildOptions{})
				if err != nil || len(cmd.Flags) != n {
					b.Fatal(len(cmd.Flags), err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/name")
		})
	}
}

package generated_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/testtier"
)

// propNames collide after kebab-casing, take reserved flags, or look like
// flags, on purpose.
var propNames = []string{"name", "dryRun", "dry_run", "dry-run", "output", "help", "target", "-h", "-x", "-A", "--y", "--output",
	"HTTPServer", "http_server", "", "$filter", "filter", "a", "b", "URLs", "urls", "id", "ID", "type", "properties", "x-2", "x"}

// schemaGen writes random schemas that combine every feature the mapper
// handles; defs are the names of $defs the schema may reference.
type schemaGen struct {
	r    *rand.Rand
	defs []string
}

func (g *schemaGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func q(s string) string { b, _ := json.Marshal(s); return string(b) }

func (g *schemaGen) scalar() string {
	switch g.r.IntN(14) {
	case 0:
		return `{"type":"string","enum":["a","-b","c d"]}`
	case 1:
		return `{"enum":[1,"1x",true,2.50]}`
	case 2:
		return `{"const":"latest"}`
	case 3:
		return `{"type":["string","null"]}`
	case 4:
		return `{"anyOf":[{"type":"integer"},{"type":"null"}]}`
	case 5:
		return `{"type":["boolean","string"]}`
	case 6:
		return `{"oneOf":[{"type":"integer"},{"type":"number"},{"type":"string"}]}`
	case 7:
		return `{"anyOf":[{"const":"latest"},{"type":"string","pattern":"^[0-9a-f]{32}$"}]}`
	case 8:
		return `{"type":"integer","minimum":1,"maximum":9007199254740993}`
	}
	return `{"type":` + q(g.pick([]string{"string", "integer", "number", "boolean"})) + `,"description":"d"}`
}

func (g *schemaGen) schema(depth int) string {
	n := g.r.IntN(22)
	if depth > 5 {
		n = 0
	}
	switch n {
	case 0, 1, 2, 3, 4:
		return g.scalar()
	case 5, 6:
		return g.object(depth)
	case 7:
		return `{"type":"array","items":` + g.schema(depth+1) + `}`
	case 8:
		return `{"type":"array","prefixItems":[` + g.scalar() + `,` + g.schema(depth+1) + `]}`
	case 9:
		return `{"type":"object","additionalProperties":` + g.scalar() + `}`
	case 10:
		return g.pick([]string{`{}`, `true`, `{"type":"object"}`, `{"type":"array"}`})
	case 11:
		if len(g.defs) > 0 {
			return `{"$ref":"#/$defs/` + g.pick(g.defs) + `"}`
		}
		return `{"$ref":"#"}`
	case 12:
		return `{"allOf":[` + g.object(depth) + `,` + g.object(depth) + `]}`
	case 13:
		return `{"anyOf":[` + g.object(depth) + `,{"type":"null"}]}`
	case 14:
		return `{"anyOf":[` + g.object(depth) + `,` + g.scalar() + `]}`
	case 15:
		return `{"type":["object","null"],"properties":{"v":` + g.scalar() + `}}`
	case 16:
		return `{"$ref":"#/properties/` + g.pick(propNames) + `"}`
	case 17:
		return `{"allOf":[{"$ref":"#/$defs/self"}],"description":"wrapped","properties":{"extra":` + g.scalar() + `}}`
	case 18:
		return `{"type":"object","properties":{"dup":` + g.scalar() + `,"dup":` + g.schema(depth+1) + `}}`
	case 19:
		return `{"type":"array","items":{"type":"array","items":` + g.scalar() + `},"minItems":2}`
	case 20:
		return `{"type":["array","null"],"items":{"enum":["x",3,null]}}`
	}
	return `{"oneOf":[` + g.object(depth) + `,` + g.object(depth) + `]}`
}

func (g *schemaGen) object(depth int) string {
	var props, req []string
	seen := map[string]bool{}
	n := g.r.IntN(5) + 1
	if depth == 0 {
		n = g.r.IntN(8) + 2
	}
	for i := n; i > 0; i-- {
		name := g.pick(propNames)
		if seen[name] {
			continue
		}
		seen[name] = true
		props = append(props, q(name)+":"+g.schema(depth+1))
		if g.r.IntN(3) == 0 {
			req = append(req, q(name))
		}
	}
	return `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(req, ",") + `]}`
}

// top writes a whole input schema with a few definitions.
func (g *schemaGen) top() string {
	g.defs = nil
	var defs []string
	for i := g.r.IntN(3); i > 0; i-- {
		name := fmt.Sprintf("D%d", len(g.defs))
		g.defs = append(g.defs, name, "self")
		defs = append(defs, q(name)+":"+g.schema(1))
	}
	defs = append(defs, `"self":{"type":"object","properties":{"v":{"type":"string"},"next":{"$ref":"#/$defs/self"}}}`)
	return `{"$defs":{` + strings.Join(defs, ",") + `},` + strings.TrimPrefix(g.object(0), "{")
}

func TestRandomSchemasRoundTripBig(t *testing.T) {
	testtier.Big(t)
	n := 800
	if s := os.Getenv("AGSH_RANDOM_SCHEMAS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		n = 200
	}
	g := &schemaGen{r: rand.New(rand.NewPCG(11, 13))}
	trips := 0
	for i := 0; i < n; i++ {
		s := g.top()
		c, err := generated.Build(json.RawMessage(s), generated.BuildOptions{})
		if err != nil {
			t.Fatalf("Build(%s): %v", s, err)
		}
		checkFlags(t, s, c)
		for j := 0; j < 5; j++ {
			if roundTrip(t, s, json.RawMessage(s), c, rand.New(rand.NewPCG(uint64(i), uint64(j)))) {
				trips++
			}
		}
	}
	t.Logf("%d schemas, %d round trips", n, trips)
}

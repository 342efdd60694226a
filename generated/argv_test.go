package generated_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/generated/inputgen"
	"github.com/agsh-dev/agsh/internal/testcorpus"
	"github.com/agsh-dev/agsh/interp/syntax"
)

const argvSchema = `{"type":"object","properties":{
	"query":{"type":"string"},
	"limit":{"type":"integer"},
	"ratio":{"type":"number"},
	"force":{"type":"boolean"},
	"tags":{"type":"array","items":{"type":"string"}},
	"flags":{"type":"array","items":{"type":"boolean"}},
	"mode":{"enum":["fast","slow down"]},
	"ref":{"type":["string","integer"]},
	"num":{"type":["integer","string"]},
	"filter":{"type":"object","properties":{"owner":{"type":"string"},"since":{"type":"integer"}}},
	"meta":{"type":"object"},
	"payload":{"anyOf":[{"type":"string"},{"type":"object"}]},
	"-A":{"type":"integer"},
	"maybe":{"type":["string","null"]},
	"output":{"type":"string"}
},"required":["query"]}`

func TestArgv(t *testing.T) {
	t.Parallel()
	c, err := generated.Build(json.RawMessage(argvSchema), generated.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		input, line string
		inputJSON   bool
	}{
		{`{"query":"x"}`, `tool --query=x`, false},
		{`{"query":"status:alert env:prod"}`, `tool --query='status:alert env:prod'`, false},
		{`{"query":"it's"}`, `tool --query='it'\''s'`, false},
		{`{"query":"","limit":-5,"ratio":1.50}`, `tool --query='' --limit=-5 --ratio=1.50`, false},
		{`{"query":"-x","force":true}`, `tool --query=-x --force`, false},
		{`{"query":"x","force":false}`, `tool --query=x --force=false`, false},
		{`{"query":"x","tags":["a","b c"],"flags":[true,false]}`, `tool --query=x --tags=a --tags='b c' --flags=true --flags=false`, false},
		{`{"query":"x","mode":"slow down"}`, `tool --query=x --mode='slow down'`, false},
		{`{"query":"x","filter":{"since":3,"owner":"me"}}`, `tool --query=x --filter-owner=me --filter-since=3`, false},
		{`{"query":"x","meta":{"b":[1,2.0],"a":null}}`, `tool --query=x --meta='{"a":null,"b":[1,2.0]}'`, false},
		{`{"query":"x","payload":"plain"}`, `tool --query=x --payload=plain`, false},
		{`{"query":"x","payload":"{\"a\":1}"}`, `tool --query=x --payload='"{\"a\":1}"'`, false},
		{`{"query":"x","payload":{"a":1}}`, `tool --query=x --payload='{"a":1}'`, false},
		{`{"query":"x","-A":3}`, `tool --query=x -A 3`, false},
		{`{"query":"x","-A":-3}`, `tool --query=x -A=-3`, false},
		{`{"query":"x","output":"y"}`, `tool --query=x --output-2=y`, false},
		{`{"query":"x","ref":"main"}`, `tool --query=x --ref=main`, false},
		{`{"query":"x","num":7}`, `tool --query=x --num=7`, false},
		{`{"query":"--help"}`, `tool --query=--help`, false},
		{`{"query":"a;b|c&d$(e)` + "`f`" + `*?~#"}`, `tool --query='a;b|c&d$(e)` + "`f`" + `*?~#'`, false},
		// What the flags cannot send: the whole input as JSON.
		{`{"query":"x","tags":[]}`, `tool --input-json '{"query":"x","tags":[]}'`, true},
		{`{"query":"x","filter":{}}`, `tool --input-json '{"query":"x","filter":{}}'`, true},
		{`{"query":"x","limit":null}`, `tool --input-json '{"query":"x","limit":null}'`, true},
		{`{"query":"x","maybe":null}`, `tool --input-json '{"query":"x","maybe":null}'`, true},
		{`{"query":"x","undeclared":1}`, `tool --input-json '{"query":"x","undeclared":1}'`, true},
		{`{"query":"x","limit":1e3}`, `tool --input-json '{"query":"x","limit":1e3}'`, true},
		{`{"query":"x","limit":12345678901234567890}`, `tool --input-json '{"query":"x","limit":12345678901234567890}'`, true},
		{`{"query":"@/etc/passwd"}`, `tool --input-json '{"query":"@/etc/passwd"}'`, true},
		{`{"query":"it's","filter":7}`, `tool --input-json '{"query":"it\u0027s","filter":7}'`, true},
		{`{"query":"a\nb"}`, `tool --input-json '{"query":"a\nb"}'`, true},
		{"{\"query\":\"a\u202eb\"}", `tool --input-json '{"query":"a\u202eb"}'`, true},
		{"{\"query\":\"a\u200bb\",\"tags\":[\"\U000E0041\"]}", `tool --input-json '{"query":"a\u200bb","tags":["\udb40\udc41"]}'`, true},
		{`{"query":"a\u0085b"}`, `tool --input-json '{"query":"a\u0085b"}'`, true},
		{"{\"query\":\"a\u0085b\"}", `tool --input-json '{"query":"a\u0085b"}'`, true},
		{`{"query":"x","fi\u202elter":1}`, `tool --input-json '{"query":"x","fi\u202elter":1}'`, true},
		{`{"limit":1}`, `tool --input-json '{"limit":1}'`, true}, // the required query is missing
		{`{ "query" : "x" ,"meta":{ "a" : 1 } }`, `tool --query=x --meta='{"a":1}'`, false},
	}
	for _, tt := range tests {
		words, inJSON, err := c.Argv(json.RawMessage(tt.input))
		if err != nil {
			t.Errorf("%s: %v", tt.input, err)
			continue
		}
		line := generated.Line("tool", words)
		if line != tt.line || inJSON != tt.inputJSON {
			t.Errorf("%s:\n got %s (inputJSON %v)\nwant %s", tt.input, line, inJSON, tt.line)
		}
		checkSends(t, c, tt.input, line, inJSON)
	}
	for _, bad := range []string{`[1]`, `"x"`, `{"a":1} {}`, `{`, `null`} {
		if _, _, err := c.Argv(json.RawMessage(bad)); err != generated.ErrNotObject {
			t.Errorf("%s: err %v", bad, err)
		}
	}
}

// checkSends asserts that line, read by agsh's shell language, sends
// input: through the flags, or as --input-json's JSON.
func checkSends(t *testing.T, c *generated.Command, input, line string, inputJSON bool) {
	t.Helper()
	words := shellWords(t, line)
	if len(words) == 0 || words[0] == "" {
		t.Fatalf("%s: no command in %q", input, line)
	}
	words = words[1:]
	if inputJSON {
		if len(words) != 2 || words[0] != generated.InputJSONOption {
			t.Fatalf("%s: %q is not --input-json <json>", input, line)
		}
		if !generated.EqualJSON([]byte(words[1]), []byte(input)) {
			t.Errorf("%s: --input-json's JSON %s is another value", input, words[1])
		}
		if strings.ContainsFunc(line, generated.Hazard) || strings.Contains(words[1], "'") {
			t.Errorf("%s: %q holds a hazard or a quote", input, line)
		}
		return
	}
	p, err := c.Parse(words)
	if err != nil {
		t.Fatalf("%s: Parse(%q): %v", input, words, err)
	}
	if err := c.Validate(p); err != nil {
		t.Fatalf("%s: %q: %v", input, line, err)
	}
	if !generated.EqualJSON(p.JSON(), []byte(input)) {
		t.Errorf("%s: %q sends %s", input, line, p.JSON())
	}
}

// shellWords splits one command line as agsh's shell reads it.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	s, err := syntax.Parse(line)
	if err != nil {
		t.Fatalf("agsh cannot read %q: %v", line, err)
	}
	if len(s.Lists) != 1 || len(s.Lists[0].Pipelines) != 1 || len(s.Lists[0].Pipelines[0].Commands) != 1 {
		t.Fatalf("%q is not one command", line)
	}
	return s.Lists[0].Pipelines[0].Commands[0].Args()
}

func TestQuote(t *testing.T) {
	t.Parallel()
	words := []string{"", "plain", "a b", "it's", "''", `\`, `"`, "$HOME", "~", "*.go", "#x", "a#b", "x=y",
		"=", "-", "--", "a;b", "a|b", "a&&b", "(x)", "{a,b}", "!x", "é", "中文", "\t", "a\nb", `\'`, "%s@:,+./_-"}
	var line []string
	for _, w := range words {
		line = append(line, generated.Quote(w))
	}
	got := shellWords(t, "cmd "+strings.Join(line, " "))[1:]
	if len(got) != len(words) {
		t.Fatalf("agsh read %d words of %d: %q", len(got), len(words), got)
	}
	for i := range words {
		if got[i] != words[i] {
			t.Errorf("agsh read %q back as %q (quoted %s)", words[i], got[i], line[i])
		}
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	script := `for a in ` + strings.Join(line, " ") + `; do printf '%s\0' "$a"; done`
	out, err := exec.Command("sh", "-c", script).Output()
	if err != nil {
		t.Fatalf("sh: %v", err)
	}
	sw := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(sw) != len(words) {
		t.Fatalf("sh read %d words of %d: %q", len(sw), len(words), sw)
	}
	for i := range words {
		if sw[i] != words[i] {
			t.Errorf("sh read %q back as %q (quoted %s)", words[i], sw[i], line[i])
		}
	}
}

// mutations turn an input of the round-trip domain into inputs outside
// it: each must still be written so that it sends exactly that input.
var mutations = []func(map[string]any, *rand.Rand){
	func(m map[string]any, _ *rand.Rand) { m["undeclared key"] = "x" },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, nil) },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, []any{}) },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, map[string]any{}) },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, "41") },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, "true") },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, "null") },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, "@file.json") },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, "it's \"quoted\" $(x) `y`") },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, "bidi \u202e evil") },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, "esc \x1b[31m red") },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, "-starts-with-dash") },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, json.Number("1.50")) },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, json.Number("-0")) },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, true) },
	func(m map[string]any, r *rand.Rand) { setSome(m, r, []any{"a", json.Number("2"), nil}) },
}

// setSome sets v at a random key of m (or of an object inside it).
func setSome(m map[string]any, r *rand.Rand, v any) {
	for depth := 0; depth < 4; depth++ {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		if len(keys) == 0 {
			m["k"] = v
			return
		}
		sortStrings(keys)
		k := keys[r.IntN(len(keys))]
		if sub, ok := m[k].(map[string]any); ok && r.IntN(2) == 0 {
			m = sub
			continue
		}
		m[k] = v
		return
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// The encoder's round trip over every schema: an input of the domain, and
// the same input mutated out of it, each written, read back by the shell
// language and the parser (or as --input-json), sends exactly the input.
func TestArgvRoundTrip(t *testing.T) {
	testcorpus.Each(t, func(t *testing.T, set testcorpus.Set) {
		t.Parallel()
		tools := loadCorpus(t, set.Dir)
		n := 6
		if testing.Short() {
			n = 2
		}
		var flags, asJSON int
		for i, tl := range tools {
			c, err := generated.Build(tl.schema, generated.BuildOptions{})
			if err != nil {
				t.Fatalf("%s: %v", tl.file, err)
			}
			for j := 0; j < n; j++ {
				r := rand.New(rand.NewPCG(uint64(i), uint64(j)))
				in, err := inputgen.Generate(tl.schema, r)
				if err != nil {
					continue
				}
				inputs := []map[string]any{in}
				for _, mut := range mutations {
					m := cloneMap(in)
					mut(m, r)
					inputs = append(inputs, m)
				}
				for k, m := range inputs {
					raw := []byte(canonical(m))
					words, inJSON, err := c.Argv(raw)
					if err != nil {
						t.Fatalf("%s: Argv(%s): %v", tl.file, raw, err)
					}
					if k == 0 && inJSON && !hazardIn(string(raw)) {
						t.Errorf("%s: an input of the domain went to --input-json: %s", tl.file, raw)
					}
					if inJSON {
						asJSON++
					} else {
						flags++
					}
					checkSends(t, c, string(raw), generated.Line("tool", words), inJSON)
				}
			}
		}
		t.Logf("%d tools: %d inputs as flags, %d as --input-json", len(tools), flags, asJSON)
	})
}

// hazardIn reports what the domain's generator may produce that flags never
// carry: a hazard character, or a string starting with '@'.
func hazardIn(raw string) bool {
	var v any
	_ = json.Unmarshal([]byte(raw), &v)
	return anyString(v, func(s string) bool { return strings.ContainsFunc(s, generated.Hazard) || strings.HasPrefix(s, "@") })
}

// anyString reports whether some key or string in v satisfies f.
func anyString(v any, f func(string) bool) bool {
	switch x := v.(type) {
	case string:
		return f(x)
	case map[string]any:
		for k, e := range x {
			if f(k) || anyString(e, f) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if anyString(e, f) {
				return true
			}
		}
	}
	return false
}

func cloneMap(m map[string]any) map[string]any {
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader([]byte(canonical(m))))
	dec.UseNumber()
	_ = dec.Decode(&out)
	return out
}

func TestSafeInputJSON(t *testing.T) {
	t.Parallel()
	in := "{\"a\":\"it's \u202e\x7f\u0085\u200d\U000E0001 é 中\",\"b\":[1.50,-0,\"\\n\\u0041\"],\"c\":\"\xff\"}"
	got := string(generated.SafeInputJSON([]byte(in)))
	want := `{"a":"it\u0027s \u202e\u007f\u0085\u200d\udb40\udc01 é 中","b":[1.50,-0,"\n\u0041"],"c":"\ufffd"}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if !generated.EqualJSON([]byte(got), []byte(in)) {
		t.Errorf("not the same value")
	}
}

func TestEqualJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, b string
		eq   bool
	}{
		{`{"a":1,"b":[true,null]}`, `{"b":[true,null],"a":1}`, true},
		{`{"a":1}`, `{"a":1.0}`, false},
		{`{"a":"x"}`, `{"a":"\u0078"}`, true},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":1}`, `{"a":1,"b":null}`, false},
		{`{}`, `{} x`, false},
	} {
		if got := generated.EqualJSON([]byte(tt.a), []byte(tt.b)); got != tt.eq {
			t.Errorf("%s vs %s: %v", tt.a, tt.b, got)
		}
	}
}

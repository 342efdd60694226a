package generated

import (
	"strings"
	"testing"
)

// parseSchema exercises every row of the value table.
const parseSchema = `{"type":"object","properties":{
	"name":{"type":"string"},
	"count":{"type":"integer"},
	"ratio":{"type":"number"},
	"force":{"type":"boolean"},
	"sort":{"type":"string","enum":["asc","desc","-asc"]},
	"level":{"enum":[1,"two",true,2.50]},
	"kind":{"const":"latest"},
	"tags":{"type":"array","items":{"type":"string"}},
	"ids":{"type":"array","items":{"type":"integer"}},
	"bits":{"type":"array","items":{"type":"boolean"}},
	"modes":{"type":"array","items":{"enum":["r","w"]}},
	"objs":{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer"}}}},
	"loose":{"type":"array","items":{}},
	"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]},
	"labels":{"type":"object","additionalProperties":{"type":"string"}},
	"opt":{"type":["string","null"]},
	"flag":{"type":["boolean","string"]},
	"num":{"oneOf":[{"type":"integer"},{"type":"string"}]},
	"any":{},
	"shape":{"anyOf":[{"type":"object"},{"type":"string"}]},
	"strict":{"anyOf":[{"type":"object"},{"type":"array"}]},
	"telemetry":{"type":"object","properties":{"context":{"type":"string"},"deep":{"properties":{"x":{"type":"integer"}}}}},
	"-i":{"type":"boolean"},
	"-v":{"type":"boolean"},
	"-A":{"type":"integer"},
	"output":{"type":"string"}
}}`

func TestParseValues(t *testing.T) {
	c := mustBuild(t, parseSchema, BuildOptions{})
	tests := []struct {
		name     string
		spelling [][]string
		want     string
	}{
		{"nothing", [][]string{{}, {"--"}}, `{}`},
		{"string verbatim", [][]string{{"--name", "012"}, {"--name=012"}}, `{"name":"012"}`},
		{"string with equals and spaces", [][]string{{"--name", "a=b c"}, {"--name=a=b c"}}, `{"name":"a=b c"}`},
		{"empty string", [][]string{{"--name="}, {"--name", ""}}, `{"name":""}`},
		{"dash value", [][]string{{"--name=-x"}}, `{"name":"-x"}`},
		{"lone dash value", [][]string{{"--name", "-"}, {"--name=-"}}, `{"name":"-"}`},
		{"integer", [][]string{{"--count", "42"}, {"--count=42"}}, `{"count":42}`},
		{"negative integer", [][]string{{"--count", "-5"}, {"--count=-5"}}, `{"count":-5}`},
		{"big integer exact", [][]string{{"--count", "9007199254740993"}}, `{"count":9007199254740993}`},
		{"number as written", [][]string{{"--ratio", "-1.5e3"}, {"--ratio=-1.5e3"}}, `{"ratio":-1.5e3}`},
		{"number trailing zero", [][]string{{"--ratio", "2.50"}}, `{"ratio":2.50}`},
		{"boolean bare", [][]string{{"--force"}, {"--force=true"}}, `{"force":true}`},
		{"boolean false", [][]string{{"--force=false"}}, `{"force":false}`},
		{"enum", [][]string{{"--sort", "desc"}, {"--sort=desc"}}, `{"sort":"desc"}`},
		{"enum beginning with dash", [][]string{{"--sort=-asc"}}, `{"sort":"-asc"}`},
		{"enum keeps json type", [][]string{{"--level", "1"}}, `{"level":1}`},
		{"enum string", [][]string{{"--level", "two"}}, `{"level":"two"}`},
		{"enum bool", [][]string{{"--level", "true"}}, `{"level":true}`},
		{"enum number as text", [][]string{{"--level", "2.50"}}, `{"level":2.50}`},
		{"const", [][]string{{"--kind", "latest"}}, `{"kind":"latest"}`},
		{"string array", [][]string{{"--tags", "a", "--tags", "b"}, {"--tags=a", "--tags=b"}}, `{"tags":["a","b"]}`},
		{"integer array", [][]string{{"--ids", "1", "--ids", "-2"}}, `{"ids":[1,-2]}`},
		{"boolean array", [][]string{{"--bits", "true", "--bits=false"}}, `{"bits":[true,false]}`},
		{"enum array", [][]string{{"--modes", "r", "--modes", "w"}}, `{"modes":["r","w"]}`},
		{"object array", [][]string{{"--objs", `{"a":1}`, "--objs", `{"a":2.0}`}}, `{"objs":[{"a":1},{"a":2.0}]}`},
		{"untyped array falls back to string", [][]string{{"--loose", "x", "--loose", "[1]", "--loose", `"q"`}}, `{"loose":["x",[1],"q"]}`},
		{"tuple", [][]string{{"--pair", `"a"`, "--pair", "3"}, {"--pair", "a", "--pair", "3"}}, `{"pair":["a",3]}`},
		{"map", [][]string{{"--labels", `{"b":"2","a":"1"}`}, {`--labels={"a":"1","b":"2"}`}}, `{"labels":{"a":"1","b":"2"}}`},
		{"nullable", [][]string{{"--opt", "x"}}, `{"opt":"x"}`},
		{"union first branch boolean", [][]string{{"--flag", "true"}, {"--flag=true"}}, `{"flag":true}`},
		{"union falls to string", [][]string{{"--flag", "yes"}}, `{"flag":"yes"}`},
		{"union integer", [][]string{{"--num", "7"}, {"--num=7"}}, `{"num":7}`},
		{"union negative integer", [][]string{{"--num", "-7"}}, `{"num":-7}`},
		{"union string", [][]string{{"--num", "7a"}}, `{"num":"7a"}`},
		{"untyped json", [][]string{{"--any", `{"k":[1,2]}`}}, `{"any":{"k":[1,2]}}`},
		{"untyped string fallback", [][]string{{"--any", "plain text"}}, `{"any":"plain text"}`},
		{"object union json", [][]string{{"--shape", `{"x":1}`}}, `{"shape":{"x":1}}`},
		{"object union string", [][]string{{"--shape", "circle"}}, `{"shape":"circle"}`},
		{"strict union json", [][]string{{"--strict", "[1]"}}, `{"strict":[1]}`},
		{"nested builds ancestors", [][]string{{"--telemetry-context", "x"}}, `{"telemetry":{"context":"x"}}`},
		{"two nested leaves", [][]string{{"--telemetry-deep-x", "1", "--telemetry-context", "c"}}, `{"telemetry":{"context":"c","deep":{"x":1}}}`},
		{"short boolean", [][]string{{"-i"}, {"-i=true"}}, `{"-i":true}`},
		{"bundled short booleans", [][]string{{"-iv"}, {"-i", "-v"}}, `{"-i":true,"-v":true}`},
		{"short with value", [][]string{{"-A2"}, {"-A", "2"}, {"-A=2"}}, `{"-A":2}`},
		{"short negative value", [][]string{{"-A", "-2"}, {"-A-2"}}, `{"-A":-2}`},
		{"renamed reserved", [][]string{{"--output-2", "x"}}, `{"output":"x"}`},
		{"html characters unescaped", [][]string{{"--name", "<a&b>"}}, `{"name":"<a&b>"}`},
	}
	for _, tt := range tests {
		for _, args := range tt.spelling {
			p, err := c.Parse(args)
			if err != nil {
				t.Errorf("%s: Parse(%q): %v", tt.name, args, err)
				continue
			}
			if got := string(p.JSON()); got != tt.want {
				t.Errorf("%s: Parse(%q) = %s, want %s", tt.name, args, got, tt.want)
			}
			if len(p.Operands) != 0 || len(p.Globals) != 0 || p.Help {
				t.Errorf("%s: Parse(%q) operands %q globals %v help %v", tt.name, args, p.Operands, p.Globals, p.Help)
			}
		}
	}
}

func TestParseGlobalsOperandsHelp(t *testing.T) {
	c := mustBuild(t, `{"properties":{"name":{"type":"string"},"n":{"type":"integer"}}}`, BuildOptions{})
	tests := []struct {
		args                []string
		input, ops, globals string
		help                bool
	}{
		{[]string{"--output", "json", "--name", "x"}, `{"name":"x"}`, "", "--output=json", false},
		{[]string{"--name", "x", "--output=json", "--target", "http://h/a", "--team=t", "--bearer-token", "tok", "--session", "s1", "--continuation-token=c"},
			`{"name":"x"}`, "", "--output=json --target=http://h/a --team=t --bearer-token=tok --session=s1 --continuation-token=c", false},
		{[]string{"a", "--name", "x", "b"}, `{"name":"x"}`, "a b", "", false},
		{[]string{"--", "--name", "-h"}, `{}`, "--name -h", "", false},
		{[]string{"--name", "x", "--", "--output", "json"}, `{"name":"x"}`, "--output json", "", false},
		{[]string{"-h"}, `{}`, "", "", true},
		{[]string{"--help", "--name", "x"}, `{"name":"x"}`, "", "", true},
		{[]string{"--name=-h"}, `{"name":"-h"}`, "", "", false},
		{[]string{"--bogus", "--help"}, `{}`, "", "", true},
		{[]string{"-5", "-", "x"}, `{}`, "-5 - x", "", false},
		{[]string{"--yes", "--name", "x"}, `{"name":"x"}`, "", "--yes=true", false},
	}
	for _, tt := range tests {
		p, err := c.Parse(tt.args)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.args, err)
			continue
		}
		var gs []string
		for _, g := range p.Globals {
			gs = append(gs, g.Name+"="+g.Value)
		}
		if got := string(p.JSON()); got != tt.input {
			t.Errorf("Parse(%q) input = %s, want %s", tt.args, got, tt.input)
		}
		if got := strings.Join(p.Operands, " "); got != tt.ops {
			t.Errorf("Parse(%q) operands = %q, want %q", tt.args, got, tt.ops)
		}
		if got := strings.Join(gs, " "); got != tt.globals {
			t.Errorf("Parse(%q) globals = %q, want %q", tt.args, got, tt.globals)
		}
		if p.Help != tt.help {
			t.Errorf("Parse(%q) help = %v, want %v", tt.args, p.Help, tt.help)
		}
	}
}

func TestParseFreshState(t *testing.T) {
	c := mustBuild(t, `{"properties":{"tags":{"type":"array","items":{"type":"string"}},"n":{"type":"integer"}}}`, BuildOptions{})
	for i := 0; i < 2; i++ {
		p, err := c.Parse([]string{"--tags", "a", "--n", "1"})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(p.JSON()); got != `{"n":1,"tags":["a"]}` {
			t.Fatalf("call %d: %s", i, got)
		}
	}
}

package inputgen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/generated"
)

func decode(t *testing.T, s string) map[string]any {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestArgv(t *testing.T) {
	schema := `{"properties":{
		"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},
		"t":{"type":"boolean"},"f":{"type":"boolean"},
		"tags":{"type":"array","items":{"type":"string"}},
		"objs":{"type":"array","items":{"type":"object"}},
		"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]},
		"m":{"type":"object"},"u":{"type":["boolean","string"]},"any":{},
		"o":{"properties":{"x":{"type":"string"}}},"-A":{"type":"integer"},"-q":{"type":"boolean"},
		"output":{"type":"string"},
		"v":{"type":"array","items":{"type":["string","number","boolean","null"]}}}}`
	c, err := generated.Build(json.RawMessage(schema), generated.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ input, want string }{
		{`{"s":"-a b=c","i":9007199254740993,"n":-1.50e3}`, `--i=9007199254740993 --n=-1.50e3 --s=-a b=c`},
		{`{"t":true,"f":false}`, `--f=false --t`},
		{`{"tags":["a","--b"],"objs":[{"k":1},{}]}`, `--objs={"k":1} --objs={} --tags=a --tags=--b`},
		{`{"pair":["x",2]}`, `--pair="x" --pair=2`},
		{`{"m":{"a":"<&>"},"any":"text","u":true}`, `--any="text" --m={"a":"<&>"} --u=true`},
		{`{"o":{"x":"y"},"-A":-2,"-q":true,"output":"z"}`, `-A=-2 -q --o-x=y --output-2=z`},
		{`{"u":"true"}`, `--u="true"`},
		{`{"v":[41,"41",null,"null",false,"x y","\"q\"","007",1e3,"1e3"]}`,
			`--v=41 --v="41" --v=null --v="null" --v=false --v=x y --v="\"q\"" --v=007 --v=1e3 --v="1e3"`},
	}
	for _, tt := range tests {
		in := decode(t, tt.input)
		args, err := Argv(c, in)
		if err != nil {
			t.Fatalf("Argv(%s): %v", tt.input, err)
		}
		if got := strings.Join(args, " "); got != tt.want {
			t.Errorf("Argv(%s)\n got %s\nwant %s", tt.input, got, tt.want)
		}
		p, err := c.Parse(args)
		if err != nil {
			t.Fatalf("Parse(%q): %v", args, err)
		}
		if got, want := p.JSON(), compact(in); !bytes.Equal(got, want) {
			t.Errorf("round trip of %s = %s", want, got)
		}
	}
}

func TestArgvErrors(t *testing.T) {
	c, err := generated.Build(json.RawMessage(`{"properties":{"a":{"type":"string"},"l":{"type":"array","items":{"type":"string"}}}}`), generated.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ input, want string }{
		{`{"zz":1}`, "inputgen: no flag for property zz"},
		{`{"a":{"b":1}}`, ""},
		{`{"l":"x"}`, "inputgen: --l is repeatable but the value is string"},
	}
	for _, tt := range tests {
		_, err := Argv(c, decode(t, tt.input))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Argv(%s) error = %q, want %q", tt.input, got, tt.want)
		}
	}
}

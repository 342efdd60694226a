package interp

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// jqConformance lists filters and inputs whose output must be byte for byte what
// the gojq command prints.
var jqConformance = []struct {
	args  []string
	input string
}{
	{[]string{"."}, `{"b":1,"a":[1.10,"é\u0001\u007f\u2028<>&"],"c":{}, "d":[]}`},
	{[]string{"-c", "."}, `{"b":1,"a":[1.10,"é\u0001"],"c":{"z":null,"y":true}}`},
	{[]string{"-r", ".[]"}, `["a\tb", 1, {"x":"y"}, null, "\u001b[31m"]`},
	{[]string{"-rc", ".[]"}, `["a\tb", 1, {"x":[1,2]}]`},
	{[]string{"-c", "[.[] | . * 1]"}, `[1, 1.5, 100000000000000000001, 1e300, 0.0000001, 123456789012]`},
	{[]string{"-c", "."}, `[100000000000000000001, 1.000, -0, 1E+2, 0.1e-8]`},
	{[]string{"-c", "[1e1000, -1e1000, nan, 1/3, 3.0, 1e21, 1e20, 1e-6, 1e-7, -5e-10]"}, `null`},
	{[]string{".a"}, "{\"a\": 1}\n{\"a\": [2]}\n{\"b\": 3}"},
	{[]string{"keys"}, `{"b":1,"a":2,"é":3,"B":4}`},
	{[]string{"-c", "to_entries"}, `{"b":1,"a":2}`},
	{[]string{"."}, `"invalid \udc00 surrogate"`},
	{[]string{"-c", "[., input]"}, "1 2 3 4"},
	{[]string{"-c", ".[] | select(.n > 1) | {n, s}"}, `[{"n":1,"s":"a"},{"n":2,"s":"b"},{"n":3,"s":"c"}]`},
	{[]string{"-r", "@csv"}, `[1,"a,b","c\"d"]`},
	{[]string{"-r", "@base64, @uri, @html, @sh"}, `"a b<'>&"`},
	{[]string{"tostring, tojson"}, `{"b":[1.50,2],"a":"x"}`},
}

func TestJQMatchesGojq(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "gojq")
	build := exec.Command("go", "build", "-o", bin, "github.com/itchyny/gojq/cmd/gojq")
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("cannot build the gojq command to compare with: %v\n%s", err, out)
	}
	for _, tc := range jqConformance {
		cmd := exec.Command(bin, tc.args...)
		cmd.Stdin = strings.NewReader(tc.input)
		var want bytes.Buffer
		cmd.Stdout = &want
		if err := cmd.Run(); err != nil {
			t.Errorf("gojq %q: %v", tc.args, err)
			continue
		}
		got, st, err := runFilter(append([]string{"jq"}, tc.args...), Value{Text: tc.input})
		if err != nil || st != 0 {
			t.Errorf("jq %q: status %d, error %v", tc.args, st, err)
		}
		if got.Text != want.String() {
			t.Errorf("jq %q on %s:\n got %q\nwant %q (gojq)", tc.args, tc.input, got.Text, want.String())
		}
	}
}

// TestJQConformanceCases runs the same cases without gojq, pinning the output
// worked out from the gojq command's encoder, so the check holds where gojq
// cannot be built.
func TestJQConformanceCases(t *testing.T) {
	want := []string{
		"{\n  \"a\": [\n    1.10,\n    \"é\\u0001\\u007f\u2028<>&\"\n  ],\n  \"b\": 1,\n  \"c\": {},\n  \"d\": []\n}\n",
		`{"a":[1.10,"é\u0001"],"b":1,"c":{"y":true,"z":null}}` + "\n",
		"a\tb\n1\n{\n  \"x\": \"y\"\n}\nnull\n\x1b[31m\n",
		"a\tb\n1\n{\"x\":[1,2]}\n",
		"[1,1.5,100000000000000000001,1e+300,1e-7,123456789012]\n",
		"[100000000000000000001,1.000,-0,1E+2,0.1e-8]\n",
		"[1.7976931348623157e+308,-1.7976931348623157e+308,null,0.3333333333333333,3,1e+21,100000000000000000000,0.000001,1e-7,-5e-10]\n",
		"1\n[\n  2\n]\nnull\n",
		"[\n  \"B\",\n  \"a\",\n  \"b\",\n  \"é\"\n]\n",
		`[{"key":"a","value":2},{"key":"b","value":1}]` + "\n",
		"\"invalid \ufffd surrogate\"\n",
		"[1,2]\n[3,4]\n",
		`{"n":2,"s":"b"}` + "\n" + `{"n":3,"s":"c"}` + "\n",
		`1,"a,b","c""d"` + "\n",
		"YSBiPCc+Jg==\na%20b%3C%27%3E%26\na b&lt;&apos;&gt;&amp;\n'a b<'\\''>&'\n",
		"\"{\\\"a\\\":\\\"x\\\",\\\"b\\\":[1.50,2]}\"\n\"{\\\"a\\\":\\\"x\\\",\\\"b\\\":[1.50,2]}\"\n",
	}
	for i, tc := range jqConformance {
		got, st, err := runFilter(append([]string{"jq"}, tc.args...), Value{Text: tc.input})
		if err != nil || st != 0 {
			t.Errorf("jq %q: status %d, error %v", tc.args, st, err)
		}
		if got.Text != want[i] {
			t.Errorf("jq %q on %s:\n got %q\nwant %q", tc.args, tc.input, got.Text, want[i])
		}
	}
}

// TestJQKeyOrder pins what docs/shell.md says of key order: jq's printed
// objects have their keys sorted (as gojq prints them), at every depth,
// while a table made by a last jq keeps the input's order for its columns.
func TestJQKeyOrder(t *testing.T) {
	in := Value{Text: `[{"type":"file","name":"a.go","size":3,"meta":{"z":1,"a":2}}]`}
	got, st, err := runFilter([]string{"jq", "-c", ".[0]"}, in)
	if err != nil || st != 0 || got.Text != `{"meta":{"a":2,"z":1},"name":"a.go","size":3,"type":"file"}`+"\n" {
		t.Errorf("jq -c: %q, status %d, %v", got.Text, st, err)
	}
	tab, ok := tableResult([]any{map[string]any{"size": 3, "name": "a.go", "type": "file"}}, in)
	if !ok || string(tab.JSON) != `[{"type":"file","name":"a.go","size":3}]` {
		t.Errorf("table: %s, %v", tab.JSON, ok)
	}
}

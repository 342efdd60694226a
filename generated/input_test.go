package generated

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const inputSchema = `{"type":"object","required":["id"],"properties":{
 "id":{"type":"integer"},"query":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},
 "page":{"type":"object","properties":{"size":{"type":"integer"},"cursor":{"type":"string"}}},
 "filter":{"type":"object"},"note":{"type":["string","object"]}}}`

func TestMergeInput(t *testing.T) {
	c, err := Build(json.RawMessage(inputSchema), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	run := func(args []string, obj string) (string, error) {
		p, err := c.Parse(args)
		if err != nil {
			return "", err
		}
		base, err := DecodeInput([]byte(obj))
		if err != nil {
			return "", err
		}
		if err := c.Merge(p, base); err != nil {
			return "", err
		}
		if err := c.Validate(p); err != nil {
			return "", err
		}
		return string(p.JSON()), nil
	}
	for _, tc := range []struct {
		args      []string
		obj, want string
	}{
		{nil, `{"id": 7, "page": {"size": 5}}`, `{"id":7,"page":{"size":5}}`},
		{[]string{"--page-size", "9", "--query", "q"}, `{"id": 7, "page": {"size": 5, "cursor": "c"}}`, `{"id":7,"page":{"cursor":"c","size":9},"query":"q"}`},
		{[]string{"--tags", "b"}, `{"id": 1, "tags": ["a", "c"]}`, `{"id":1,"tags":["b"]}`},
		{[]string{"--id", "2"}, `{"filter": {"any": [1, {"x": null}]}}`, `{"filter":{"any":[1,{"x":null}]},"id":2}`},
		{nil, `{"id": 1.0e0}`, ""},
	} {
		got, err := run(tc.args, tc.obj)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%v %s: no error (got %s)", tc.args, tc.obj, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%v %s: %s, %v; want %s", tc.args, tc.obj, got, err, tc.want)
		}
	}
	for obj, want := range map[string]string{
		`{"id": 1, "qury": "x"}`:         `unknown member "qury" in --input-json (did you mean "query"?); members: id, query, tags, page, filter, note`,
		`{"id": 1, "page": {"sise": 2}}`: `unknown member "page.sise" in --input-json (did you mean "page.size"?); members: id, query, tags, page, filter, note`,
		`{"id": "one"}`:                  `invalid value "one" for member "id" of --input-json: expected an integer`,
		`{"id": 1, "page": 3}`:           `invalid value "3" for member "page" of --input-json: expected a JSON object`,
		`{"id": 1, "tags": "a"}`:         `invalid value "a" for member "tags" of --input-json: expected an array`,
		`{"query": "x"}`:                 `missing required flag --id`,
	} {
		if _, err := run(nil, obj); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", obj, err, want)
		} else if ExitCode(err) != exitUsage {
			t.Errorf("%s: exit %d", obj, ExitCode(err))
		}
	}
	for in, want := range map[string]string{
		`[1]`:         "expected one JSON object, not an array",
		`"x"`:         "expected one JSON object, not a string",
		`{} {}`:       "more than one JSON value, or text after the object (the input is one object)",
		`{"a":`:       "not valid JSON: it ends before the object does",
		"{\n\"a\" 1}": "not valid JSON at line 2, column 5: invalid character '1' after object key",
		``:            "not valid JSON: empty",
	} {
		if _, err := DecodeInput([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("DecodeInput(%q) = %v, want %s", in, err, want)
		}
	}
}

func ExitCode(err error) int {
	var e interface{ ExitCode() int }
	if errors.As(err, &e) {
		return e.ExitCode()
	}
	return -1
}

// A JSON-valued flag without a string branch reads @file and @- through
// ReadRef; with a string branch "@x" stays the string.
func TestParseReadRef(t *testing.T) {
	c, err := Build(json.RawMessage(inputSchema), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	o := ParseOptions{ReadRef: func(flag, ref string) ([]byte, error) {
		asked = append(asked, flag+" "+ref)
		if ref == "bad" {
			return nil, errors.New("no such file")
		}
		return []byte(`{"k": [1, 2]}`), nil
	}}
	p, err := c.ParseWith([]string{"--id", "1", "--filter", "@f.json", "--note", "@n.json", "--query", "@q"}, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(p.JSON()); got != `{"filter":{"k":[1,2]},"id":1,"note":"@n.json","query":"@q"}` {
		t.Errorf("input %s", got)
	}
	if strings.Join(asked, ",") != "--filter f.json" {
		t.Errorf("asked %q", asked)
	}
	if _, err := c.ParseWith([]string{"--filter", "@bad"}, o); err == nil || err.Error() != "no such file" {
		t.Errorf("a failed read: %v", err)
	}
	// Without ReadRef, "@f.json" is text that is no JSON.
	if _, err := c.Parse([]string{"--filter", "@f.json"}); err == nil {
		t.Error("@f.json taken without a reader")
	}
}

func TestParseTimeout(t *testing.T) {
	for v, want := range map[string]string{"30s": "30s", "1m30s": "1m30s", "500ms": "500ms", "2": "2s", "0.25": "250ms"} {
		if d, err := ParseTimeout(v); err != nil || d.String() != want {
			t.Errorf("ParseTimeout(%q) = %v, %v", v, d, err)
		}
	}
	for v, want := range map[string]string{
		"0": `the duration must be more than 0, not "0"`, "-1": `the duration must be more than 0, not "-1"`,
		"-2s": `the duration must be more than 0, not "-2s"`, "abc": `expected a duration such as 30s, 2m or 1m30s, not "abc"`,
		"NaN": `expected a duration such as 30s, 2m or 1m30s, not "NaN"`, "1e300": `"1e300" seconds is too long`,
	} {
		if _, err := ParseTimeout(v); err == nil || err.Error() != want {
			t.Errorf("ParseTimeout(%q) = %v, want %s", v, err, want)
		}
	}
}

// A null in --input-json where the schema takes null (a nullable member,
// ["string","null"] or anyOf [T, null], an array's nullable items) is
// merged as null: it is what :replay writes for a recorded null no flag
// reads, and it was refused ("expected a string"). Where the schema takes
// no null it is still refused.
func TestMergeInputNullable(t *testing.T) {
	c, err := Build(json.RawMessage(`{"type":"object","properties":{
 "since":{"type":["string","null"]},"n":{"anyOf":[{"type":"integer"},{"type":"null"}]},
 "tags":{"type":"array","items":{"type":["string","null"]}},"q":{"type":"string"}}}`), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	merge := func(obj string) (string, error) {
		p, err := c.Parse(nil)
		if err != nil {
			return "", err
		}
		base, err := DecodeInput([]byte(obj))
		if err != nil {
			return "", err
		}
		if err := c.Merge(p, base); err != nil {
			return "", err
		}
		return string(p.JSON()), c.Validate(p)
	}
	in := `{"n":null,"since":null,"tags":["a",null]}`
	if got, err := merge(in); err != nil || got != in {
		t.Errorf("%s: %s, %v", in, got, err)
	}
	if _, err := merge(`{"q":null}`); err == nil || err.Error() != `invalid value "null" for member "q" of --input-json: expected a string` {
		t.Errorf(`{"q":null}: %v`, err)
	}
}

package generated

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/testcorpus"
)

// TestUnionTyped: a union of scalars sends null, true, false and JSON
// numbers typed when one of its types takes them, a JSON-quoted string as
// that string, and anything else as the text when a string is allowed
// (docs/mapping.md#values). The shapes are those of testdata/schemas (type
// lists, oneOf and anyOf, an enum or const branch, a nested nullable) and
// the one real servers send for SQL parameters and spreadsheet cells.
func TestUnionTyped(t *testing.T) {
	schema := `{"properties":{
		"sql":{"type":"array","items":{"type":["string","number","boolean","null"]}},
		"ref":{"type":["integer","string"]},
		"on":{"type":["boolean","string"]},
		"size":{"oneOf":[{"type":"integer"},{"type":"string","enum":["small","large"]}]},
		"when":{"anyOf":[{"const":"latest"},{"type":"string","format":"date"}]},
		"cell":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"boolean"},{"type":"null"}]},
		"count":{"type":["integer","boolean"]},
		"num":{"type":["integer","number"]},
		"opt":{"anyOf":[{"type":["string","null"]},{"type":"integer"}]},
		"text":{"type":["string","null"]},
		"n":{"type":["integer","null"]}
	}}`
	c := mustBuild(t, schema, BuildOptions{})
	for _, tt := range []struct {
		args []string
		want string // the input JSON, or the error
	}{
		{[]string{"--sql", "41", "--sql", "null", "--sql", `"41"`, "--sql", "true", "--sql", "x y"}, `{"sql":[41,null,"41",true,"x y"]}`},
		{[]string{"--sql", "4.50", "--sql", "1e3", "--sql", "-7", "--sql", "007", "--sql", "+7", "--sql", `"null"`}, `{"sql":[4.50,1e3,-7,"007","+7","null"]}`},
		{[]string{"--sql", `"`, "--sql", `""`, "--sql", `"a" "b"`, "--sql", "", "--sql", "NULL", "--sql", "True"}, `{"sql":["\"","","\"a\" \"b\"","","NULL","True"]}`},
		{[]string{"--ref", "41"}, `{"ref":41}`},
		{[]string{"--ref", `"41"`}, `{"ref":"41"}`},
		{[]string{"--ref", "1e3"}, `{"ref":"1e3"}`},
		{[]string{"--ref", "1.0"}, `{"ref":"1.0"}`},
		{[]string{"--ref", "9223372036854775808"}, `{"ref":"9223372036854775808"}`},
		{[]string{"--ref", "-9223372036854775808"}, `{"ref":-9223372036854775808}`},
		{[]string{"--ref", "null"}, `{"ref":"null"}`},
		{[]string{"--ref=-3"}, `{"ref":-3}`},
		{[]string{"--on", "false"}, `{"on":false}`},
		{[]string{"--on", `"false"`}, `{"on":"false"}`},
		{[]string{"--on", "7"}, `{"on":"7"}`},
		{[]string{"--size", "3"}, `{"size":3}`},
		{[]string{"--size", "small"}, `{"size":"small"}`},
		{[]string{"--size", `"small"`}, `{"size":"small"}`},
		{[]string{"--size", "medium"}, `invalid value "medium" for --size: expected an integer or one of small, large`},
		{[]string{"--size", `"3"`}, `invalid value "\"3\"" for --size: expected an integer or one of small, large`},
		{[]string{"--when", "latest"}, `{"when":"latest"}`},
		{[]string{"--when", "2024-01-02"}, `{"when":"2024-01-02"}`},
		{[]string{"--cell", "null", "--count", "5"}, `{"cell":null,"count":5}`},
		{[]string{"--cell", "2.5"}, `{"cell":2.5}`},
		{[]string{"--count", "true"}, `{"count":true}`},
		{[]string{"--count", "x"}, `invalid value "x" for --count: expected an integer or true or false`},
		{[]string{"--count", "1.5"}, `invalid value "1.5" for --count: expected an integer or true or false`},
		{[]string{"--count", `"5"`}, `invalid value "\"5\"" for --count: expected an integer or true or false`},
		{[]string{"--num", "5"}, `{"num":5}`},
		{[]string{"--num", "5.0"}, `{"num":5.0}`},
		{[]string{"--num", "1e400"}, `{"num":1e400}`},
		{[]string{"--opt", "null"}, `{"opt":null}`},
		{[]string{"--opt", "12"}, `{"opt":12}`},
		{[]string{"--opt", "twelve"}, `{"opt":"twelve"}`},
		// A two-branch nullable is its one type: unchanged.
		{[]string{"--text", "null", "--n", "7"}, `{"n":7,"text":"null"}`},
		{[]string{"--n", "null"}, `invalid value "null" for --n: expected an integer`},
	} {
		p, err := c.Parse(tt.args)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = string(p.JSON())
		}
		if got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.args, got, tt.want)
		}
	}
	for flag, want := range map[string]string{
		"--sql": "<string|number|boolean|null>", "--ref": "<integer|string>", "--on": "<boolean|string>",
		"--size": "<integer|small|large>", "--when": "<latest|string>", "--cell": "<string|number|boolean|null>",
		"--count": "<integer|boolean>", "--num": "<integer|number>", "--opt": "<string|integer|null>",
		"--text": "<string>", "--n": "<integer>",
	} {
		if got := c.Lookup(flag).Placeholder; got != want {
			t.Errorf("%s placeholder %s, want %s", flag, got, want)
		}
	}
}

// TestEnumOfConsts: a oneOf (or anyOf) whose branches are each a const or
// an enum is one enum: its placeholder lists the values, a value outside
// them is refused, and a value is sent in its own type.
func TestEnumOfConsts(t *testing.T) {
	c := mustBuild(t, `{"properties":{
		"mode":{"type":"string","oneOf":[{"const":"fast","title":"Fast"},{"const":"safe","title":"Safe"}]},
		"level":{"anyOf":[{"const":1},{"const":2},{"enum":[3,1]},{"type":"null"}]}
	}}`, BuildOptions{})
	mode, level := c.Lookup("--mode"), c.Lookup("--level")
	if mode.Type != "enum" || mode.Placeholder != "<fast|safe>" || len(mode.Enum) != 2 {
		t.Errorf("--mode: %s %s %s", mode.Type, mode.Placeholder, mode.Enum)
	}
	if level.Type != "enum" || level.Placeholder != "<1|2|3>" {
		t.Errorf("--level: %s %s", level.Type, level.Placeholder)
	}
	p, err := c.Parse([]string{"--mode", "safe", "--level", "2"})
	if err != nil || string(p.JSON()) != `{"level":2,"mode":"safe"}` {
		t.Errorf("parse: %v %s", err, p.JSON())
	}
	if _, err := c.Parse([]string{"--mode", "slow"}); err == nil || err.Error() != `invalid value "slow" for --mode: expected one of fast, safe` {
		t.Errorf("--mode slow: %v", err)
	}
}

// unionProbes are the texts every union flag of the schemas is tried with.
var unionProbes = []string{
	"null", "true", "false", "41", "-41", "0", "-0", "4.5", "1e3", "1.0", "007", "+7",
	"9223372036854775807", "9223372036854775808", `"41"`, `"null"`, `"true"`, `""`, `"`,
	"", "text", "two words", "NULL", `{"a":1}`, "[1]",
}

var wholeNumber = regexp.MustCompile(`^-?[0-9]+$`)

// TestUnionRuleCorpus holds every union of scalars in testdata/schemas and
// the real corpus to the rule, probe by probe: null is sent as null exactly
// when the union takes null; a JSON-quoted string is sent as that string or
// refused, never as another type; true, false and numbers are sent typed
// exactly when a branch takes them (an integer branch a whole number within
// int64); any other text goes as itself or is refused. And every value sent
// comes back the same when written as its text (a string that could read as
// another type in JSON quotes) and read again.
func TestUnionRuleCorpus(t *testing.T) {
	testcorpus.Each(t, func(t *testing.T, set testcorpus.Set) {
		unions, shapes := 0, map[string]bool{}
		for _, file := range testcorpus.Files(t, set.Dir) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var def struct {
				InputSchema json.RawMessage `json:"inputSchema"`
			}
			if json.Unmarshal(b, &def) != nil {
				continue
			}
			c, err := Build(def.InputSchema, BuildOptions{})
			if err != nil {
				continue
			}
			for _, f := range c.Flags {
				s := f.spec
				if s.kind == vArray {
					s = s.item
				}
				if s.kind != vUnion {
					continue
				}
				unions++
				shapes[f.Placeholder] = true
				checkUnionRule(t, file+" "+f.Name, s)
			}
		}
		if set.Name == "testdata" && unions == 0 {
			t.Fatal("no union of scalars in testdata/schemas")
		}
		t.Logf("%d union flags, %d shapes", unions, len(shapes))
	})
}

func checkUnionRule(t *testing.T, where string, s *valueSpec) {
	t.Helper()
	has := map[vkind]bool{}
	for _, b := range s.branches {
		has[b.kind] = true
	}
	for _, text := range unionProbes {
		v, ok := s.convert(text)
		switch {
		case text == "null" && s.null:
			if !ok || v != nil {
				t.Errorf("%s: null sent as %#v", where, v)
			}
			continue
		case len(text) >= 2 && text[0] == '"' && json.Valid([]byte(text)):
			var str string
			_ = json.Unmarshal([]byte(text), &str)
			if ok && v != str {
				t.Errorf("%s: %s sent as %#v", where, text, v)
			}
			if !ok && (has[vString] || has[vJSON]) {
				t.Errorf("%s: %s refused though a string branch takes it", where, text)
			}
		case text == "true" || text == "false":
			if has[vBoolean] && (!ok || v != (text == "true")) {
				t.Errorf("%s: %s sent as %#v", where, text, v)
			}
		case isJSONNumber(text):
			_, fits := strconv.ParseInt(text, 10, 64)
			typed := has[vNumber] || has[vInteger] && wholeNumber.MatchString(text) && fits == nil
			if n, isNum := v.(json.Number); typed && (!ok || !isNum || string(n) != text) {
				t.Errorf("%s: %s sent as %#v, want the number", where, text, v)
			}
			if _, isNum := v.(json.Number); !typed && ok && isNum && !has[vEnum] {
				t.Errorf("%s: %s sent as a number though no branch takes it", where, text)
			}
		default:
			if has[vString] && (!ok || v != text) {
				t.Errorf("%s: %q sent as %#v", where, text, v)
			}
		}
		if !ok {
			continue
		}
		back, ok := s.convert(unionWord(v))
		if !ok || string(marshalCompact(back)) != string(marshalCompact(v)) {
			t.Errorf("%s: %s → %s → %q → %#v (%v)", where, text, marshalCompact(v), unionWord(v), back, ok)
		}
	}
}

// unionWord writes a union value as a command-line word: a string that
// could read as null, a boolean, a number or a quoted string in JSON
// quotes, anything else as its text.
func unionWord(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if x == "null" || x == "true" || x == "false" || isJSONNumber(x) || strings.HasPrefix(x, `"`) {
			return string(marshalCompact(x))
		}
		return x
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	}
	return string(marshalCompact(v))
}

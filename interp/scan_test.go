package interp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func elements(raw string) ([]string, error) {
	var out []string
	err := eachElement([]byte(raw), func(s, e int) bool {
		out = append(out, raw[s:e])
		return true
	})
	return out, err
}

func TestEachElement(t *testing.T) {
	cases := []struct {
		raw  string
		want string // elements joined by " | "
	}{
		{`[]`, ""},
		{" [ \n ] ", ""},
		{`[1]`, "1"},
		{`[ 1 , -2.5e3,true, null ,"x"]`, `1 | -2.5e3 | true | null | "x"`},
		{`["a,b]", "c\"]d", "\\", "}{"]`, `"a,b]" | "c\"]d" | "\\" | "}{"`},
		{`[{"a":[1,{"b":"]"}]}, [[], {}], {"k": "v\\"}]`, `{"a":[1,{"b":"]"}]} | [[], {}] | {"k": "v\\"}`},
		{"[\"日本\", \"é\"]", `"日本" | "é"`},
	}
	for _, tc := range cases {
		got, err := elements(tc.raw)
		if err != nil {
			t.Errorf("%s: %v", tc.raw, err)
			continue
		}
		if s := strings.Join(got, " | "); s != tc.want {
			t.Errorf("%s: elements %q, want %q", tc.raw, s, tc.want)
		}
	}
	for _, bad := range []string{``, `{}`, `[`, `[1`, `[1,`, `[1 2]`, `[,1]`, `["a]`, `[{"a":1]`, `[1]x`, `[] ]`, `[}`} {
		if _, err := elements(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestCompactAndCount(t *testing.T) {
	cases := []struct {
		raw, compact string
		words        int
	}{
		{`{ "a" : [ 1 , 2 ] }`, `{"a":[1,2]}`, 1},
		{`"a b\tc"`, `"a b\tc"`, 2},
		{`{"k": "x  y", "z": "q\" r"}`, `{"k":"x  y","z":"q\" r"}`, 3},
		{`"a\\" , `[:6], `"a\\"`, 1},
		{"\"a\u00a0b\"", "\"a\u00a0b\"", 2},
	}
	for _, tc := range cases {
		if got := string(appendCompact(nil, []byte(tc.raw))); got != tc.compact {
			t.Errorf("appendCompact(%s) = %s, want %s", tc.raw, got, tc.compact)
		}
		w, n := countCompact([]byte(tc.raw))
		if w != tc.words || n != len(tc.compact) {
			t.Errorf("countCompact(%s) = %d words %d bytes, want %d %d", tc.raw, w, n, tc.words, len(tc.compact))
		}
	}
}

// FuzzElements checks the token-level scanner against encoding/json: on a valid
// array it finds the same elements with the same compact form; on anything it
// never panics.
func FuzzElements(f *testing.F) {
	for _, s := range []string{`[]`, `[1,"a,b",{"x":[1,2]}]`, `["\"]", "\\"]`, `[ {"a" : "b c"} , null ]`, `[1 2]`, `[`, `{}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var n int
		var compact bytes.Buffer
		err := eachElement([]byte(raw), func(s, e int) bool {
			n++
			if compact.Len() > 0 {
				compact.WriteByte(',')
			}
			compact.Write(appendCompact(nil, []byte(raw[s:e])))
			countCompact([]byte(raw[s:e]))
			return true
		})
		var want []json.RawMessage
		if !strings.HasPrefix(strings.TrimLeft(raw, " \t\r\n"), "[") || json.Unmarshal([]byte(raw), &want) != nil {
			return // not a valid array: any answer but a panic will do
		}
		if err != nil {
			t.Fatalf("%q: valid array rejected: %v", raw, err)
		}
		if n != len(want) {
			t.Fatalf("%q: %d elements, want %d", raw, n, len(want))
		}
		var std bytes.Buffer
		for i, w := range want {
			if i > 0 {
				std.WriteByte(',')
			}
			if err := json.Compact(&std, w); err != nil {
				t.Fatal(err)
			}
		}
		if compact.String() != std.String() {
			t.Fatalf("%q: compact %q, want %q", raw, compact.String(), std.String())
		}
	})
}

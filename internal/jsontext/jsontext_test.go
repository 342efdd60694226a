package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// reference is what Unquote must give: a token without escapes as it is,
// else encoding/json's decoding.
func reference(raw []byte) string {
	if len(raw) < 2 {
		return ""
	}
	if !bytes.Contains(raw, []byte(`\`)) {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return string(raw[1 : len(raw)-1])
	}
	return s
}

// TestUnquoteMatchesEncodingJSON: escapes, surrogate pairs, lone surrogates
// and invalid UTF-8 included.
func TestUnquoteMatchesEncodingJSON(t *testing.T) {
	for _, tok := range []string{
		`""`, `"plain"`, `"a\nb"`, `"\"q\" \\ \/ \b\f\n\r\t"`,
		`"\u00e9\u4e2d"`, `"\ud83d\ude00 smile"`, `"\ud83d alone"`, `"\ude00 low"`,
		`"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`, `"\uD83D\uDE00"`, "\"bad \xff utf8 \\n\"",
		"\"\xed\xa0\x80 surrogate bytes \\t\"", "\"é\\nü\xc3\"", `"\u0000nul"`,
		`"tail\\"`, "\"" + strings.Repeat("line\\n", 1000) + "\"",
	} {
		if got, want := Unquote([]byte(tok)), reference([]byte(tok)); got != want {
			t.Errorf("Unquote(%q) = %q, want %q", tok, got, want)
		}
		var std string
		if json.Unmarshal([]byte(tok), &std) == nil {
			if got := UnquoteValid([]byte(tok)); got != std {
				t.Errorf("UnquoteValid(%q) = %q, want %q", tok, got, std)
			}
		}
	}
}

func FuzzUnquote(f *testing.F) {
	f.Add("a\nb\u00e9\U0001F600\\\"")
	f.Add("\xff\xfe")
	f.Fuzz(func(t *testing.T, s string) {
		raw, _ := json.Marshal(s)
		for _, tok := range []string{string(raw), strings.ReplaceAll(string(raw), `\\`, `\ud800`)} {
			if _, ok := StringEnd([]byte(tok), 0); !ok {
				continue
			}
			if got, want := Unquote([]byte(tok)), reference([]byte(tok)); got != want {
				t.Fatalf("Unquote(%q) = %q, want %q", tok, got, want)
			}
		}
	})
}

func FuzzPlainLen(f *testing.F) {
	f.Add([]byte("abcdefgh\"ijklmnop\\q\x01"))
	f.Fuzz(func(t *testing.T, p []byte) {
		want := 0
		for want < len(p) && p[want] != '"' && p[want] != '\\' && p[want] >= 0x20 {
			want++
		}
		if got := plainLen(p); got != want {
			t.Fatalf("plainLen(%q) = %d, want %d", p, got, want)
		}
	})
}

func FuzzHasControl(f *testing.F) {
	f.Add([]byte("sixteen bytes ok and then \x1f"))
	f.Add([]byte("\x00"))
	f.Fuzz(func(t *testing.T, p []byte) {
		want := bytes.ContainsFunc(p, func(r rune) bool { return r < 0x20 })
		if got := HasControl(p); got != want {
			t.Fatalf("HasControl(%q) = %v, want %v", p, got, want)
		}
	})
}

// TestParseErrors: the errors are encoding/json's words with an offset.
func TestParseErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{``, "unexpected end of JSON"},
		{`{"properties":`, "unexpected end of JSON"},
		{`{"a":}`, "invalid character '}' looking for beginning of value at offset 5"},
		{`{"a" 1}`, "invalid character '1' after object key at offset 5"},
		{`[1 2]`, "invalid character '2' after array element at offset 3"},
		{`{"a":1 "b":2}`, "invalid character '\"' after object key:value pair at offset 7"},
		{`{1:2}`, "invalid character '1' looking for beginning of object key string at offset 1"},
		{`"\x"`, "invalid character 'x' in string escape code at offset 2"},
		{`"\u12g4"`, "invalid character 'g' in \\u hexadecimal character escape at offset 5"},
		{`"\u12`, "unexpected end of JSON"},
		{"\"a\nb\"", "invalid character '\\n' in string literal at offset 2"},
		{`-`, "invalid character '-' in number at offset 0"},
		{`tru`, "invalid character 't' looking for beginning of value at offset 0"},
		{`1 2`, "unexpected data after the JSON value at offset 2"},
		{strings.Repeat("[", 9) + strings.Repeat("]", 9), "JSON nested more than 8 levels"},
	}
	for _, tc := range cases {
		_, err := ParseTree([]byte(tc.in), 8)
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseTree(%q) error = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestParseTree(t *testing.T) {
	v, err := ParseTree([]byte(` {"z": [1, "é\u00e9", true, null, {}, []], "a": -1.5e3, "z": false} `), 10)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(v.Keys, ",") != "z,a,z" || v.Field("a").Kind != Number || string(v.Field("a").Raw) != "-1.5e3" {
		t.Fatalf("keys %q, a %+v", v.Keys, v.Field("a"))
	}
	arr := v.Field("z")
	var kinds []Kind
	for _, e := range arr.Vals {
		kinds = append(kinds, e.Kind)
	}
	if len(kinds) != 6 || kinds[1] != String || arr.Vals[1].Str() != "éé" || kinds[4] != Object || kinds[5] != Array {
		t.Errorf("array %q kinds %v", arr.Raw, kinds)
	}
	if string(v.Raw) != `{"z": [1, "é\u00e9", true, null, {}, []], "a": -1.5e3, "z": false}` {
		t.Errorf("raw %q", v.Raw)
	}
}

// FuzzParse: Parse accepts exactly what encoding/json accepts, never panics,
// and keeps every member in order.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"x\u00e9"`, `[1e5, -0.5, true]`, `{"a":1,"a":2}`, "\"\xff\"", `{"a" 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseTree(data, 10000)
		if (err == nil) != json.Valid(data) {
			t.Fatalf("ParseTree(%q) error %v; json.Valid %v", data, err, json.Valid(data))
		}
		if err == nil && !bytes.Equal(v.Raw, bytes.TrimSpace(data)) {
			t.Fatalf("ParseTree(%q) raw %q", data, v.Raw)
		}
		if Valid(data, 10000) != (err == nil) {
			t.Fatalf("Valid(%q) = %v, ParseTree's error %v", data, !(err == nil), err)
		}
		for _, depth := range []int{1, 2} {
			_, derr := ParseTree(data, depth)
			if Valid(data, depth) != (derr == nil) {
				t.Fatalf("Valid(%q, %d) differs from ParseTree's %v", data, depth, derr)
			}
		}
	})
}

func TestSpanEnd(t *testing.T) {
	data := []byte(`{"a": [1, {"b": "]"}], "c": "x\"y", "d": 12}`)
	for _, tc := range []struct {
		at, want int
	}{{6, 21}, {28, 34}, {41, 43}} {
		if got, ok := SpanEnd(data, tc.at); !ok || got != tc.want {
			t.Errorf("SpanEnd(%d) = %d %v, want %d", tc.at, got, ok, tc.want)
		}
	}
	if _, ok := SpanEnd([]byte(`"abc`), 0); ok {
		t.Error("SpanEnd of an open string")
	}
	if _, ok := StringEnd([]byte(`x"`), 0); ok {
		t.Error("StringEnd of a token that is no string")
	}
}

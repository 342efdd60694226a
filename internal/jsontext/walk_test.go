package jsontext

import (
	"encoding/json"
	"strings"
	"testing"
)

var walkCases = []string{
	`null`, `true`, `false`, `0`, `-1.5e+3`, `"s"`, `"a\"b\u00e9"`, `[]`, `{}`, ` [ 1 , "x" , [ ] , { } ] `,
	`{"a":1,"b":[true,null,{"c":"d"}]}`, `{"a" : { "b" : [ 1 , 2 ] } }`,
	`[1,]`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{1:2}`, `[1 2]`, `["a`, `"a`, `tru`, `nul`, `01`, `1.`, `-`,
	`{"a":1`, `[`, `{`, `]`, `}`, `,`, ``, ` `, "\"a\tb\"", `"\x"`, `[1]]`, `{"a":1}}`,
}

// valueEndValid is what ValueEnd must say: the value runs to the end of
// the text (white space aside) exactly when encoding/json finds it valid.
func valueEndValid(data []byte) bool {
	end, ok := ValueEnd(data, 0, 100)
	return ok && SkipSpace(data, end) == len(data)
}

func TestValueEndAgreesWithValid(t *testing.T) {
	for _, c := range append(walkCases, strings.Repeat("[", 50)+strings.Repeat("]", 50)) {
		if got, want := valueEndValid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("ValueEnd(%q) accepts %v, json.Valid %v", c, got, want)
		}
	}
	deep := strings.Repeat("[", 101) + strings.Repeat("]", 101)
	if _, ok := ValueEnd([]byte(deep), 0, 100); ok {
		t.Error("ValueEnd read past its depth")
	}
	if end, ok := ValueEnd([]byte(`{"a":[1,2]} ,"rest"`), 0, 10); !ok || end != 11 {
		t.Errorf("ValueEnd of a prefix = %d %v", end, ok)
	}
}

// TestMembersAndElements: each member's key token and value, in order.
func TestMembersAndElements(t *testing.T) {
	data := []byte(` { "a" : 1 , "b\u0062" : [ "x" , null ] } `)
	var got []string
	end, ok := Members(data, 0, func(key []byte, start int) (int, bool) {
		e, ok := ValueEnd(data, start, 10)
		got = append(got, string(key)+"="+string(data[start:e]))
		return e, ok
	})
	if !ok || end != len(data)-1 || strings.Join(got, " ") != `"a"=1 "b\u0062"=[ "x" , null ]` {
		t.Errorf("Members = %d %v %q", end, ok, got)
	}
	got = nil
	arr := data[strings.Index(string(data), "["):]
	if _, ok := Elements(arr, 0, func(start int) (int, bool) {
		e, ok := ValueEnd(arr, start, 10)
		got = append(got, string(arr[start:e]))
		return e, ok
	}); !ok || strings.Join(got, "|") != `"x"|null` {
		t.Errorf("Elements = %v %q", ok, got)
	}
	refuse := func(int) (int, bool) { return 0, false }
	if _, ok := Elements([]byte(`[1]`), 0, refuse); ok {
		t.Error("Elements went on after elem refused")
	}
}

func FuzzValueEnd(f *testing.F) {
	for _, c := range walkCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := valueEndValid(data), json.Valid(data); got != want {
			t.Fatalf("ValueEnd(%q) accepts %v, json.Valid %v", data, got, want)
		}
	})
}

func TestMarshal(t *testing.T) {
	if b, err := Marshal(map[string]any{"q": "<a & b>", "n": 1}); err != nil || string(b) != `{"n":1,"q":"<a & b>"}` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
	if b := MarshalOrNull(func() {}); string(b) != "null" {
		t.Errorf("MarshalOrNull(func) = %s", b)
	}
}

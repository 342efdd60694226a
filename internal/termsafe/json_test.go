package termsafe

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

func TestUnsafe(t *testing.T) {
	for _, r := range []rune{0, '\n', '\t', 0x1b, 0x7f, 0x80, 0x9b, 0x9f, 0x202e, 0x200b, 0x2066, 0xfeff, 0xe0041} {
		if !Unsafe(r) {
			t.Errorf("Unsafe(%U) = false", r)
		}
	}
	for _, r := range []rune{' ', 'a', '~', 0xa0, 'é', 0x200c, 0x200d, 0x2028, '世', 0x1f600} {
		if Unsafe(r) {
			t.Errorf("Unsafe(%U) = true", r)
		}
	}
	// String escapes exactly the Unsafe runes but newline and tab.
	for r := rune(0); r < 0x3000; r++ {
		s := string(r)
		if got, want := !Clean(s), Unsafe(r) && r != '\n' && r != '\t'; got != want {
			t.Fatalf("Clean(%U) disagrees with Unsafe", r)
		}
	}
}

func TestAppendJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":1,"b":[true,null]}`, `{"a":1,"b":[true,null]}`},
		{"{\"t\":\"x\u202ey\"}", `{"t":"x\u202ey"}`},
		{"[\"\u200b\u2066\ufeff\"]", `["\u200b\u2066\ufeff"]`},
		{"\"\u0085\x7f\"", `"\u0085\u007f"`},
		{"\"tag\U000e0041\"", `"tag\udb40\udc41"`},
		{"\"bad\xff\"", `"bad\ufffd"`},
		{`"kept \u001b \" \\"`, `"kept \u001b \" \\"`},
		{"\"é 世 \u200d \U0001f600\"", "\"é 世 \u200d \U0001f600\""},
		{"{\"k\u202e\":\"v\"}", `{"k\u202e":"v"}`},
		// Not JSON: the same characters are escaped wherever they are.
		{"\u202e{\"cut", `\u202e{"cut`},
		{"\"\\\u202e\"", `"\\u202e"`},
	} {
		if got := string(AppendJSON(nil, []byte(c.in))); got != c.want {
			t.Errorf("AppendJSON(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	quote := func(r rune) bool { return r == '\'' }
	if got := string(AppendJSONFunc(nil, []byte(`{"it's":"it's"}`), quote)); got != `{"it\u0027s":"it\u0027s"}` {
		t.Errorf("AppendJSONFunc = %s", got)
	}
	out, end := AppendJSONString([]byte("x"), []byte("\"a\u202e\",1"), 0)
	if string(out) != `x"a\u202e"` || end != 5 {
		t.Errorf("AppendJSONString = %s, %d", out, end)
	}
}

// FuzzAppendJSON: valid JSON stays valid, holds the same value (invalid
// UTF-8 read as U+FFFD either way), and holds no Unsafe character; any input
// comes out without one.
func FuzzAppendJSON(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, "[\"\u202e\",\"\x1b[2J\"]", "\"\xff\xfe\"", `"\u00"`, "\"\\\u0085\"", "{\"\U000e0041\":1}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		out := AppendJSON(nil, raw)
		for i := 0; i < len(out); {
			r, size := utf8.DecodeRune(out[i:])
			if r == utf8.RuneError && size <= 1 {
				t.Fatalf("AppendJSON(%q) holds a byte that is not UTF-8: %q", raw, out)
			}
			if Unsafe(r) && r != '\n' && r != '\t' && r != '\r' {
				t.Fatalf("AppendJSON(%q) holds %U raw: %q", raw, r, out)
			}
			i += size
		}
		if bytes.ContainsAny(raw, "\n\t\r") {
			return // white space between tokens is kept
		}
		var before, after any
		if json.Unmarshal(raw, &before) != nil {
			return
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("AppendJSON(%q) = %q, not JSON: %v", raw, out, err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("AppendJSON(%q) = %q: %v, want %v", raw, out, after, before)
		}
	})
}

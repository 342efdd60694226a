package render

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestUnquoteMatchesEncodingJSON: the one-pass string decoding FromResult
// uses gives what decodeJSONString (encoding/json) gives, escapes, surrogate
// pairs, lone surrogates and invalid UTF-8 included.
func TestUnquoteMatchesEncodingJSON(t *testing.T) {
	for _, tok := range []string{
		`""`, `"plain"`, `"a\nb"`, `"\"q\" \\ \/ \b\f\n\r\t"`,
		`"\u00e9\u4e2d"`, `"\ud83d\ude00 smile"`, `"\ud83d alone"`, `"\ude00 low"`,
		`"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`, `"\uD83D\uDE00"`, "\"bad \xff utf8 \\n\"",
		"\"\xed\xa0\x80 surrogate bytes \\t\"", "\"é\\nü\xc3\"", `"\u0000nul"`,
		`"tail\\"`, "\"" + strings.Repeat("line\\n", 1000) + "\"",
	} {
		got := unquote([]byte(tok))
		if want := decodeJSONString([]byte(tok)); got != want {
			t.Errorf("unquote(%q) = %q, want %q", tok, got, want)
		}
	}
}

func FuzzUnquote(f *testing.F) {
	f.Add("a\nb\u00e9\U0001F600\\\"")
	f.Add("\xff\xfe")
	f.Fuzz(func(t *testing.T, s string) {
		raw, _ := json.Marshal(s)
		for _, tok := range []string{string(raw), strings.ReplaceAll(string(raw), `\\`, `\ud800`)} {
			if _, err := parseJSON([]byte(tok)); err != nil {
				continue
			}
			if got, want := unquote([]byte(tok)), decodeJSONString([]byte(tok)); got != want {
				t.Fatalf("unquote(%q) = %q, want %q", tok, got, want)
			}
		}
	})
}

// TestFromResultBigText: a big string result that is not JSON stays text,
// byte for byte, whether or not it has escapes.
func TestFromResultBigText(t *testing.T) {
	text := strings.Repeat("     1|log line \"quoted\" é\tof the big file\n", 20000)
	raw, _ := json.Marshal(text)
	v := FromResult(raw)
	if v.IsJSON || v.Text != text {
		t.Fatalf("FromResult: IsJSON=%v, text equal=%v", v.IsJSON, v.Text == text)
	}
	raw, _ = json.Marshal("  \n[1, 2]\n")
	if v := FromResult(raw); !v.IsJSON || string(v.JSON) != "[1, 2]" {
		t.Fatalf("JSON text: %+v", v)
	}
}

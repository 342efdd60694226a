package render

import (
	"bytes"
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

// TestFromResultStringFastPath: a string result is read as parseJSON reads
// it (bad tokens are text as received), whatever the byte that stops the
// eight-byte scan and wherever it falls in a word.
func TestFromResultStringFastPath(t *testing.T) {
	for pad := 0; pad < 9; pad++ {
		p := strings.Repeat("x", pad)
		for _, tok := range []string{
			`"` + p + `"`, `"` + p + `\n` + p + `"`, `"` + p + `\u00e9"`, `"` + p + "é\xff" + `"`,
			`"` + p + "\x01" + `"`, `"` + p + "\x1f" + p + `"`, `"` + p + `\x"`, `"` + p + `\u12"`,
			`"` + p, `"` + p + `\`, `"` + p + `" trailing`, `"` + p + `""`, `"` + p + "\x7f\x80\x20" + `"`,
			` "[1, ` + p + `2]" `, `"{\"a\":` + p + `1}"`,
		} {
			got := FromResult([]byte(tok))
			var want Value
			if n, err := parseJSON(bytes.TrimSpace([]byte(tok))); err != nil {
				want = Value{Text: tok}
			} else {
				want = fromNode(n, true)
			}
			if got.Text != want.Text || string(got.JSON) != string(want.JSON) || got.IsJSON != want.IsJSON {
				t.Errorf("FromResult(%q) = %+v, want %+v", tok, got, want)
			}
		}
	}
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

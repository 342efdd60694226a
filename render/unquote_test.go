package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

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

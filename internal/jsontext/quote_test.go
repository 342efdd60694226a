package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// stdString is encoding/json's encoding of s, with or without HTML escaping.
func stdString(t testing.TB, s string, escapeHTML bool) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

var quoteCases = []string{
	"", "plain", "a\nb\tc\rd\be\ff", `"quoted" \ back\slash`, "<a href=\"x\">&amp;</a>",
	"\x00\x01\x1f\x7f", "é中\U0001F600", "bad \xff utf8 \xc3", "\xed\xa0\x80 surrogate bytes",
	"line\u2028para\u2029end", "/slash", strings.Repeat("x<y\n", 100),
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range quoteCases {
		for _, html := range []bool{true, false} {
			if got, want := AppendString([]byte("pre"), s, html), append([]byte("pre"), stdString(t, s, html)...); !bytes.Equal(got, want) {
				t.Errorf("AppendString(%q, html %v) = %s, want %s", s, html, got, want)
			}
		}
		if got, _ := Marshal(s); !bytes.Equal(got, stdString(t, s, false)) {
			t.Errorf("Marshal(%q) = %s", s, got)
		}
	}
	for _, b := range []bool{true, false} {
		if got, _ := Marshal(b); string(got) != map[bool]string{true: "true", false: "false"}[b] {
			t.Errorf("Marshal(%v) = %s", b, got)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range quoteCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, html := range []bool{true, false} {
			if got, want := AppendString(nil, s, html), stdString(t, s, html); !bytes.Equal(got, want) {
				t.Fatalf("AppendString(%q, html %v) = %s, want %s", s, html, got, want)
			}
		}
	})
}

package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/termsafe"
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

// termString is encoding/json's encoding of s without HTML escaping, then
// every character termsafe.Unsafe reports (DEL, C1, bidi, zero-width and
// tag characters) as \u escapes: what EscapeTerminal writes.
func termString(t testing.TB, s string) []byte {
	std := stdString(t, s, false)
	var b []byte
	for _, r := range string(std[1 : len(std)-1]) {
		if r >= 0x7f && termsafe.Unsafe(r) {
			// DEL, C1, bidi, zero-width and tag characters; past the basic
			// plane as a surrogate pair, as JSON spells it.
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				b = fmt.Appendf(b, `\u%04x\u%04x`, hi, lo)
				continue
			}
			b = fmt.Appendf(b, `\u%04x`, r)
			continue
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

func TestAppendStringContentTerminal(t *testing.T) {
	for _, s := range append(quoteCases, "c1 \u009b31m del\x7f", "tab\there \u0085", "bidi \u202e\u061c zw\u200b tag\U000e0041 joiner\u200d") {
		if got, want := AppendStringContent([]byte("pre"), []byte(s), EscapeTerminal), append([]byte("pre"), termString(t, s)...); !bytes.Equal(got, want) {
			t.Errorf("AppendStringContent(%q, EscapeTerminal) = %s, want %s", s, got, want)
		}
		if got, want := AppendStringContent(nil, []byte(s), 0), stdString(t, s, false); !bytes.Equal(got, want[1:len(want)-1]) {
			t.Errorf("AppendStringContent(%q, 0) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendStringContent(f *testing.F) {
	for _, s := range quoteCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := AppendStringContent(nil, []byte(s), EscapeTerminal), termString(t, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendStringContent(%q, EscapeTerminal) = %s, want %s", s, got, want)
		}
	})
}

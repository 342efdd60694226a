package generated

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/termsafe"
)

// Writing a command line back (docs/mapping.md#from-an-input-to-a-command-line):
// the words of Argv quoted so that agsh's shell language
// (docs/shell.md#language) and a POSIX shell both read them back as the
// same words, and an input's JSON written so that it is safe on a
// terminal and inside single quotes.

// Quote quotes one word for agsh's shell and a POSIX shell alike: bare when
// it holds only letters, digits and _ - . / : , + @ % = (and does not start
// with a character either shell treats specially), else in single quotes,
// a single quote written '\” (the quote closed, an escaped quote, the quote
// opened again: both shells join the parts into one word). The empty word
// is ”.
func Quote(w string) string {
	if w == "" {
		return "''"
	}
	if bareWord(w) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// bareWord reports a word that needs no quoting in either shell.
func bareWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("_-./:,+@%=", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// QuoteFlag writes "--name=value" with the value quoted (Quote), the name
// bare when it can be: --query='status:alert env:prod'.
func QuoteFlag(name, value string) string {
	if bareWord(name) {
		return name + "=" + Quote(value)
	}
	return Quote(name + "=" + value)
}

// Line joins a command name and its words (Argv's, unquoted) into the line
// to type: each word quoted by Quote, except that a "--x=value" word keeps
// its name bare (QuoteFlag).
func Line(name string, words []string) string {
	var b strings.Builder
	b.WriteString(Quote(name))
	for _, w := range words {
		b.WriteByte(' ')
		if strings.HasPrefix(w, "-") {
			if n, v, ok := strings.Cut(w, "="); ok {
				b.WriteString(QuoteFlag(n, v))
				continue
			}
		}
		b.WriteString(Quote(w))
	}
	return b.String()
}

// Hazard reports a character that an input never carries on a command
// line (docs/mapping.md#from-an-input-to-a-command-line): a control
// character (C0, DEL, C1), a format character (bidi controls, zero-width
// characters, the byte-order mark, tag characters, the soft hyphen), a line
// or paragraph separator, a variation selector, and the invisible fillers
// (U+115F, U+1160, U+3164, U+FFA0). An input holding one is written as
// --input-json with the character \u-escaped.
func Hazard(r rune) bool {
	switch {
	case termsafe.Unsafe(r):
		return true
	case r < 0x7f:
		return false
	case r == utf8.RuneError:
		return true // invalid UTF-8 as decoded
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return true
	case unicode.Is(unicode.Variation_Selector, r):
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0:
		return true
	}
	return false
}

// hasHazard reports whether s holds a Hazard character or invalid UTF-8.
func hasHazard(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || Hazard(r) {
			return true
		}
		i += size - 1
	}
	return false
}

// SafeInputJSON writes compact JSON (valid, as encoding/json reads it) so
// that it can be shown on a terminal and pasted inside single quotes: every
// Hazard character in a string (and invalid UTF-8, as U+FFFD) and every
// single quote is written as a \u escape, everything else as received:
// the same JSON value, numbers as written.
func SafeInputJSON(compact []byte) []byte { return EscapeJSON(compact, true) }

// EscapeJSON is SafeInputJSON for any JSON text (white space kept), with
// single quotes kept unless quotes is set: JSON for a terminal, the one JSON
// form of termsafe (termsafe.AppendJSONFunc) with the hazards of a command
// line escaped too.
func EscapeJSON(compact []byte, quotes bool) []byte {
	also := Hazard
	if quotes {
		also = func(r rune) bool { return r == '\'' || Hazard(r) }
	}
	return termsafe.AppendJSONFunc(make([]byte, 0, len(compact)+16), compact, also)
}

// Package termsafe is the one escaping of text bound for a terminal
// (docs/rendering.md#terminal-safety): every control character but newline
// and tab, every byte that is not UTF-8, and the invisible characters that
// reorder or hide text (bidi controls, zero-width characters) come out as
// visible escapes. render, the development deployment's log and shell
// completion all use it, so that no path to a terminal escapes less than
// another.
package termsafe

import "unicode/utf8"

// String returns s safe for a terminal: a CR directly before an LF is
// dropped; any other C0 control but newline and tab (a lone CR included),
// DEL and the C1 controls are written `\x1b`, `\x7f`, `\u009b`; a byte that
// is not UTF-8 `\xff`; an invisible character (Invisible) `\u202e` (a tag
// character `\U000e0041`).
func String(s string) string {
	if Clean(s) {
		return s
	}
	return string(Append(make([]byte, 0, len(s)+16), s))
}

// Clean reports whether String leaves s as it is.
func Clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			continue
		}
		if c < utf8.RuneSelf {
			return false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || Unsafe(r) {
			return false
		}
		i += size - 1
	}
	return true
}

// Unsafe reports a character that never reaches a terminal as it is, by
// any path (the text view, JSON, an error line, a completion): a C0 control,
// DEL, a C1 control, or an Invisible character. String keeps newline and tab
// and drops the CR of a CRLF; JSON (AppendJSON) escapes every one.
func Unsafe(r rune) bool {
	return r < 0x20 || r >= 0x7f && r <= 0x9f || Invisible(r)
}

// Invisible reports the characters that are not controls but still reorder
// or hide text: the bidi embeddings, overrides, isolates and marks
// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the zero-width
// and invisible characters (U+180E, U+200B, U+2060–U+2064, U+FEFF), and the
// tag characters (U+E0000–U+E007F), which a terminal draws as nothing but
// which carry text a model reads (hidden instructions in a description).
// The joiners U+200C and U+200D stay: scripts and emoji need them.
func Invisible(r rune) bool {
	switch {
	case r < 0x061c:
		return false
	case r >= 0xe0000 && r <= 0xe007f:
		return true
	case r == 0x061c, r == 0x180e, r == 0x200b, r == 0x200e, r == 0x200f, r == 0xfeff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Append appends the safe form of s (String) to dst.
func Append(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f || c == '\n' || c == '\t':
			dst = append(dst, c)
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF: drop the CR, the LF follows.
		case c < utf8.RuneSelf:
			dst = appendByte(dst, c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size <= 1:
				dst = appendByte(dst, c)
			case Unsafe(r):
				dst = appendRune(dst, r)
				i += size - 1
			default:
				dst = append(dst, s[i:i+size]...)
				i += size - 1
			}
		}
	}
	return dst
}

// Line is String for one line of a log: a line break of any kind is
// written `\n` or `\r` too, so that nothing a client sends can forge a
// line of its own.
func Line(s string) string {
	clean := Clean(s)
	for i := 0; clean && i < len(s); i++ {
		clean = s[i] != '\n'
	}
	if clean {
		return s
	}
	dst := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			j := i
			for j < len(s) && s[j] != '\n' && s[j] != '\r' {
				j++
			}
			dst = Append(dst, s[i:j])
			i = j - 1
		}
	}
	return string(dst)
}

// Plain reports whether s is written to a terminal as it is and stands on
// one line: String leaves it, and it holds no newline or tab. Completion
// offers only plain candidates: an escaped name could not be called.
func Plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\t' {
			return false
		}
	}
	return Clean(s)
}

// OneLine is String with newlines and tabs as spaces: a description shown
// beside a candidate.
func OneLine(s string) string {
	b := []byte(String(s))
	for i, c := range b {
		if c == '\n' || c == '\t' {
			b[i] = ' '
		}
	}
	return string(b)
}

const hexDigits = "0123456789abcdef"

func appendByte(dst []byte, c byte) []byte {
	return append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
}

// appendRune writes r as `\u` and four hex digits, or, past the basic plane
// (the tag characters), as `\U` and eight.
func appendRune(dst []byte, r rune) []byte {
	if r > 0xffff {
		dst = append(dst, '\\', 'U')
		for shift := 28; shift >= 0; shift -= 4 {
			dst = append(dst, hexDigits[r>>shift&0xf])
		}
		return dst
	}
	return append(dst, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

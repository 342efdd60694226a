package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote decodes a string token (quotes included) in one pass over the
// runs between escapes: a 50 MB string is decoded at memory speed. A token
// without escapes is its bytes as they are (invalid UTF-8 is kept, for the
// caller to show as it sees fit); one with escapes is decoded as
// encoding/json does, invalid UTF-8 and lone surrogates as U+FFFD. A token
// StringEnd did not accept is decoded by encoding/json, or kept as it is.
func Unquote(raw []byte) string {
	if len(raw) < 2 {
		return ""
	}
	in := raw[1 : len(raw)-1]
	i := bytes.IndexByte(in, '\\')
	if i < 0 {
		return string(in)
	}
	var b strings.Builder
	b.Grow(len(in))
	for len(in) > 0 {
		if i < 0 {
			i = len(in)
		}
		writeUTF8(&b, in[:i])
		if in = in[i:]; len(in) == 0 {
			break
		}
		n, ok := unescape(&b, in)
		if !ok {
			return unquoteSlow(raw)
		}
		in = in[n:]
		i = bytes.IndexByte(in, '\\')
	}
	return b.String()
}

// UnquoteValid is Unquote with invalid UTF-8 always as U+FFFD (one per
// byte): exactly what encoding/json decodes.
func UnquoteValid(raw []byte) string {
	s := Unquote(raw)
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	writeUTF8(&b, []byte(s))
	return b.String()
}

// unescape writes the escape that in starts with and returns its length.
func unescape(b *strings.Builder, in []byte) (int, bool) {
	if len(in) < 2 {
		return 0, false
	}
	switch c := in[1]; c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, ok := hex4(in[2:])
		if !ok {
			return 0, false
		}
		if utf16.IsSurrogate(r) {
			if len(in) >= 12 && in[6] == '\\' && in[7] == 'u' {
				if r2, ok := hex4(in[8:]); ok {
					if d := utf16.DecodeRune(r, r2); d != unicode.ReplacementChar {
						b.WriteRune(d)
						return 12, true
					}
				}
			}
			r = unicode.ReplacementChar
		}
		b.WriteRune(r)
		return 6, true
	default:
		return 0, false
	}
	return 2, true
}

// unquoteSlow decodes a token the fast path does not accept.
func unquoteSlow(raw []byte) string {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return string(raw[1 : len(raw)-1])
	}
	return s
}

// writeUTF8 writes p, each invalid UTF-8 byte as U+FFFD.
func writeUTF8(b *strings.Builder, p []byte) {
	if utf8.Valid(p) {
		b.Write(p)
		return
	}
	b.Write(AppendUTF8(nil, p))
}

// AppendUTF8 appends p to dst with each invalid UTF-8 byte as U+FFFD, as
// Unquote decodes the runs between escapes.
func AppendUTF8(dst, p []byte) []byte {
	if utf8.Valid(p) {
		return append(dst, p...)
	}
	start := 0
	for i := 0; i < len(p); {
		if p[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, p[start:i]...)
			dst = utf8.AppendRune(dst, utf8.RuneError)
			start = i + 1
		}
		i += size
	}
	return append(dst, p[start:]...)
}

// hex4 parses the four hex digits of a \u escape.
func hex4(p []byte) (rune, bool) {
	if len(p) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Hex4 parses the four hex digits of a \u escape.
func Hex4(p []byte) (rune, bool) { return hex4(p) }

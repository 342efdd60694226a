package jsontext

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"

	"github.com/agsh-dev/agsh/internal/termsafe"
)

// Escapes are the escapes a JSON string may carry beyond those JSON needs.
type Escapes uint8

const (
	// EscapeHTML writes <, > and & as \u003c, \u003e and \u0026, as
	// json.Marshal does.
	EscapeHTML Escapes = 1 << iota
	// EscapeTerminal writes every character termsafe.Unsafe reports (DEL,
	// the C1 controls, bidi, zero-width and tag characters) as a \u escape:
	// the same string, safe to write to a terminal
	// (docs/rendering.md#terminal-safety).
	EscapeTerminal
)

// AppendString appends s to dst as a JSON string, byte for byte what
// encoding/json writes for it: the short escapes for \b \f \n \r \t " and
// \\, \u00xx for the other control bytes, U+FFFD for invalid UTF-8, U+2028
// and U+2029 escaped, and with escapeHTML <, > and & escaped as
// json.Marshal does (without, as an Encoder with SetEscapeHTML(false)). It
// is the reflection-free path for the strings a result is made of.
func AppendString(dst []byte, s string, escapeHTML bool) []byte {
	var e Escapes
	if escapeHTML {
		e = EscapeHTML
	}
	dst = append(dst, '"')
	// A read-only view of s: appendEscaped only reads it.
	dst = appendEscaped(dst, unsafe.Slice(unsafe.StringData(s), len(s)), e)
	return append(dst, '"')
}

// AppendStringContent appends s as the content of a JSON string (no
// quotes): AppendString's escapes, and those e adds. A string written in
// pieces is written piece by piece, each ending on a character's end.
func AppendStringContent(dst, s []byte, e Escapes) []byte {
	return appendEscaped(dst, s, e)
}

// appendEscaped is the one JSON string encoder: runs that need no escape
// are found eight bytes at a time (encodePlain) and copied whole.
func appendEscaped(dst, s []byte, e Escapes) []byte {
	html, term := e&EscapeHTML != 0, e&EscapeTerminal != 0
	start := 0
	for i := 0; i < len(s); {
		i += encodePlain(s[i:], html)
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c == 0x7f && !term {
				i++ // DEL is JSON's own byte
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // another control byte, DEL, or <, > and & for HTML
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		case term && termsafe.Unsafe(r): // a C1 control, bidi, zero-width or tag character
			dst = append(dst, s[start:i]...)
			dst = termsafe.AppendJSONRune(dst, r, size)
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// encodePlain is the length of the leading run of p that a JSON string holds
// as it is: printable ASCII but '"', '\\' and DEL (and, with html, <, >
// and &), eight bytes at a time. A word's lowest flagged byte is exactly
// its first such byte: a borrow only runs upward from one.
func encodePlain(p []byte, html bool) int {
	i := 0
	if html {
		for ; i+8 <= len(p); i += 8 {
			w := binary.LittleEndian.Uint64(p[i:])
			m := encodeSpecials(w)
			lt, gt, amp := w^(ones*'<'), w^(ones*'>'), w^(ones*'&')
			if m |= ((lt-ones)&^lt | (gt-ones)&^gt | (amp-ones)&^amp) & highs; m != 0 {
				return i + bits.TrailingZeros64(m)/8
			}
		}
	} else {
		for ; i+8 <= len(p); i += 8 {
			if m := encodeSpecials(binary.LittleEndian.Uint64(p[i:])); m != 0 {
				return i + bits.TrailingZeros64(m)/8
			}
		}
	}
	for ; i < len(p); i++ {
		c := p[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || html && (c == '<' || c == '>' || c == '&') {
			break
		}
	}
	return i
}

const ones, highs = 0x0101010101010101, 0x8080808080808080

// encodeSpecials flags the high bit of each byte of w that is a control
// byte, '"', '\\', DEL or past ASCII (exact for the lowest flagged byte).
func encodeSpecials(w uint64) uint64 {
	q := w ^ (ones * '"')
	b := w ^ (ones * '\\')
	d := w ^ (ones * 0x7f)
	return ((w-ones*0x20)&^w | (q-ones)&^q | (b-ones)&^b | (d-ones)&^d | w) & highs
}

const hexDigits = "0123456789abcdef"

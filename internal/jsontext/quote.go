package jsontext

import "unicode/utf8"

// AppendString appends s to dst as a JSON string, byte for byte what
// encoding/json writes for it: the short escapes for \b \f \n \r \t " and
// \\, \u00xx for the other control bytes, U+FFFD for invalid UTF-8, U+2028
// and U+2029 escaped, and with escapeHTML <, > and & escaped as
// json.Marshal does (without, as an Encoder with SetEscapeHTML(false)). It
// is the reflection-free path for the strings a result is made of.
func AppendString(dst []byte, s string, escapeHTML bool) []byte {
	dst = append(dst, '"')
	plain := &plainBytes
	if escapeHTML {
		plain = &plainBytesHTML
	}
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
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
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// plainBytes are the bytes a JSON string holds as they are (ASCII but the
// control bytes, '"' and '\\'); plainBytesHTML without <, > and &.
var plainBytes, plainBytesHTML = func() (p, h [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		p[c] = c != '"' && c != '\\'
		h[c] = p[c] && c != '<' && c != '>' && c != '&'
	}
	return p, h
}()

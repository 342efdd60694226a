package termsafe

import "unicode/utf8"

// AppendJSON appends JSON text raw to dst with every Unsafe character inside
// a string written as a \u escape (past the basic plane, as JSON spells it:
// a surrogate pair) and every byte that is not UTF-8 as \ufffd; everything
// else, escapes already in raw included, is kept byte for byte. The result
// is the same JSON value (but for invalid UTF-8, which a JSON reader takes
// as U+FFFD anyway), safe to write to a terminal: this is the one JSON form
// of every path that writes JSON to one (docs/rendering.md#terminal-safety).
// Outside strings valid JSON holds none of these characters; raw that is
// not valid JSON is escaped the same way throughout.
func AppendJSON(dst, raw []byte) []byte { return AppendJSONFunc(dst, raw, nil) }

// AppendJSONFunc is AppendJSON escaping, beside the Unsafe characters, each
// character of a string for which also reports true (a command line's
// hazards, a single quote). also may be nil.
func AppendJSONFunc(dst, raw []byte, also func(rune) bool) []byte {
	for i := 0; i < len(raw); i++ {
		if raw[i] == '"' {
			dst, i = appendJSONString(dst, raw, i, also)
			continue
		}
		if c := raw[i]; c >= utf8.RuneSelf || c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7f {
			// Not JSON: no such byte belongs between tokens.
			r, size := utf8.DecodeRune(raw[i:])
			dst = AppendJSONRune(dst, r, size)
			i += size - 1
			continue
		}
		dst = append(dst, raw[i])
	}
	return dst
}

// AppendJSONString appends the JSON string token that starts at raw[i] (its
// opening quote), escaped as AppendJSON escapes it, and returns dst and the
// index of the token's closing quote (len(raw) when it is cut).
func AppendJSONString(dst, raw []byte, i int) ([]byte, int) {
	return appendJSONString(dst, raw, i, nil)
}

func appendJSONString(dst, raw []byte, i int, also func(rune) bool) ([]byte, int) {
	dst = append(dst, '"')
	i++
	start := i
	for i < len(raw) {
		c := raw[i]
		switch {
		case c == '"':
			dst = append(dst, raw[start:i]...)
			return append(dst, '"'), i
		case c == '\\':
			// An escape is kept as written: it is visible text. A
			// backslash before a byte no escape starts with (not JSON)
			// leaves that byte to the checks below.
			if i+1 < len(raw) && raw[i+1] >= 0x20 && raw[i+1] < 0x7f {
				i += 2
			} else {
				i++
			}
			continue
		case c >= 0x20 && c < 0x7f:
			if also != nil && also(rune(c)) {
				dst = append(dst, raw[start:i]...)
				dst = appendU(dst, rune(c))
				i++
				start = i
				continue
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && size <= 1 || Unsafe(r) || also != nil && also(r) {
			dst = append(dst, raw[start:i]...)
			dst = AppendJSONRune(dst, r, size)
			i += size
			start = i
			continue
		}
		i += size
	}
	if start < len(raw) {
		dst = append(dst, raw[start:]...)
	}
	return dst, len(raw)
}

// AppendJSONRune appends r, decoded from size bytes, as a JSON \u escape:
// \ufffd for a byte that is not UTF-8 (r is utf8.RuneError, size 1).
func AppendJSONRune(dst []byte, r rune, size int) []byte {
	if r == utf8.RuneError && size <= 1 {
		return append(dst, `\ufffd`...)
	}
	return appendU(dst, r)
}

// appendU writes r as \u and four hex digits, a surrogate pair past the
// basic plane.
func appendU(dst []byte, r rune) []byte {
	u := func(v rune) {
		dst = append(dst, '\\', 'u', hexDigits[v>>12&0xf], hexDigits[v>>8&0xf], hexDigits[v>>4&0xf], hexDigits[v&0xf])
	}
	if r > 0xffff {
		r -= 0x10000
		u(0xd800 + r>>10)
		u(0xdc00 + r&0x3ff)
		return dst
	}
	u(r)
	return dst
}

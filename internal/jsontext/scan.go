package jsontext

import (
	"encoding/binary"
	"math/bits"
)

// SkipSpace returns the offset of the first byte at or after i that is not
// JSON white space.
func SkipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// StringEnd checks the string token at data[i] as encoding/json does (a
// quote, no control bytes, only JSON's escapes; the bytes are not checked
// for UTF-8) and returns the offset after its closing quote.
func StringEnd(data []byte, i int) (int, bool) {
	if i >= len(data) || data[i] != '"' {
		return 0, false
	}
	end, _, _ := stringEnd(data, i)
	return end, end >= 0
}

// stringEnd is StringEnd, or -1 with the offset of the offending byte and
// what was being read there (len(data) at the end of the input).
func stringEnd(data []byte, i int) (end, at int, what string) {
	for i++; i < len(data); i++ {
		if i += plainLen(data[i:]); i >= len(data) {
			break
		}
		switch data[i] {
		case '"':
			return i + 1, 0, ""
		case '\\':
			if i+1 >= len(data) {
				return -1, len(data), ""
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				for k := i + 2; k < i+6; k++ {
					if k >= len(data) {
						return -1, len(data), ""
					}
					if !isHex(data[k]) {
						return -1, k, `in \u hexadecimal character escape`
					}
				}
				i += 5
			default:
				return -1, i + 1, "in string escape code"
			}
		default: // a control byte
			return -1, i, "in string literal"
		}
	}
	return -1, len(data), ""
}

// plainLen is the length of the leading run of p with no '"', no '\\' and
// no control byte, eight bytes at a time (the zero-byte and less-than-byte
// word tests: a word's lowest flagged byte is exactly its first such byte,
// as a borrow only runs upward from one).
func plainLen(p []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(p); i += 8 {
		w := binary.LittleEndian.Uint64(p[i:])
		q := w ^ (ones * '"')
		s := w ^ (ones * '\\')
		if m := ((w-ones*0x20)&^w | (q-ones)&^q | (s-ones)&^s) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(p); i++ {
		if c := p[i]; c == '"' || c == '\\' || c < 0x20 {
			break
		}
	}
	return i
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// NumberEnd returns the offset after the number starting at data[i], or -1
// when no JSON number starts there.
func NumberEnd(data []byte, i int) int {
	digits := func() int {
		start := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(data) && data[i] == '-' {
		i++
	}
	if i < len(data) && data[i] == '0' {
		i++
	} else if digits() == 0 {
		return -1
	}
	if i < len(data) && data[i] == '.' {
		i++
		if digits() == 0 {
			return -1
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return -1
		}
	}
	return i
}

// SpanEnd returns the offset after the value starting at data[i] without
// reading it whole: a string is checked (StringEnd), a container is skipped
// by its brackets and strings, any other value runs up to white space, ',',
// ']', '}' or the end. It is for finding values quickly in a document that
// was checked before, or that a full decoder checks later.
func SpanEnd(data []byte, i int) (int, bool) {
	if i >= len(data) {
		return 0, false
	}
	switch data[i] {
	case '"':
		return StringEnd(data, i)
	case '{', '[':
		return containerEnd(data, i)
	case ',', ']', '}', ':':
		return 0, false
	}
	for ; i < len(data); i++ {
		switch data[i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return i, true
		}
	}
	return i, true
}

// containerEnd returns the offset after the object or array at data[i].
func containerEnd(data []byte, i int) (int, bool) {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			e, ok := StringEnd(data, i)
			if !ok {
				return 0, false
			}
			i = e - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// AppendCompact appends raw (valid JSON) with the white space between its
// tokens removed; strings, numbers and key order stay exactly as received.
func AppendCompact(dst, raw []byte) []byte {
	inString, escaped := false, false
	for _, c := range raw {
		if inString {
			dst = append(dst, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			inString = true
		}
		dst = append(dst, c)
	}
	return dst
}

// HasControl reports whether p holds a control byte (below 0x20, which a
// JSON string may not hold as it is), sixteen bytes at a time: a word's
// less-than test flags a byte only at or above a true one.
func HasControl(p []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+16 <= len(p); i += 16 {
		w := binary.LittleEndian.Uint64(p[i:])
		v := binary.LittleEndian.Uint64(p[i+8:])
		if ((w-ones*0x20)&^w|(v-ones*0x20)&^v)&highs != 0 {
			return true
		}
	}
	for ; i < len(p); i++ {
		if p[i] < 0x20 {
			return true
		}
	}
	return false
}

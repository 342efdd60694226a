package interp

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"
)

// jqEncoder writes gojq results exactly as the gojq command prints them (without
// color): object keys sorted by their bytes, two-space indentation (or compact),
// numbers as received when they were never computed on, computed floats in the
// shortest form ('e' notation below 1e-6 and from 1e21 on, exponent without
// leading zeros), NaN as null, infinities as the largest finite float, only
// control characters, '"', '\' and DEL escaped (non-ASCII written as is, invalid
// UTF-8 as \ufffd).
type jqEncoder struct {
	compact bool
	depth   int
}

func (e *jqEncoder) encode(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int:
		b.WriteString(strconv.Itoa(v))
	case float64:
		e.float(b, v)
	case *big.Int:
		b.WriteString(v.String())
	case json.Number:
		b.WriteString(v.String())
	case string:
		jqString(b, v)
	case []any:
		b.WriteByte('[')
		e.depth++
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			e.newline(b)
			e.encode(b, x)
		}
		e.depth--
		if len(v) > 0 {
			e.newline(b)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		e.depth++
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			e.newline(b)
			jqString(b, k)
			b.WriteByte(':')
			if !e.compact {
				b.WriteByte(' ')
			}
			e.encode(b, v[k])
		}
		e.depth--
		if len(v) > 0 {
			e.newline(b)
		}
		b.WriteByte('}')
	default:
		// gojq produces only the types above; anything else is shown as null.
		b.WriteString("null")
	}
}

func (e *jqEncoder) newline(b *bytes.Buffer) {
	if e.compact {
		return
	}
	b.WriteByte('\n')
	for i := 0; i < e.depth; i++ {
		b.WriteString("  ")
	}
}

func (e *jqEncoder) float(b *bytes.Buffer, f float64) {
	if math.IsNaN(f) {
		b.WriteString("null")
		return
	}
	f = min(max(f, -math.MaxFloat64), math.MaxFloat64)
	format := byte('f')
	if x := math.Abs(f); x != 0 && x < 1e-6 || x >= 1e21 {
		format = 'e'
	}
	s := strconv.FormatFloat(f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9, as the gojq command writes it
		if n := len(s); n >= 4 && s[n-4] == 'e' && s[n-3] == '-' && s[n-2] == '0' {
			s = s[:n-2] + s[n-1:]
		}
	}
	b.WriteString(s)
}

// jqString writes s as a JSON string the way gojq does.
func jqString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c <= '~' && c != '"' && c != '\\' {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString(`\ufffd`)
			i++
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

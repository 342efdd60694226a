package render

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Value is what a call produced, after render.md "The value to render"
// steps 1–2: text, or a structured JSON value.
type Value struct {
	// Text is the value when IsJSON is false.
	Text string
	// JSON is the value when IsJSON is true: an object, array or other JSON
	// value, bytes as received.
	JSON json.RawMessage
	// IsJSON says the value is structured.
	IsJSON bool
	// Final marks curated reformatted output or filter text: never taken for
	// JSON, written byte for byte.
	Final bool
	// IsError is set by FromResult when the result was an MCP tool result
	// carrying "isError": true (the call answer's own isError is the
	// caller's to check).
	IsError bool
	// Result is the MCP tool result as received, when FromResult saw one
	// (every content part as sent, structuredContent, isError, _meta),
	// whatever the value became; nil otherwise. NextCursor reads its _meta.
	Result json.RawMessage
}

// TextValue returns a text value. Text that parses as a JSON object or
// array is not reinterpreted: that is FromResult's job.
func TextValue(s string) Value {
	return Value{Text: s}
}

// FinalValue returns final text: curated reformatted output or filter
// output, written byte for byte (on a terminal made safe first).
func FinalValue(s string) Value {
	return Value{Text: s, Final: true}
}

// FromResult normalizes a call's result (raw JSON) per render.md: a string
// is text, unless it is JSON text that parses as an object or array; an MCP
// tool result (an object with a "content" array of typed parts) whose parts
// are all text becomes its structuredContent (unless that merely wraps the
// text), else its text parts joined with "\n" (JSON text parsed); an MCP
// result with any other part stays the result object itself, nothing
// dropped (Write shows its text view); any other JSON value is structured.
// It never fails: bytes that are not JSON at all become text.
func FromResult(result json.RawMessage) Value {
	trimmed := bytes.TrimSpace(result)
	if len(trimmed) == 0 {
		return Value{}
	}
	if trimmed[0] == '"' && stringEnd(trimmed) == len(trimmed) {
		// A string result (a file's text, say): checked as parseJSON
		// would, eight bytes at a time, without building a node.
		return textOrJSON(unquote(trimmed))
	}
	n, err := parseJSON(trimmed)
	if err != nil {
		return Value{Text: string(result)}
	}
	return fromNode(n, true)
}

// stringEnd checks the JSON string token that data starts with as
// parseJSON does (no control bytes, only JSON's escapes) and returns the
// offset after its closing quote, or -1.
func stringEnd(data []byte) int {
	for i := 1; i < len(data); i++ {
		if i += plainLen(data[i:]); i >= len(data) {
			break
		}
		switch data[i] {
		case '"':
			return i + 1
		case '\\':
			if i+1 >= len(data) {
				return -1
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+6 > len(data) || !isHex4(data[i+2:i+6]) {
					return -1
				}
				i += 5
			default:
				return -1
			}
		default: // a control byte
			return -1
		}
	}
	return -1
}

// plainLen is the length of the leading run of p with no '"', no '\\' and
// no control byte, eight bytes at a time (the zero-byte and less-than-byte
// word tests, exact for whether a word holds such a byte).
func plainLen(p []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(p); i += 8 {
		w := binary.LittleEndian.Uint64(p[i:])
		q := w ^ (ones * '"')
		s := w ^ (ones * '\\')
		if ((w-ones*0x20)&^w|(q-ones)&^q|(s-ones)&^s)&highs != 0 {
			break
		}
	}
	for ; i < len(p); i++ {
		if c := p[i]; c == '"' || c == '\\' || c < 0x20 {
			break
		}
	}
	return i
}

// fromNode applies steps 1–2 to a decoded value; mcp enables MCP result
// detection (only at the top level).
func fromNode(n *node, mcp bool) Value {
	switch n.kind {
	case kindString:
		return textOrJSON(unquote(n.raw))
	case kindObject:
		if mcp && isMCPResult(n) {
			return fromMCP(n)
		}
	}
	return Value{JSON: json.RawMessage(n.raw), IsJSON: true}
}

// textOrJSON is step 2: text that parses as a JSON object or array counts as
// that structured value; any other text stays text.
func textOrJSON(s string) Value {
	// Look before converting: a 50 MB file text is not copied to find out
	// that it does not start with a bracket.
	ts := strings.TrimSpace(s)
	if len(ts) >= 2 && (ts[0] == '{' || ts[0] == '[') {
		if n, err := parseJSON([]byte(ts)); err == nil {
			return Value{JSON: json.RawMessage(n.raw), IsJSON: true}
		}
	}
	return Value{Text: s}
}

// decodeValue parses a structured value for rendering. A JSON string is
// normalized as text (step 2 again, for values built by callers).
func decodeValue(v Value) (*node, Value, error) {
	n, err := parseJSON(v.JSON)
	if err != nil {
		return nil, v, err
	}
	if n.kind == kindString {
		nv := textOrJSON(unquote(n.raw))
		if !nv.IsJSON {
			return nil, nv, nil
		}
		n, _ = parseJSON(nv.JSON)
		return n, nv, nil
	}
	return n, v, nil
}

// unquote decodes a string token that parseJSON accepted (quotes included)
// exactly as decodeJSONString does, in one pass over runs between escapes
// instead of encoding/json's validate-then-unquote over the whole token:
// a result that is one 50 MB string is decoded at memory speed. Tokens
// without escapes are converted directly; with escapes, invalid UTF-8 and
// lone surrogates become U+FFFD as encoding/json makes them.
func unquote(raw []byte) string {
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
		in = in[i:]
		if len(in) == 0 {
			break
		}
		// in[0] is a backslash; parseJSON checked the escape is complete.
		if len(in) < 2 {
			return decodeJSONString(raw)
		}
		switch c := in[1]; c {
		case '"', '\\', '/':
			b.WriteByte(c)
			in = in[2:]
		case 'b':
			b.WriteByte('\b')
			in = in[2:]
		case 'f':
			b.WriteByte('\f')
			in = in[2:]
		case 'n':
			b.WriteByte('\n')
			in = in[2:]
		case 'r':
			b.WriteByte('\r')
			in = in[2:]
		case 't':
			b.WriteByte('\t')
			in = in[2:]
		case 'u':
			r, ok := hex4(in[2:])
			if !ok {
				return decodeJSONString(raw)
			}
			in = in[6:]
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(-1), false
				if len(in) >= 6 && in[0] == '\\' && in[1] == 'u' {
					r2, ok2 = hex4(in[2:])
				}
				if d := utf16.DecodeRune(r, r2); ok2 && d != unicode.ReplacementChar {
					b.WriteRune(d)
					in = in[6:]
					break
				}
				r = unicode.ReplacementChar
			}
			b.WriteRune(r)
		default:
			return decodeJSONString(raw)
		}
		i = bytes.IndexByte(in, '\\')
	}
	return b.String()
}

// writeUTF8 writes p, each invalid UTF-8 byte as U+FFFD.
func writeUTF8(b *strings.Builder, p []byte) {
	if utf8.Valid(p) {
		b.Write(p)
		return
	}
	start := 0
	for i := 0; i < len(p); {
		if p[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 {
			b.Write(p[start:i])
			b.WriteRune(utf8.RuneError)
			start = i + 1
		}
		i += size
	}
	b.Write(p[start:])
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

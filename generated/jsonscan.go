package generated

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner decodes JSON text into jvalues token by token, keeping object
// members in document order. It is a small recursive-descent reader: the
// schemas of a catalog are decoded on every call, so it avoids the
// per-token allocations of encoding/json's Decoder.Token.
type scanner struct {
	data []byte
	pos  int
}

// parseJSON decodes exactly one JSON value from b.
func parseJSON(b []byte) (*jvalue, error) {
	s := &scanner{data: b}
	v, err := s.value(0)
	if err != nil {
		return nil, err
	}
	s.space()
	if s.pos < len(s.data) {
		return nil, fmt.Errorf("unexpected data after the JSON value at offset %d", s.pos)
	}
	return v, nil
}

func (s *scanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) errorf(what string) error {
	if s.pos >= len(s.data) {
		return fmt.Errorf("unexpected end of JSON")
	}
	return fmt.Errorf("invalid character %q %s at offset %d", s.data[s.pos], what, s.pos)
}

func (s *scanner) value(depth int) (*jvalue, error) {
	s.space()
	if s.pos >= len(s.data) {
		return nil, s.errorf("")
	}
	switch c := s.data[s.pos]; {
	case c == '{' || c == '[':
		if depth >= maxJSONDepth {
			return nil, fmt.Errorf("JSON nested more than %d levels", maxJSONDepth)
		}
		s.pos++
		if c == '{' {
			return s.object(depth)
		}
		return s.array(depth)
	case c == '"':
		str, err := s.str()
		if err != nil {
			return nil, err
		}
		return &jvalue{kind: jString, s: str}, nil
	case c == '-' || c >= '0' && c <= '9':
		start := s.pos
		s.pos = scanNumber(s.data, s.pos)
		if s.pos < 0 {
			s.pos = start
			return nil, s.errorf("in number")
		}
		return &jvalue{kind: jNumber, s: string(s.data[start:s.pos])}, nil
	}
	for _, lit := range [...]struct {
		text string
		v    jvalue
	}{{"true", jvalue{kind: jBool, b: true}}, {"false", jvalue{kind: jBool}}, {"null", jvalue{kind: jNull}}} {
		if strings.HasPrefix(string(s.data[s.pos:min(len(s.data), s.pos+len(lit.text))]), lit.text) {
			s.pos += len(lit.text)
			v := lit.v
			return &v, nil
		}
	}
	return nil, s.errorf("looking for beginning of value")
}

func (s *scanner) array(depth int) (*jvalue, error) {
	v := &jvalue{kind: jArray}
	s.space()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		return v, nil
	}
	for {
		e, err := s.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.arr = append(v.arr, e)
		s.space()
		if s.pos >= len(s.data) {
			return nil, s.errorf("")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return v, nil
		default:
			return nil, s.errorf("after array element")
		}
	}
}

func (s *scanner) object(depth int) (*jvalue, error) {
	v := &jvalue{kind: jObject}
	var index map[string]int // built once the object is large
	s.space()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		return v, nil
	}
	for {
		s.space()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return nil, s.errorf("looking for beginning of object key string")
		}
		key, err := s.str()
		if err != nil {
			return nil, err
		}
		s.space()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return nil, s.errorf("after object key")
		}
		s.pos++
		e, err := s.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if index == nil && len(v.keys) >= 16 {
			index = make(map[string]int, 32)
			for i, k := range v.keys {
				index[k] = i
			}
		}
		if index != nil {
			if i, dup := index[key]; dup {
				v.vals[i] = e
			} else {
				index[key] = len(v.keys)
				v.keys = append(v.keys, key)
				v.vals = append(v.vals, e)
			}
		} else {
			v.set(key, e)
		}
		s.space()
		if s.pos >= len(s.data) {
			return nil, s.errorf("")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return v, nil
		default:
			return nil, s.errorf("after object key:value pair")
		}
	}
}

// set adds a member; a repeated key keeps its first position and takes
// the last value, as encoding/json keeps the last.
func (v *jvalue) set(key string, e *jvalue) {
	for i, k := range v.keys {
		if k == key {
			v.vals[i] = e
			return
		}
	}
	v.keys = append(v.keys, key)
	v.vals = append(v.vals, e)
}

// str reads a string starting at the opening quote. Invalid UTF-8 becomes
// U+FFFD, as encoding/json does.
func (s *scanner) str() (string, error) {
	s.pos++ // opening quote
	start := s.pos
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		if c == '"' {
			out := string(s.data[start:s.pos])
			s.pos++
			return out, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		s.pos++
	}
	var b strings.Builder
	b.Write(s.data[start:s.pos])
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			return b.String(), nil
		case c < 0x20:
			return "", s.errorf("in string literal")
		case c == '\\':
			if err := s.escape(&b); err != nil {
				return "", err
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(s.data[s.pos:])
			b.WriteRune(r) // RuneError for invalid bytes
			s.pos += size
		default:
			b.WriteByte(c)
			s.pos++
		}
	}
	return "", s.errorf("")
}

func (s *scanner) escape(b *strings.Builder) error {
	s.pos++ // backslash
	if s.pos >= len(s.data) {
		return s.errorf("")
	}
	c := s.data[s.pos]
	s.pos++
	switch c {
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
		r, ok := s.hex4()
		if !ok {
			return s.errorf("in \\u hexadecimal character escape")
		}
		if utf16.IsSurrogate(r) {
			save := s.pos
			if s.pos+1 < len(s.data) && s.data[s.pos] == '\\' && s.data[s.pos+1] == 'u' {
				s.pos += 2
				if r2, ok := s.hex4(); ok {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						b.WriteRune(d)
						return nil
					}
				}
			}
			s.pos = save
			r = utf8.RuneError
		}
		b.WriteRune(r)
	default:
		s.pos--
		return s.errorf("in string escape code")
	}
	return nil
}

func (s *scanner) hex4() (rune, bool) {
	var r rune
	for i := 0; i < 4; i++ {
		if s.pos+i >= len(s.data) {
			s.pos = len(s.data)
			return 0, false
		}
		c := s.data[s.pos+i]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			s.pos += i // point at the offending character
			return 0, false
		}
	}
	s.pos += 4
	return r, true
}

// scanNumber returns the end of the JSON number starting at i, or -1.
func scanNumber(d []byte, i int) int {
	digits := func() int {
		start := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(d) && d[i] == '-' {
		i++
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if digits() == 0 {
		return -1
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			return -1
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return -1
		}
	}
	return i
}

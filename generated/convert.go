package generated

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// convert turns the text of one value into what is sent, or reports false.
func (s *valueSpec) convert(text string) (any, bool) {
	switch s.kind {
	case vString:
		return text, true
	case vInteger:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, false
		}
		return json.Number(strconv.FormatInt(n, 10)), true
	case vNumber:
		if !isJSONNumber(text) {
			return nil, false
		}
		return json.Number(text), true
	case vBoolean:
		switch text {
		case "true":
			return true, true
		case "false":
			return false, true
		}
		return nil, false
	case vEnum:
		for _, e := range s.enum {
			if e.text() == text {
				return e.goValue(), true
			}
		}
		return nil, false
	case vUnion:
		return s.convertUnion(text)
	}
	// vJSON: null when the schema takes null; the parsed value only when
	// its type is one the schema allows (docs/mapping.md#values); otherwise
	// the text as a string when a string is allowed (`--content 42` against
	// string-or-array sends "42"), but never an array whose items an array
	// branch refuses (`["a",1]` against an array of strings is a mistake,
	// not a string).
	if text == "null" && s.null {
		return nil, true
	}
	if v, ok := decodeJSON(text); ok {
		if s.allows(v) {
			return v, true
		}
		if _, bad := s.badItem(v); bad {
			return nil, false
		}
	}
	if s.fallback {
		return text, true
	}
	return nil, false
}

// takesRef reports a JSON-valued position without a string branch: a
// value "@file" or "@-" there names where the JSON is (ParseOptions.ReadRef).
func (s *valueSpec) takesRef() bool { return s.kind == vJSON && !s.fallback }

// convertUnion reads the text of a union of scalars (docs/mapping.md#unions-of-scalars):
// null, true, false and a JSON number are sent typed when a branch takes
// that value (an integer branch only a whole number within int64); a
// JSON-quoted string is always that string; any other text is the string
// itself, when a branch takes it. Anything else is not a value.
func (s *valueSpec) convertUnion(text string) (any, bool) {
	switch {
	case text == "null":
		if s.null {
			return nil, true
		}
	case text == "true" || text == "false":
		if b := text == "true"; s.allows(b) {
			return b, true
		}
	case isJSONNumber(text):
		if n := json.Number(text); s.allows(n) {
			return n, true
		}
	case len(text) >= 2 && text[0] == '"':
		if v, ok := decodeJSON(text); ok {
			str, isStr := v.(string)
			return str, isStr && s.allows(str)
		}
	}
	if s.allows(text) {
		return text, true
	}
	for _, b := range s.branches {
		if b.kind == vEnum {
			if v, ok := b.convert(text); ok {
				return v, true // an enum value written as its text ({"a":1})
			}
		}
	}
	return nil, false
}

// allows reports whether a decoded JSON value (numbers as json.Number) is
// of a type the spec takes.
func (s *valueSpec) allows(v any) bool {
	if v == nil && s.null {
		return true // a nullable's null (["string","null"]), as its schema takes it
	}
	switch s.kind {
	case vString:
		_, ok := v.(string)
		return ok
	case vInteger:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		_, err := strconv.ParseInt(string(n), 10, 64)
		return err == nil
	case vNumber:
		_, ok := v.(json.Number)
		return ok
	case vBoolean:
		_, ok := v.(bool)
		return ok
	case vEnum:
		enc := string(marshalCompact(v))
		for _, e := range s.enum {
			if string(marshalCompact(e.goValue())) == enc {
				return true
			}
		}
		return false
	case vUnion:
		for _, b := range s.branches {
			if b.allows(v) {
				return true
			}
		}
		return false
	case vObject:
		_, ok := v.(map[string]any)
		return ok
	case vArray:
		arr, ok := v.([]any)
		if !ok {
			return false
		}
		if s.item == nil && s.tuple == nil {
			return true // a type list's "array": any items
		}
		for i, e := range arr {
			if !s.elem(i).allows(e) {
				return false
			}
		}
		return true
	}
	// vJSON
	if v == nil && s.null {
		return true
	}
	if s.object {
		_, ok := v.(map[string]any)
		return ok
	}
	if s.allow == nil {
		return true
	}
	for _, b := range s.allow {
		if b.allows(v) {
			return true
		}
	}
	return false
}

// badItem describes the first item of an array v that the spec's array
// branch refuses ("[1] is 1, expected a string"), when v is an array, the
// spec takes arrays only through branches that check their items, and no
// branch takes v; false otherwise.
func (s *valueSpec) badItem(v any) (string, bool) {
	arr, ok := v.([]any)
	if !ok || s.allows(v) {
		return "", false
	}
	branches := s.allow
	if s.kind == vArray {
		branches = []*valueSpec{s}
	}
	for _, b := range branches {
		if b.kind != vArray || b.item == nil && b.tuple == nil {
			continue
		}
		for i, e := range arr {
			if el := b.elem(i); !el.allows(e) {
				want := el.describe()
				if want == "" {
					want = "JSON"
				}
				return "[" + strconv.Itoa(i) + "] is " + string(marshalCompact(e)) + ", expected " + want, true
			}
		}
	}
	return "", false
}

// badItemText is badItem of the text's JSON, for a value convert refused;
// "" when the text is no such array.
func (s *valueSpec) badItemText(text string) string {
	if s.kind != vJSON {
		return ""
	}
	v, ok := decodeJSON(text)
	if !ok {
		return ""
	}
	d, _ := s.badItem(v)
	return d
}

// decodeJSON decodes exactly one JSON value with exact numbers.
func decodeJSON(text string) (any, bool) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

// isJSONNumber reports whether s is a number in JSON syntax.
func isJSONNumber(s string) bool {
	return s != "" && jsontext.NumberEnd([]byte(s), 0) == len(s)
}

// accepts reports whether text is a value of this spec (an array's
// element spec decides for arrays).
func (s *valueSpec) accepts(text string) bool {
	if s.kind == vArray {
		s = s.elem(0)
	}
	_, ok := s.convert(text)
	return ok
}

// takesNegative reports whether a following "-5" is this flag's value.
func (s *valueSpec) takesNegative() bool {
	switch s.kind {
	case vInteger, vNumber:
		return true
	case vUnion:
		for _, b := range s.branches {
			if b.kind == vInteger || b.kind == vNumber {
				return true
			}
		}
	case vEnum:
		for _, e := range s.enum {
			if e.kind == jNumber && strings.HasPrefix(e.s, "-") {
				return true
			}
		}
	}
	return false
}

// expected describes the accepted values for an error message.
func (s *valueSpec) expected() string {
	switch s.kind {
	case vString:
		return "a string"
	case vInteger:
		return "an integer"
	case vNumber:
		return "a number"
	case vBoolean:
		return "true or false"
	case vEnum:
		texts := make([]string, len(s.enum))
		for i, e := range s.enum {
			texts[i] = e.label()
		}
		if len(texts) == 1 {
			return texts[0]
		}
		return "one of " + strings.Join(texts, ", ")
	case vUnion:
		parts := make([]string, 0, len(s.branches)+1)
		for _, b := range s.branches {
			parts = append(parts, b.expected())
		}
		if s.null {
			parts = append(parts, "null")
		}
		return strings.Join(parts, " or ")
	}
	if s.object {
		if s.null {
			return "a JSON object or null"
		}
		return "a JSON object"
	}
	if s.what != "" {
		return "JSON (" + s.what + ")"
	}
	return "JSON"
}

// marshalCompact encodes v as compact JSON without HTML escaping.
func marshalCompact(v any) json.RawMessage {
	return jsontext.MarshalOrNull(v)
}

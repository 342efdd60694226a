package generated

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// jkind is the kind of a decoded JSON value.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

// jvalue is a JSON value decoded with object member order preserved. A
// repeated key keeps the position of its first occurrence and the value of
// its last, as encoding/json would keep the last.
type jvalue struct {
	kind jkind
	b    bool
	s    string // string contents, or number text as written
	arr  []*jvalue
	keys []string
	vals []*jvalue
}

// maxJSONDepth bounds the nesting accepted in a schema.
const maxJSONDepth = 512

// get returns the member named key of an object, or nil.
func (v *jvalue) get(key string) *jvalue {
	if v == nil || v.kind != jObject {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// text is how a value is shown and compared on the command line: a string
// is its contents, anything else its compact JSON.
func (v *jvalue) text() string {
	if v.kind == jString {
		return v.s
	}
	return string(v.raw())
}

// label is how an enum value is shown in a placeholder or an error: its
// text, quoted as JSON when a bare text would hide it or blur the list
// (empty, or holding a space, "|" or ",").
func (v *jvalue) label() string {
	t := v.text()
	if v.kind == jString && (t == "" || strings.ContainsAny(t, " \t\n|,")) {
		return string(v.raw())
	}
	return t
}

// raw encodes the value as compact JSON, numbers exactly as written.
func (v *jvalue) raw() json.RawMessage {
	var buf bytes.Buffer
	v.encode(&buf)
	return buf.Bytes()
}

func (v *jvalue) encode(buf *bytes.Buffer) {
	switch v.kind {
	case jNull:
		buf.WriteString("null")
	case jBool:
		buf.WriteString(strconv.FormatBool(v.b))
	case jNumber:
		buf.WriteString(v.s)
	case jString:
		writeJSONString(buf, v.s)
	case jArray:
		buf.WriteByte('[')
		for i, e := range v.arr {
			if i > 0 {
				buf.WriteByte(',')
			}
			e.encode(buf)
		}
		buf.WriteByte(']')
	case jObject:
		buf.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeJSONString(buf, k)
			buf.WriteByte(':')
			v.vals[i].encode(buf)
		}
		buf.WriteByte('}')
	}
}

func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	buf.Truncate(buf.Len() - 1)
}

// goValue converts the value to what encoding/json would decode with
// UseNumber: map[string]any, []any, string, json.Number, bool, nil.
func (v *jvalue) goValue() any {
	switch v.kind {
	case jBool:
		return v.b
	case jNumber:
		return json.Number(v.s)
	case jString:
		return v.s
	case jArray:
		out := make([]any, len(v.arr))
		for i, e := range v.arr {
			out[i] = e.goValue()
		}
		return out
	case jObject:
		out := make(map[string]any, len(v.keys))
		for i, k := range v.keys {
			out[k] = v.vals[i].goValue()
		}
		return out
	}
	return nil
}

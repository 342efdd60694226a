package jsontext

import (
	"bytes"
	"encoding/json"
)

// Marshal encodes v as compact JSON as encoding/json does, but without
// escaping <, > and & (text reads as it was written) and without the
// newline an Encoder adds.
func Marshal(v any) ([]byte, error) {
	switch v := v.(type) { // the common scalars without reflection
	case string:
		return AppendString(nil, v, false), nil
	case bool:
		if v {
			return []byte("true"), nil
		}
		return []byte("false"), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// MarshalOrNull is Marshal with null for a value that does not encode
// (plain data always does: an error is a programming mistake, never a
// panic).
func MarshalOrNull(v any) []byte {
	b, err := Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

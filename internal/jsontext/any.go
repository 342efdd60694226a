package jsontext

import "encoding/json"

// ParseAny reads data into the values encoding/json decodes with UseNumber
// (nil, bool, json.Number, string, []any, map[string]any; a repeated key's
// last value), faster and with less garbage than a json.Decoder for small
// documents read one by one.
func ParseAny(data []byte, maxDepth int) (any, error) {
	return Parse[any](data, anyBuilder{}, maxDepth)
}

type anyBuilder struct{}

func (anyBuilder) Scalar(k Kind, raw []byte) any {
	switch k {
	case Bool:
		return raw[0] == 't'
	case Number:
		return json.Number(raw)
	case String:
		return UnquoteValid(raw)
	}
	return nil
}

func (anyBuilder) Array(_ []byte, elems []any) any {
	out := make([]any, len(elems))
	copy(out, elems)
	return out
}

func (anyBuilder) Object(_ []byte, keys []string, vals []any) any {
	m := make(map[string]any, len(keys))
	for i, k := range keys {
		m[k] = vals[i]
	}
	return m
}

func (anyBuilder) Key(raw []byte) string { return UnquoteValid(raw) }

package generated

import "github.com/agsh-dev/agsh/internal/jsontext"

// parseJSON decodes exactly one JSON value from b with agsh's one JSON
// reader (jsontext), into jvalues: strings decoded, object members in
// document order, a repeated key at its first position with its last value.
func parseJSON(b []byte) (*jvalue, error) {
	return jsontext.Parse[*jvalue](b, jbuilder{}, maxJSONDepth)
}

// jbuilder builds jvalues for jsontext.Parse.
type jbuilder struct{}

func (jbuilder) Scalar(k jsontext.Kind, raw []byte) *jvalue {
	switch k {
	case jsontext.Bool:
		return &jvalue{kind: jBool, b: raw[0] == 't'}
	case jsontext.Number:
		return &jvalue{kind: jNumber, s: string(raw)}
	case jsontext.String:
		return &jvalue{kind: jString, s: jsontext.UnquoteValid(raw)}
	}
	return &jvalue{kind: jNull}
}

func (jbuilder) Array(_ []byte, elems []*jvalue) *jvalue {
	return &jvalue{kind: jArray, arr: append([]*jvalue(nil), elems...)}
}

func (jbuilder) Object(_ []byte, keys []string, vals []*jvalue) *jvalue {
	v := &jvalue{kind: jObject}
	var index map[string]int // built once the object is large
	for i, key := range keys {
		if index == nil && len(v.keys) >= 16 {
			index = make(map[string]int, 32)
			for j, k := range v.keys {
				index[k] = j
			}
		}
		if index == nil {
			v.set(key, vals[i])
			continue
		}
		if j, dup := index[key]; dup {
			v.vals[j] = vals[i]
		} else {
			index[key] = len(v.keys)
			v.keys = append(v.keys, key)
			v.vals = append(v.vals, vals[i])
		}
	}
	return v
}

func (jbuilder) Key(raw []byte) string { return jsontext.UnquoteValid(raw) }

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

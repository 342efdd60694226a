package interp

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// tableResult turns the single result of a last `jq` (without -r or -c) into
// a structured value when it is a non-empty array of objects (one with a key
// at least), so it renders as a table (docs/shell.md#filters:
// `| jq 'map({id, name})'` picks columns). gojq's objects have no key order;
// each element's keys follow the order they first appear in the input, then
// the new keys sorted by their bytes (as jq prints them).
func tableResult(res any, in Value) (Value, bool) {
	arr, ok := res.([]any)
	if !ok || len(arr) == 0 {
		return Value{}, false
	}
	keyed := false
	for _, el := range arr {
		obj, ok := el.(map[string]any)
		if !ok {
			return Value{}, false
		}
		keyed = keyed || len(obj) > 0
	}
	if !keyed {
		return Value{}, false // a table without columns: jq's text
	}
	rank := inputKeyRank(in)
	var b bytes.Buffer
	enc := &jqEncoder{compact: true}
	var keys []string
	b.WriteByte('[')
	for i, el := range arr {
		if i > 0 {
			b.WriteByte(',')
		}
		obj := el.(map[string]any)
		keys = keys[:0]
		for k := range obj {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, c string) int {
			ra, oka := rank[a]
			rc, okc := rank[c]
			switch {
			case oka && okc:
				return ra - rc
			case oka:
				return -1
			case okc:
				return 1
			}
			return strings.Compare(a, c)
		})
		b.WriteByte('{')
		for j, k := range keys {
			if j > 0 {
				b.WriteByte(',')
			}
			enc.encode(&b, k)
			b.WriteByte(':')
			enc.encode(&b, obj[k])
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return Value{JSON: json.RawMessage(b.Bytes()), IsJSON: true}, true
}

// inputKeyRank numbers the object keys of the filter's input (at any depth)
// in the order they first appear.
func inputKeyRank(in Value) map[string]int {
	dec := json.NewDecoder(in.reader())
	rank := map[string]int{}
	// inObject: for each open container, whether it is an object.
	var inObject []bool
	keyNext := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return rank
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				inObject = append(inObject, true)
				keyNext = true
				continue
			case '[':
				inObject = append(inObject, false)
			case '}', ']':
				inObject = inObject[:len(inObject)-1]
			}
		case string:
			if keyNext {
				if _, ok := rank[t]; !ok {
					rank[t] = len(rank)
				}
				keyNext = false
				continue
			}
		}
		// After a value inside an object, a key comes next.
		keyNext = len(inObject) > 0 && inObject[len(inObject)-1]
	}
}

package fstools

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/internal/wire"
)

// maxInputDepth is the deepest nesting an input is read to: encoding/json's.
const maxInputDepth = 10000

// input is a decoded input object; numbers stay json.Number.
type input map[string]any

// decodeInput decodes a call's input defensively: empty or null is {}, and
// anything but an object is invalid input.
func decodeInput(raw json.RawMessage) (input, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return input{}, nil
	}
	// The reflection-free reader gives the values the decoder below does;
	// what it refuses goes the decoder's way, for the decoder's answer.
	if v, err := jsontext.ParseAny(raw, maxInputDepth); err == nil {
		if m, ok := v.(map[string]any); ok {
			return input(m), nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, rootIssue("input is not valid JSON")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, rootIssue("input must be an object")
	}
	return input(m), nil
}

// str returns the string field name; ok is false when absent or null.
func (in input) str(name string) (s string, ok bool, err error) {
	v, present := in[name]
	if !present || v == nil {
		return "", false, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", false, tool.BadInput(name, "must be a string")
	}
	return s, true, nil
}

// boolean returns the boolean field name (false when absent or null).
func (in input) boolean(name string) (bool, error) {
	v, present := in[name]
	if !present || v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, tool.BadInput(name, "must be a boolean")
	}
	return b, nil
}

// integer returns the integer field name; ok is false when absent or null.
// Values beyond the int range are clamped.
func (in input) integer(name string) (n int, ok bool, err error) {
	v, present := in[name]
	if !present || v == nil {
		return 0, false, nil
	}
	num, isNum := v.(json.Number)
	if !isNum {
		return 0, false, tool.BadInput(name, "must be an integer")
	}
	if i, err := strconv.ParseInt(string(num), 10, 64); err == nil {
		return clampInt(i), true, nil
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil || f != math.Trunc(f) || math.IsNaN(f) {
		return 0, false, tool.BadInput(name, "must be an integer")
	}
	switch {
	case f >= math.MaxInt32:
		return math.MaxInt32, true, nil
	case f <= math.MinInt32:
		return math.MinInt32, true, nil
	}
	return int(f), true, nil
}

// clampInt keeps i within ±2^31 so arithmetic on it cannot overflow.
func clampInt(i int64) int {
	switch {
	case i > math.MaxInt32:
		return math.MaxInt32
	case i < math.MinInt32:
		return math.MinInt32
	}
	return int(i)
}

// strings returns the string-array field name (nil when absent or null).
func (in input) strings(name string) ([]string, error) {
	v, present := in[name]
	if !present || v == nil {
		return nil, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, tool.BadInput(name, "must be an array of strings")
	}
	out := make([]string, 0, len(arr))
	for i, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, &tool.InputError{Issues: []wire.Issue{{Path: []any{name, i}, Message: "must be a string"}}}
		}
		out = append(out, s)
	}
	return out, nil
}

// rootIssue is an InputError about the input object as a whole.
func rootIssue(msg string) *tool.InputError {
	return &tool.InputError{Issues: []wire.Issue{{Path: []any{}, Message: msg}}}
}

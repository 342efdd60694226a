package datadog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// args are a tool's arguments, each value raw; a null value counts as
// absent.
type args map[string]json.RawMessage

// parseArgs decodes raw arguments, refusing anything but an object and
// properties not named in known.
func parseArgs(raw json.RawMessage, known ...string) (args, error) {
	a := args{}
	if len(bytes.TrimSpace(raw)) == 0 {
		return a, nil
	}
	if err := json.Unmarshal(raw, &a); err != nil || a == nil {
		return nil, fmt.Errorf("the arguments must be a JSON object")
	}
	return a, a.check("", known)
}

// check refuses properties not in known; prefix names the enclosing object.
func (a args) check(prefix string, known []string) error {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(known, k) {
			return fmt.Errorf("unknown property %q (known: %s)", prefix+k, strings.Join(known, ", "))
		}
	}
	return nil
}

// get answers the raw value of name, nil when absent or null.
func (a args) get(name string) json.RawMessage {
	v := bytes.TrimSpace(a[name])
	if len(v) == 0 || bytes.Equal(v, []byte("null")) {
		return nil
	}
	return v
}

// str answers a string property.
func (a args) str(name string) (string, bool, error) {
	v := a.get(name)
	if v == nil {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", false, fmt.Errorf("%s: expected a string, got %s", name, v)
	}
	return s, true, nil
}

// strs answers an array-of-strings property.
func (a args) strs(name string) ([]string, bool, error) {
	v := a.get(name)
	if v == nil {
		return nil, false, nil
	}
	var s []string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, false, fmt.Errorf("%s: expected an array of strings, got %s", name, v)
	}
	return s, true, nil
}

// integer answers an integer property; label names it in errors.
func (a args) integer(label, name string) (int64, bool, error) {
	v := a.get(name)
	if v == nil {
		return 0, false, nil
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("%s: expected an integer, got %s", label, v)
	}
	return n, true, nil
}

// required answers an integer property that must be present.
func (a args) required(name string) (int64, error) {
	n, ok, err := a.integer(name, name)
	if err == nil && !ok {
		err = fmt.Errorf("%s is required", name)
	}
	return n, err
}

// object answers an object property, its own properties checked against
// known.
func (a args) object(name string, known ...string) (args, bool, error) {
	v := a.get(name)
	if v == nil {
		return nil, false, nil
	}
	var o args
	if err := json.Unmarshal(v, &o); err != nil || o == nil {
		return nil, false, fmt.Errorf("%s: expected an object, got %s", name, v)
	}
	return o, true, o.check(name+".", known)
}

package generated

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// The inverse of Parse (docs/mapping.md#from-an-input-to-a-command-line): an
// input object → the words that send exactly it. One encoder, shared by
// everything that shows a call as a command line (the console's :trace,
// :replay and :approvals, the write guard, :curl).
//
//   - Operands (a curated shape's) come last, in order, after "--" when one
//     begins with "-"; a flag is "--x=value" ("-X value" for a short flag),
//     an array one occurrence per element, a JSON-valued leaf its compact
//     JSON, true the bare flag and false "--x=false"; a string that would
//     read as another type is written JSON-quoted when the flag reads that
//     as the string ('"41"').
//   - Every value is checked by the flag's own reading, and the whole line
//     by the command's own parser: the words are kept only when they parse
//     back to an input JSON-equal to the one given (members in any order,
//     numbers as written).
//   - Anything else — a null no flag reads, an empty array or object at a
//     flattened position, a key the schema does not declare, a value its
//     flag would read differently, a string starting with '@' (a file to a
//     JSON-valued flag), any Hazard character anywhere — is written as
//     "--input-json <json>", the whole input as SafeInputJSON.

// InputJSONOption is the option that carries a whole input as JSON.
const InputJSONOption = "--input-json"

// ErrNotObject: the input is not one JSON object, so no command line
// sends it.
var ErrNotObject = errors.New("the input is not a JSON object")

// Operand is a positional operand of a curated shape: the top-level field
// it binds, whether the line must give it, and what is sent when the line
// does not.
type Operand struct {
	Field    string
	Required bool
	Default  string
}

// ArgvOptions are a command's operands and its own parser, for a curated
// shape (Argv uses the generated command's).
type ArgvOptions struct {
	Operands []Operand
	// Parse reads the words back as the command's line does (its habits,
	// operands and checks) and returns the input they send, decoded
	// (numbers as json.Number: Parsed.Input).
	Parse func(words []string) (map[string]any, error)
}

// Argv is the command line (the words after the command name, unquoted:
// see Line) that sends input with this command's flags. inputJSON is set
// when the flags cannot send it: the words are then InputJSONOption and
// the input's JSON. err is ErrNotObject for an input that is not a JSON
// object.
func (c *Command) Argv(input json.RawMessage) (words []string, inputJSON bool, err error) {
	return c.ArgvWith(input, ArgvOptions{})
}

// ArgvWith is Argv for a shape with operands and a parser of its own.
func (c *Command) ArgvWith(input json.RawMessage, o ArgvOptions) (words []string, inputJSON bool, err error) {
	obj, err := decodeInput(input)
	if err != nil {
		return nil, false, err
	}
	parse := o.Parse
	if parse == nil {
		parse = c.parseChecked
	}
	if ws, ok := c.flagWords(obj, o.Operands); ok {
		if got, err := parse(ws); err == nil && sameValue(got, obj) {
			return ws, false, nil
		}
	}
	return []string{InputJSONOption, string(SafeInputJSON(compactInput(input)))}, true, nil
}

// parseChecked is the generated command's whole reading of a line.
func (c *Command) parseChecked(words []string) (map[string]any, error) {
	p, err := c.Parse(words)
	if err == nil && p.Help {
		err = errors.New("help")
	}
	if err == nil {
		err = c.RejectOperands(p)
	}
	if err == nil {
		err = c.Validate(p)
	}
	if err != nil {
		return nil, err
	}
	return p.Input, nil
}

// decodeInput reads an input object with exact numbers; empty input is {}.
func decodeInput(input json.RawMessage) (map[string]any, error) {
	input = bytes.TrimSpace(input)
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	v, err := jsontext.ParseAny(input, maxJSONDepth)
	if err != nil {
		return nil, ErrNotObject
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, ErrNotObject
	}
	return obj, nil
}

// compactInput is a decoded input's compact JSON ({} for empty input), made
// only when the line is --input-json.
func compactInput(input json.RawMessage) []byte {
	input = bytes.TrimSpace(input)
	if len(input) == 0 {
		return []byte("{}")
	}
	return jsontext.AppendCompact(nil, input)
}

// flagWords writes obj as operands and flags; false when some part cannot
// be (the caller then writes --input-json). The result is still checked by
// parsing it back.
func (c *Command) flagWords(obj map[string]any, operands []Operand) ([]string, bool) {
	if hazardous(obj) {
		return nil, false
	}
	if len(obj) == 0 && len(operands) == 0 {
		return []string{}, true
	}
	if c.NoInput || c.FreeForm {
		return nil, false
	}
	rest := obj
	var ops []string
	if len(operands) > 0 {
		rest = make(map[string]any, len(obj))
		for k, v := range obj {
			rest[k] = v
		}
		missing := false
		for _, op := range operands {
			v, ok := rest[op.Field]
			delete(rest, op.Field)
			s, isString := v.(string)
			switch {
			case ok && !isString:
				return nil, false
			case !ok && (op.Required || op.Default != ""):
				return nil, false // the line would need it, or send the default
			case !ok:
				missing = true
			case missing:
				return nil, false // an operand after one left out
			default:
				ops = append(ops, s)
			}
		}
	}
	var words []string
	for _, f := range c.Flags {
		v, ok := valueAt(rest, f.Path)
		if !ok {
			continue
		}
		ws, ok := f.words(v)
		if !ok {
			return nil, false
		}
		words = append(words, ws...)
	}
	for _, s := range ops {
		if strings.HasPrefix(s, "-") {
			words = append(words, "--")
			break
		}
	}
	return append(words, ops...), true
}

// words writes one flag's value: its occurrences.
func (f *Flag) words(v any) ([]string, bool) {
	if f.spec.kind == vArray {
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return nil, false
		}
		out := make([]string, 0, len(list))
		for i, e := range list {
			t, ok := valueText(f.spec.elem(i), e)
			if !ok {
				return nil, false
			}
			out = append(out, f.occurrence(t)...)
		}
		return out, true
	}
	if f.Boolean() {
		switch v {
		case true:
			return []string{f.Name}, true
		case false:
			return []string{f.Name + "=false"}, true
		}
		return nil, false
	}
	t, ok := valueText(f.spec, v)
	if !ok {
		return nil, false
	}
	return f.occurrence(t), true
}

// occurrence is one "--x=value", or "-X value" for a short flag and a value
// that cannot be taken for a flag.
func (f *Flag) occurrence(text string) []string {
	if len(f.Name) == 2 && text != "" && !strings.HasPrefix(text, "-") {
		return []string{f.Name, text}
	}
	return []string{f.Name + "=" + text}
}

// valueText is the text spec reads as v, trying v's plain text and then its
// JSON; false when neither reads back as v.
func valueText(spec *valueSpec, v any) (string, bool) {
	var plain string
	switch x := v.(type) {
	case string:
		if strings.HasPrefix(x, "@") {
			return "", false // a JSON-valued flag may read it as a file
		}
		plain = x
	case json.Number:
		plain = string(x)
	case bool:
		plain = strconv.FormatBool(x)
	case nil:
		plain = "null"
	default:
		plain = string(marshalCompact(x))
	}
	if got, ok := spec.convert(plain); ok && sameValue(got, v) {
		return plain, true
	}
	if s, ok := v.(string); ok {
		quoted := string(marshalCompact(s))
		if got, ok := spec.convert(quoted); ok && sameValue(got, v) {
			return quoted, true
		}
	}
	return "", false
}

// valueAt is the value at path in obj.
func valueAt(obj map[string]any, path []string) (any, bool) {
	var cur any = obj
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// hazardous reports a key or string anywhere in v holding a Hazard
// character.
func hazardous(v any) bool {
	switch x := v.(type) {
	case string:
		return hasHazard(x)
	case map[string]any:
		for k, e := range x {
			if hasHazard(k) || hazardous(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hazardous(e) {
				return true
			}
		}
	}
	return false
}

// EqualJSON reports whether two JSON texts hold the same value: objects
// with the same members in any order, arrays element by element, numbers
// as written ("1.0" is not "1"), strings as decoded.
func EqualJSON(a, b []byte) bool {
	va, erra := decodeJSONBytes(a)
	vb, errb := decodeJSONBytes(b)
	return erra == nil && errb == nil && sameValue(va, vb)
}

func decodeJSONBytes(b []byte) (any, error) { return jsontext.ParseAny(b, maxJSONDepth) }

// sameValue compares decoded JSON (numbers as json.Number) by the rules of
// EqualJSON.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}

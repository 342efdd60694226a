package interp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// filter is a parsed, validated local filter, ready to run on a value.
type filter interface {
	name() string
	// run filters v. It returns the value to pass on, its status, and an error
	// to report (the status is then non-zero).
	run(ctx context.Context, rd Renderer, v Value) (Value, int, error)
}

// FilterNames lists the local filters in the order help texts name them.
func FilterNames() []string { return []string{"head", "tail", "wc", "grep", "jq"} }

// ShellWords lists the shell's own words.
func ShellWords() []string { return []string{"help", "exit"} }

// IsFilter reports whether name is a local filter.
func IsFilter(name string) bool { return slices.Contains(FilterNames(), name) }

// newFilter parses a filter's command line (args[0] is its name); every error is
// a usage error naming the filter.
func newFilter(args []string) (filter, error) {
	var (
		f   filter
		err error
	)
	switch args[0] {
	case "head", "tail":
		f, err = newHeadTail(args[0], args[1:])
	case "wc":
		f, err = newWC(args[1:])
	case "grep":
		f, err = newGrep(args[1:])
	case "jq":
		f, err = newJQ(args[1:])
	default:
		err = fmt.Errorf("not a filter")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", args[0], err)
	}
	return f, nil
}

// operandError rejects operands filters do not take: they read only their pipe.
func operandError(name, operand string) error {
	return fmt.Errorf("unexpected operand %q: %s reads only its pipe", operand, name)
}

// errMalformed reports a structured value whose bytes are not valid JSON.
var errMalformed = errors.New("malformed JSON value")

// source is how head, tail, wc and grep see a value: a JSON array's elements, or
// text lines.
type source struct {
	array []byte // the raw JSON array, when the value is one
	text  string // the text otherwise
}

// sourceOf views a value as lines or elements: text as its lines (text that is
// not final and parses as a JSON object or array counts as that value), an array
// as its elements, an object as the lines of its property view, a JSON string as its
// text, any other scalar as its JSON text.
func sourceOf(rd Renderer, v Value) (source, error) {
	if !v.IsJSON {
		if v.Final || !looksStructured(v.Text) {
			return source{text: v.Text}, nil
		}
		v = Value{JSON: json.RawMessage(v.Text), IsJSON: true}
	}
	raw := bytes.TrimSpace(v.JSON)
	if len(raw) == 0 {
		return source{}, nil
	}
	switch raw[0] {
	case '[':
		return source{array: raw}, nil
	case '{':
		var lines []string
		var err error
		if rd != nil {
			lines, err = rd.PropertyLines(raw)
		} else {
			lines, err = compactLines(raw)
		}
		if err != nil {
			return source{}, err
		}
		if len(lines) == 0 {
			return source{}, nil
		}
		return source{text: strings.Join(lines, "\n") + "\n"}, nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return source{}, errMalformed
		}
		return source{text: s}, nil
	}
	return source{text: string(raw)}, nil
}

// looksStructured applies the rendering rule to text that is not final: a string
// that parses as a JSON object or array counts as that structured value.
func looksStructured(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '[' && t[0] != '{') {
		return false
	}
	return json.Valid([]byte(t))
}

// compactLines is the property view used without a Renderer: one compact line.
func compactLines(raw []byte) ([]string, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, errMalformed
	}
	return []string{b.String()}, nil
}

// textValue is filter output text: final, never taken for JSON again, and
// written byte for byte, so non-empty text always ends its last line.
func textValue(s string) Value {
	if s != "" && s[len(s)-1] != '\n' {
		s += "\n"
	}
	return Value{Text: s, Final: true}
}

// arrayValue wraps the inner bytes of a JSON array (elements and commas).
func arrayValue(inner []byte) Value {
	b := make([]byte, 0, len(inner)+2)
	b = append(b, '[')
	b = append(b, inner...)
	b = append(b, ']')
	return Value{JSON: b, IsJSON: true}
}

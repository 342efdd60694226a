package generated

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The whole input as one JSON object (--input-json, docs/cli.md#global-options):
// the object's members are checked against the schema as flags are, and
// the flags given beside it override them.

// UnknownMemberError is a member of the input object that no flag (and no
// operand) stands for.
type UnknownMemberError struct {
	Member      string   // its path, dot-joined ("page.sizee")
	Suggestions []string // close members, best first
	Members     []string // the members the input takes, top level
}

// Error implements error.
func (e *UnknownMemberError) Error() string {
	var b strings.Builder
	b.WriteString("unknown member " + strconv.Quote(e.Member) + " in --input-json")
	if len(e.Suggestions) > 0 {
		b.WriteString(" (did you mean " + orList(e.Suggestions) + "?)")
	}
	if len(e.Members) == 0 {
		b.WriteString("; this command takes no input")
	} else {
		b.WriteString("; members: " + strings.Join(e.Members, ", "))
	}
	return b.String()
}

// ExitCode is 2 (usage).
func (e *UnknownMemberError) ExitCode() int { return exitUsage }

// Merge makes base (a decoded JSON object, numbers as json.Number) the
// input of p, the flags p set overriding its members leaf by leaf (a
// repeatable flag replaces the member's array). Every member must be one
// a flag stands for, a parent of such members, or an omitted property (a
// curated operand's field), with a value its flag would accept: otherwise
// an *UnknownMemberError or a *BadValueError. Validate then reports the
// required flags neither gave.
func (c *Command) Merge(p *Parsed, base map[string]any) error {
	if err := c.checkMembers(base, nil); err != nil {
		return err
	}
	merged := base
	for _, f := range c.allFlags() {
		if v, ok := lookupPath(p.Input, f.Path); ok {
			setPath(merged, f.Path, v, false)
		}
	}
	p.Input = merged
	return nil
}

// allFlags are the flags and the omitted properties' hidden flags.
func (c *Command) allFlags() []*Flag {
	out := slices.Clone(c.Flags)
	names := make([]string, 0, len(c.omitted))
	for n := range c.omitted {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, c.omitted[n])
	}
	return out
}

// checkMembers checks the members of obj at path prefix.
func (c *Command) checkMembers(obj map[string]any, prefix []string) error {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := append(slices.Clip(prefix), k)
		v := obj[k]
		if f := c.flagAt(path); f != nil {
			if err := f.checkValue(path, v); err != nil {
				return err
			}
			continue
		}
		if c.parentOf(path) {
			child, ok := v.(map[string]any)
			if !ok {
				return &BadValueError{Flag: memberName(path), Value: memberText(v), Expected: "a JSON object"}
			}
			if err := c.checkMembers(child, path); err != nil {
				return err
			}
			continue
		}
		return c.unknownMember(path)
	}
	return nil
}

// flagAt is the flag (or omitted property) standing for exactly path.
func (c *Command) flagAt(path []string) *Flag {
	for _, f := range c.allFlags() {
		if slices.Equal(f.Path, path) {
			return f
		}
	}
	return nil
}

// parentOf reports a path some flag's path goes through.
func (c *Command) parentOf(path []string) bool {
	for _, f := range c.Flags {
		if len(f.Path) > len(path) && slices.Equal(f.Path[:len(path)], path) {
			return true
		}
	}
	return false
}

// checkValue checks a member's value as the flag would take it.
func (f *Flag) checkValue(path []string, v any) error {
	bad := func(spec *valueSpec) error {
		return &BadValueError{Flag: memberName(path), Value: memberText(v), Expected: spec.expected()}
	}
	spec := f.spec
	if spec.kind == vArray && f.Repeatable {
		list, ok := v.([]any)
		if !ok {
			return &BadValueError{Flag: memberName(path), Value: memberText(v), Expected: "an array"}
		}
		for i, e := range list {
			if !spec.elem(i).allows(e) {
				return bad(spec.elem(i))
			}
		}
		return nil
	}
	if !spec.allows(v) {
		return bad(spec)
	}
	return nil
}

// unknownMember is the error of a member no flag stands for, suggesting
// close members at the same level.
func (c *Command) unknownMember(path []string) error {
	var here []string
	seen := map[string]bool{}
	for _, f := range c.allFlags() {
		if len(f.Path) >= len(path) && slices.Equal(f.Path[:len(path)-1], path[:len(path)-1]) {
			if m := f.Path[len(path)-1]; !seen[m] {
				seen[m] = true
				here = append(here, m)
			}
		}
	}
	var sugg []string
	for _, s := range Suggest(path[len(path)-1], here) {
		sugg = append(sugg, strconv.Quote(strings.Join(append(slices.Clip(path[:len(path)-1]), s), ".")))
	}
	top := slices.Clone(c.Properties)
	return &UnknownMemberError{Member: strings.Join(path, "."), Suggestions: sugg, Members: top}
}

// memberName names a member in an error: `member "page.size" of --input-json`.
func memberName(path []string) string {
	return "member " + strconv.Quote(strings.Join(path, ".")) + " of --input-json"
}

// memberText is a member's value as an error shows it: a string's text, else
// its compact JSON.
func memberText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(marshalCompact(v))
}

// lookupPath is the value at path, if set.
func lookupPath(m map[string]any, path []string) (any, bool) {
	for i, k := range path {
		v, ok := m[k]
		if !ok {
			return nil, false
		}
		if i == len(path)-1 {
			return v, true
		}
		if m, ok = v.(map[string]any); !ok {
			return nil, false
		}
	}
	return nil, false
}

// DecodeInput decodes an input object: exactly one JSON object, numbers
// kept as written. The error says what is wrong, with the line and column
// of a syntax error.
func DecodeInput(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errorf("more than one JSON value, or text after the object (the input is one object)")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errorf("expected one JSON object, not %s", jsonKind(v))
	}
	return obj, nil
}

// jsonError words a decoding error, with the position of a syntax error.
func jsonError(data []byte, err error) error {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if err.Error() == "EOF" {
		return errorf("not valid JSON: empty")
	}
	if err.Error() == "unexpected EOF" {
		return errorf("not valid JSON: it ends before the object does")
	}
	if off >= 0 && off <= int64(len(data)) {
		line, col := 1, 1
		for _, c := range data[:max(off-1, 0)] {
			if c == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return errorf("not valid JSON at line %d, column %d: %s", line, col, msg)
	}
	return errorf("not valid JSON: %s", msg)
}

// jsonKind names a decoded JSON value's type.
func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "an object"
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

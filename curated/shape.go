package curated

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/generated"
)

// Operand is a bound positional argument.
type Operand struct {
	Name        string // "path", "pattern"
	Field       string // the schema field it binds to
	Required    bool
	Default     string
	Description string // the field's description
	// Path: a path in the workspace (Tab lists remote paths for it).
	Path bool
}

// Shape is a curated command bound to a live schema.
type Shape struct {
	Name string
	// Spec is the command's row of the table: its behaviour.
	Spec *Spec
	// Bound is false when an operand found no field: the command then is the
	// generated shape, with no operands and no reformatting.
	Bound    bool
	Operands []Operand
	// Flags are the command's flags (the generated mapping of every field not
	// bound to an operand).
	Flags *generated.Command
	// missing names the operand that could not bind; fields lists the
	// schema's top-level fields (for the NOTES line).
	missing string
	fields  []string
}

// Bind binds the curated command named name to its tool's live input
// schema. It returns nil for a name without a curated command.
func Bind(name string, schema json.RawMessage) (*Shape, error) {
	sp, ok := Lookup(name)
	if !ok {
		return nil, nil
	}
	props, err := topLevelTypes(schema)
	if err != nil {
		return nil, err
	}
	s := &Shape{Name: name, Spec: sp, Bound: true}
	for _, p := range props {
		s.fields = append(s.fields, p.name)
	}
	var omit []string
	for _, o := range sp.Operands {
		field := firstOfType(props, o.Candidates, "string")
		if field == nil {
			s.Bound, s.missing = false, o.Name
			break
		}
		s.Operands = append(s.Operands, Operand{Name: o.Name, Field: field.name, Required: o.Required,
			Default: o.Default, Description: field.description, Path: o.Path})
		omit = append(omit, field.name)
	}
	if !s.Bound {
		s.Operands = nil
		s.Flags, err = generated.Build(schema, generated.BuildOptions{})
		return s, err
	}
	rename := map[string]string{}
	for _, f := range sp.Flags {
		field := firstOfType(props, f.Candidates, f.Type)
		switch {
		case field != nil && f.Spelling != "":
			rename[field.name] = f.Spelling
		case field == nil && f.Spelling == "" && typedOtherwise(props, f.Candidates[0]):
			// A field of another type than the shape expects: not offered.
			omit = append(omit, f.Candidates[0])
		}
	}
	s.Flags, err = generated.Build(schema, generated.BuildOptions{Omit: omit, Rename: rename})
	return s, err
}

// Synopsis is the SYNOPSIS line: "grep [options...] <pattern> [path]".
func (s *Shape) Synopsis() string {
	var b strings.Builder
	b.WriteString(s.Name)
	if len(s.Flags.Flags) > 0 {
		b.WriteString(" [options...]")
	}
	for _, o := range s.Operands {
		if o.Required {
			fmt.Fprintf(&b, " <%s>", o.Name)
		} else {
			fmt.Fprintf(&b, " [%s]", o.Name)
		}
	}
	return b.String()
}

// Note is the NOTES line of a shape that fell back to generic flags, "" when
// bound.
func (s *Shape) Note() string {
	if s.Bound {
		return ""
	}
	fields := "none"
	if len(s.fields) > 0 {
		fields = strings.Join(s.fields, ", ")
	}
	return fmt.Sprintf("Generic flags: this deployment's %s has no %s field (fields: %s).", s.Name, s.missing, fields)
}

type property struct {
	name, typ, itemType, description string
}

// typedOtherwise reports whether the field name is declared with a type (any
// type: the caller found none of the one it expects).
func typedOtherwise(props []property, name string) bool {
	for _, p := range props {
		if p.name == name {
			return p.typ != ""
		}
	}
	return false
}

func firstOfType(props []property, candidates []string, typ string) *property {
	for _, c := range candidates {
		for i := range props {
			p := &props[i]
			if p.name != c {
				continue
			}
			if typ == "array" {
				if p.typ == "array" && (p.itemType == "string" || p.itemType == "") {
					return p
				}
			} else if p.typ == typ {
				return p
			}
		}
	}
	return nil
}

// topLevelTypes reads the schema's top-level properties in document order
// with their type (a nullable ["string","null"] counts as string).
func topLevelTypes(schema json.RawMessage) ([]property, error) {
	var top struct {
		Properties json.RawMessage `json:"properties"`
	}
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(schema, &top); err != nil {
		// Not an object schema (true, {} …): no fields at all.
		var any_ any
		if json.Unmarshal(schema, &any_) == nil {
			return nil, nil
		}
		return nil, fmt.Errorf("input schema is not valid JSON: %v", err)
	}
	if len(top.Properties) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(top.Properties))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil
	}
	var props []property
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil
		}
		name, _ := t.(string)
		var p struct {
			Type        json.RawMessage `json:"type"`
			Description string          `json:"description"`
			Items       struct {
				Type json.RawMessage `json:"type"`
			} `json:"items"`
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil
		}
		_ = json.Unmarshal(raw, &p)
		props = append(props, property{name: name, typ: mainType(p.Type), itemType: mainType(p.Items.Type), description: p.Description})
	}
	return props, nil
}

// mainType is the one non-null type of a "type" keyword, "" when none or
// several.
func mainType(raw json.RawMessage) string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		t := ""
		for _, m := range many {
			if m == "null" {
				continue
			}
			if t != "" {
				return ""
			}
			t = m
		}
		return t
	}
	return ""
}

// Argv is the command line that sends input with this command (the words
// after its name, unquoted; generated.Line quotes them): the operands and
// flags of the bound shape, read back through Parse before they are kept,
// or --input-json when they cannot send it (generated.ArgvWith).
func (s *Shape) Argv(input json.RawMessage) (words []string, inputJSON bool, err error) {
	if !s.Bound {
		return s.Flags.Argv(input)
	}
	ops := make([]generated.Operand, len(s.Operands))
	for i, o := range s.Operands {
		ops[i] = generated.Operand{Field: o.Field, Required: o.Required, Default: o.Default}
	}
	return s.Flags.ArgvWith(input, generated.ArgvOptions{Operands: ops, Parse: func(words []string) (map[string]any, error) {
		call, err := s.parse(words, generated.ParseOptions{}, nil)
		if err != nil {
			return nil, err
		}
		if call.Parsed.Help {
			return nil, &UsageError{"help"}
		}
		// The input sent, operands included (Parse adds them to it).
		return call.Parsed.Input, nil
	}})
}

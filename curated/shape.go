package curated

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/generated"
)

// An operandSpec is one positional argument of a curated shape: the schema
// fields it may bind to, first match wins, each a string field.
type operandSpec struct {
	name       string
	candidates []string
	required   bool   // the command line must give it
	def        string // sent when not given ("" sends nothing)
}

// A flagSpec renames the generated flag of the first candidate field found
// with the expected type; one without a spelling keeps the generated
// spelling, and its one field is not offered when of another type.
type flagSpec struct {
	spelling   string
	candidates []string
	typ        string // JSON schema type of the field ("array" for string arrays)
}

type spec struct {
	operands []operandSpec
	flags    []flagSpec
}

// typed is a flag that keeps its generated spelling but is offered only when
// its field has the expected type.
func typed(field, typ string) flagSpec {
	return flagSpec{candidates: []string{field}, typ: typ}
}

// DefaultRoot is the workspace root ls lists without an operand.
const DefaultRoot = "/repo"

// specs are the curated shapes of file-tools.md, "The curated commands".
// Flags not listed keep their generated spelling, which is the curated one
// for read (--offset, --limit) and grep (-i, -A, -B, -C, --output-mode, …).
var specs = map[string]spec{
	"ls": {
		operands: []operandSpec{{name: "path", candidates: []string{"target_directory", "path", "dir"}, def: DefaultRoot}},
		flags:    []flagSpec{{spelling: "--ignore-globs", candidates: []string{"ignore_globs", "ignore"}, typ: "array"}},
	},
	"read": {
		operands: []operandSpec{{name: "path", candidates: []string{"path", "target_file", "file_path"}, required: true}},
		flags:    []flagSpec{typed("offset", "integer"), typed("limit", "integer")},
	},
	"grep": {
		operands: []operandSpec{
			{name: "pattern", candidates: []string{"pattern"}, required: true},
			{name: "path", candidates: []string{"path"}},
		},
		flags: []flagSpec{typed("-i", "boolean"), typed("-A", "integer"), typed("-B", "integer"), typed("-C", "integer"),
			typed("output_mode", "string"), typed("head_limit", "integer"), typed("glob", "string"),
			typed("type", "string"), typed("offset", "integer"), typed("multiline", "boolean")},
	},
	"glob": {operands: []operandSpec{
		{name: "pattern", candidates: []string{"glob_pattern", "pattern"}, required: true},
		{name: "path", candidates: []string{"target_directory", "path"}},
	}},
	"diff": {operands: []operandSpec{{name: "path", candidates: []string{"path"}}}},
}

// Has reports whether name has a curated shape. Only the deployment's
// authored tools of these names get one; the caller checks that.
func Has(name string) bool { _, ok := specs[name]; return ok }

// Operand is a bound positional argument.
type Operand struct {
	Name        string // "path", "pattern"
	Field       string // the schema field it binds to
	Required    bool
	Default     string
	Description string // the field's description
}

// Shape is a curated command bound to a live schema.
type Shape struct {
	Name string
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

// Bind binds the curated shape of name to a tool's live input schema. It
// returns nil for a name without a curated shape.
func Bind(name string, schema json.RawMessage) (*Shape, error) {
	sp, ok := specs[name]
	if !ok {
		return nil, nil
	}
	props, err := topLevelTypes(schema)
	if err != nil {
		return nil, err
	}
	s := &Shape{Name: name, Bound: true}
	for _, p := range props {
		s.fields = append(s.fields, p.name)
	}
	var omit []string
	for _, o := range sp.operands {
		field := firstOfType(props, o.candidates, "string")
		if field == nil {
			s.Bound, s.missing = false, o.name
			break
		}
		s.Operands = append(s.Operands, Operand{Name: o.name, Field: field.name, Required: o.required,
			Default: o.def, Description: field.description})
		omit = append(omit, field.name)
	}
	if !s.Bound {
		s.Operands = nil
		s.Flags, err = generated.Build(schema, generated.BuildOptions{})
		return s, err
	}
	rename := map[string]string{}
	for _, f := range sp.flags {
		field := firstOfType(props, f.candidates, f.typ)
		switch {
		case field != nil && f.spelling != "":
			rename[field.name] = f.spelling
		case field == nil && f.spelling == "" && typedOtherwise(props, f.candidates[0]):
			// A field of another type than the shape expects: not offered.
			omit = append(omit, f.candidates[0])
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

package generated

import (
	"encoding/json"
	"strings"
)

// Flag is one command-line flag: one leaf of the input schema.
type Flag struct {
	Name        string            // full spelling: "--org-slug", "-i", "--h", "--output-2"
	Path        []string          // property path from the input object: ["telemetry","context"]
	Renamed     bool              // got a collision suffix or literal-conflict rename: help shows the property
	Type        string            // "string","integer","number","boolean","json","enum","union"
	Placeholder string            // "<string>","<integer>","<number>","<json>","<a|b|c>","<string|integer|null>"; "" for booleans
	Repeatable  bool              // arrays: one element per occurrence
	Required    bool              // it and all its ancestors are required
	Description string            // the schema's description, verbatim
	Default     json.RawMessage   // nil when none (or null)
	Enum        []json.RawMessage // allowed values (const: one), nil otherwise
	EnumTitles  []string          // each Enum value's title or description ("" none), from oneOf of titled consts; nil when none has one
	Format      string            // the schema's format, shown not enforced
	Constraints []Constraint      // pattern, minimum, maxLength, …: shown, not enforced
	Shape       string            // a JSON-valued flag: the shape one occurrence takes ("{name: string, tags?: [string]}"); "" otherwise

	spec *valueSpec // how text becomes a value (the element spec for arrays)
	base string     // the spelling it was renamed away from ("--target"); "" when not renamed
}

// Constraint is a validation keyword of the schema, shown in help and not
// enforced: Keyword is "minimum", "pattern", …; Value its compact JSON.
type Constraint struct {
	Keyword string
	Value   json.RawMessage
}

// Property is the schema property the flag stands for, dot-joined
// ("telemetry.context").
func (f *Flag) Property() string { return strings.Join(f.Path, ".") }

// Boolean reports whether the flag is valueless (a non-array boolean).
func (f *Flag) Boolean() bool { return f.spec.kind == vBoolean }

// TakesValue reports whether the flag needs a value.
func (f *Flag) TakesValue() bool { return !f.Boolean() }

// constraintKeywords are the validation keywords help shows, in this order.
var constraintKeywords = [...]string{
	"pattern", "minLength", "maxLength", "minimum", "exclusiveMinimum", "maximum",
	"exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems",
}

// describe fills the help fields of a flag from its view.
func (f *Flag) describe(v *view) {
	f.Description = v.str("description")
	if f.Description == "" {
		f.Description = v.str("title")
	}
	f.Format = v.str("format")
	if d := v.kw("default"); d != nil && d.kind != jNull {
		f.Default = d.raw()
	}
	for _, k := range constraintKeywords {
		if c := v.kw(k); c != nil {
			f.Constraints = append(f.Constraints, Constraint{Keyword: k, Value: c.raw()})
		}
	}
	s := f.spec
	if s.kind == vArray {
		f.Repeatable = true
		s = s.item
		if len(f.spec.tuple) > 0 {
			s = jsonSpec(false)
		}
	}
	f.Type, f.Placeholder = typeAndPlaceholder(s, f.Repeatable)
	if s.kind == vEnum {
		for _, e := range s.enum {
			f.Enum = append(f.Enum, e.raw())
		}
		if len(s.enum) > 1 {
			f.EnumTitles = s.titles // a lone const's title is the flag's own
		}
	}
}

// maxEnumPlaceholder is the longest "<a|b|c>" placeholder; a longer enum
// shows its type instead ("<string>") and its values once, in help's facts.
const maxEnumPlaceholder = 40

// enumType names the JSON type every value of an enum shares ("string",
// "integer", "number", "boolean"), else "value".
func enumType(vals []*jvalue) string {
	t := ""
	for _, v := range vals {
		var k string
		switch v.kind {
		case jString:
			k = "string"
		case jBool:
			k = "boolean"
		case jNumber:
			k = "number"
			if !strings.ContainsAny(v.s, ".eE") {
				k = "integer"
			}
		default:
			return "value"
		}
		switch {
		case t == "":
			t = k
		case t == k:
		case t == "integer" && k == "number" || t == "number" && k == "integer":
			t = "number"
		default:
			return "value"
		}
	}
	if t == "" {
		return "value"
	}
	return t
}

func typeAndPlaceholder(s *valueSpec, repeated bool) (string, string) {
	switch s.kind {
	case vString:
		return "string", "<string>"
	case vInteger:
		return "integer", "<integer>"
	case vNumber:
		return "number", "<number>"
	case vBoolean:
		if repeated {
			return "boolean", "<true|false>"
		}
		return "boolean", ""
	case vEnum:
		texts := make([]string, len(s.enum))
		for i, e := range s.enum {
			texts[i] = e.label()
		}
		ph := "<" + strings.Join(texts, "|") + ">"
		if len(ph) > maxEnumPlaceholder {
			// A long enum is printed once, in the facts line ("One of: …").
			ph = "<" + enumType(s.enum) + ">"
		}
		return "enum", ph
	case vUnion:
		return "union", unionPlaceholder(s)
	}
	return "json", "<json>"
}

// unionPlaceholder names the types of a union of scalars in their order,
// null last when allowed: "<string|number|boolean|null>". An enum branch
// shows its values, or their type when that would be long.
func unionPlaceholder(s *valueSpec) string {
	var names []string
	add := func(n string) {
		if !contains(names, n) {
			names = append(names, n)
		}
	}
	for _, b := range s.branches {
		if b.kind != vEnum {
			t, _ := typeAndPlaceholder(b, false)
			add(t)
			continue
		}
		var labels []string
		for _, e := range b.enum {
			labels = append(labels, e.label())
		}
		if l := strings.Join(labels, "|"); len(l) <= maxEnumPlaceholder/2 {
			add(l)
		} else {
			add(enumType(b.enum))
		}
	}
	if s.null {
		add("null")
	}
	return "<" + strings.Join(names, "|") + ">"
}

// str returns the first string value of a keyword among the parts.
func (v *view) str(name string) string {
	if m := v.kw(name); m != nil && m.kind == jString {
		return m.s
	}
	return ""
}

package generated

import (
	"fmt"
	"strings"
)

// Validate reports every required flag missing from p in one
// *MissingFlagError, or nil.
func (c *Command) Validate(p *Parsed) error {
	var missing, boolean []string
	for _, f := range c.Flags {
		if f.Required && (p == nil || !getPath(p.Input, f.Path)) {
			missing = append(missing, f.Name)
			if f.Boolean() {
				boolean = append(boolean, f.Name)
			}
		}
	}
	if len(missing) > 0 {
		return &MissingFlagError{Flags: missing, Boolean: boolean}
	}
	return nil
}

// RejectOperands reports the first operand as an *OperandError (generated
// commands take flags only), suggesting the flag it most likely meant.
func (c *Command) RejectOperands(p *Parsed) error {
	if p == nil || len(p.Operands) == 0 {
		return nil
	}
	op := p.Operands[0]
	return &OperandError{Operand: op, Suggestion: c.suggestFor(op, p), NoFlags: len(c.Flags) == 0}
}

// suggestFor guesses what an operand meant: "name=value" → --name=value; a
// word close to a flag's name → that flag; else the first unset flag
// (required ones first) whose type accepts the word as its value.
func (c *Command) suggestFor(op string, p *Parsed) string {
	if f := p.boolBefore[0]; f != nil && (op == "true" || op == "false") {
		return f.Name + "=" + op
	}
	if key, val, ok := strings.Cut(op, "="); ok && key != "" {
		if f := c.byProperty(key); f != nil {
			return f.Name + "=" + val
		}
	}
	if f := c.byProperty(op); f != nil {
		if f.Boolean() {
			return f.Name
		}
		return f.Name + " " + f.Placeholder
	}
	if s := Suggest("--"+Kebab(op), c.FlagNames()); len(s) > 0 && len(op) > 2 {
		f := c.Lookup(s[0])
		if f.Boolean() {
			return f.Name
		}
		return f.Name + " " + f.Placeholder
	}
	// Required flags first, then optional typed ones; a JSON-valued flag
	// takes almost any word, so it is the last resort.
	for pass := 0; pass < 3; pass++ {
		for _, f := range c.Flags {
			if f.Boolean() || getPath(p.Input, f.Path) {
				continue
			}
			spec := f.spec
			if spec.kind == vArray {
				spec = spec.elem(0)
			}
			isJSON := spec.kind == vJSON
			switch pass {
			case 0:
				if !f.Required || isJSON {
					continue
				}
			case 1:
				if f.Required || isJSON || spec.takesString() {
					continue
				}
			default:
				if !isJSON || !f.Required && spec.takesString() {
					continue
				}
			}
			if _, ok := spec.convert(op); ok {
				if strings.HasPrefix(op, "-") {
					return f.Name + "=" + op
				}
				return f.Name + " " + op
			}
		}
	}
	return ""
}

// byProperty finds the flag whose name or property matches a word.
func (c *Command) byProperty(word string) *Flag {
	if f := c.Lookup("--" + Kebab(word)); f != nil {
		return f
	}
	for _, f := range c.Flags {
		if f.Property() == word || f.Name == word {
			return f
		}
	}
	return nil
}

// Bind sets an omitted top-level property (BuildOptions.Omit) from operand
// text, converted as its flag would convert it; for an array property each
// call appends one element. A value the schema does not accept is a
// *BadValueError naming the operand as <property>.
func (c *Command) Bind(p *Parsed, property, text string) error {
	f := c.omitted[property]
	if f == nil {
		return fmt.Errorf("generated: %q is not an omitted property of this command", property)
	}
	if p.Input == nil {
		p.Input = map[string]any{}
	}
	spec := f.spec
	if spec.kind == vArray {
		list, _ := p.Input[property].([]any)
		spec = spec.elem(len(list))
	}
	v, ok := spec.convert(text)
	if !ok {
		return &BadValueError{Flag: f.Name, Value: text, Expected: spec.expected(), Item: spec.badItemText(text)}
	}
	setPath(p.Input, f.Path, v, f.Repeatable)
	return nil
}

// Omitted returns the hidden flag of an omitted top-level property (its
// Name is "<property>"; Type, Placeholder, Description… as for a flag), or
// nil.
func (c *Command) Omitted(property string) *Flag {
	if c == nil {
		return nil
	}
	return c.omitted[property]
}

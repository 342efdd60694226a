package generated

import (
	"encoding/json"
	"strings"
)

// Parsed is the result of parsing the words of one call.
type Parsed struct {
	Input    map[string]any // only the flags the user set, ancestors built; numbers as json.Number
	Operands []string       // non-flag words and everything after "--", in order
	Globals  []Global       // reserved global options seen, in order
	Help     bool           // -h or --help seen as a flag token before "--"

	// boolBefore maps an operand's index to the valueless flag given bare
	// just before it ("--force false"), for the operand suggestion.
	boolBefore map[int]*Flag
}

// Global is a reserved global option and its value; Name is like "--output".
type Global struct{ Name, Value string }

// JSON returns the input object to send: compact, numbers exactly as
// given, "{}" when no flag was set.
func (p *Parsed) JSON() json.RawMessage {
	if p == nil || len(p.Input) == 0 {
		return json.RawMessage("{}")
	}
	return marshalCompact(p.Input)
}

// ParseOptions adjust one Parse. The zero value parses the words alone.
type ParseOptions struct {
	// ReadRef reads what a value "@file" or "@-" of a JSON-valued flag
	// whose schema has no string branch names (a string branch keeps "@x"
	// a string, so no value valid without it changes meaning); nil: such a
	// value is taken as written. Its error is the line's.
	ReadRef func(flag, ref string) ([]byte, error)
}

// parser is the state of one Parse call.
type parser struct {
	c     *Command
	o     ParseOptions
	p     *Parsed
	args  []string
	i     int
	count map[*Flag]int
	err   error
	bare  *Flag // the valueless flag the current word gave bare, if any
}

// Parse parses argv (everything after the tool name, global options
// included) for one call. Reserved global options are recognized before
// "--" anywhere and returned in Globals, never sent. Operands are returned
// in order; Parse does not reject them (see RejectOperands). When -h or
// --help was seen, Parse reports no error so the caller can print help;
// otherwise it returns the first error.
func (c *Command) Parse(args []string) (*Parsed, error) {
	return c.ParseWith(args, ParseOptions{})
}

// ParseWith is Parse with options.
func (c *Command) ParseWith(args []string, o ParseOptions) (*Parsed, error) {
	ps := &parser{c: c, o: o, p: &Parsed{Input: map[string]any{}}, args: args, count: map[*Flag]int{}}
	for ps.i = 0; ps.i < len(args); ps.i++ {
		a := args[ps.i]
		prev := ps.bare
		ps.bare = nil
		switch {
		case a == "--":
			ps.p.Operands = append(ps.p.Operands, args[ps.i+1:]...)
			ps.i = len(args)
		case len(a) < 2 || a[0] != '-':
			if prev != nil {
				if ps.p.boolBefore == nil {
					ps.p.boolBefore = map[int]*Flag{}
				}
				ps.p.boolBefore[len(ps.p.Operands)] = prev
			}
			ps.p.Operands = append(ps.p.Operands, a)
		case a[1] == '-':
			ps.long(a)
		default:
			ps.short(a)
		}
	}
	if ps.p.Help {
		return ps.p, nil
	}
	if ps.err != nil {
		return nil, ps.err
	}
	return ps.p, nil
}

func (ps *parser) fail(err error) {
	if ps.err == nil {
		ps.err = err
	}
}

// long handles "--name" and "--name=value".
func (ps *parser) long(a string) {
	name, val, hasVal := strings.Cut(a, "=")
	if name == "--help" {
		ps.p.Help = true
		return
	}
	if o, ok := LookupGlobal(name); ok && o.Reserves() && !o.TakesValue() {
		// A valueless option of agsh's own (--yes).
		if hasVal {
			ps.fail(&BadValueError{Flag: name, Value: val, Expected: "no value (" + name + " alone)"})
			return
		}
		ps.p.Globals = append(ps.p.Globals, Global{Name: name, Value: "true"})
		return
	}
	if IsGlobalWithValue(name) {
		if f := ps.c.RenamedFrom(name); f != nil && connectionOptions[name] != "" {
			// A connection option after the command name whose spelling a
			// property of this tool was renamed away from: never taken as
			// agsh's (docs/cli.md#options-after-the-command-name).
			ps.fail(&ShadowedOptionError{Option: name, Flag: f.Name, Property: f.Property()})
			if !hasVal && ps.i+1 < len(ps.args) && !strings.HasPrefix(ps.args[ps.i+1], "-") {
				ps.i++
			}
			return
		}
		if v, ok := ps.value(name, val, hasVal, nil); ok {
			ps.p.Globals = append(ps.p.Globals, Global{Name: name, Value: v})
		}
		return
	}
	f := ps.c.Lookup(name)
	if f == nil {
		ps.fail(ps.unknown(name))
		return
	}
	ps.flag(f, val, hasVal)
}

// short handles "-X", "-Xvalue", "-X=value", "-X value" and bundled
// valueless short flags ("-iv").
func (ps *parser) short(a string) {
	if a == "-h" {
		ps.p.Help = true
		return
	}
	f := ps.c.Lookup(a[:2])
	if f == nil {
		if isJSONNumber(a) {
			ps.p.Operands = append(ps.p.Operands, a)
			return
		}
		name, _, _ := strings.Cut(a, "=")
		ps.fail(ps.unknown(name))
		return
	}
	rest := a[2:]
	switch {
	case rest == "":
		ps.flag(f, "", false)
	case rest[0] == '=':
		ps.flag(f, rest[1:], true)
	case !f.Boolean():
		ps.flag(f, rest, true)
	default:
		ps.bundle(f, rest)
	}
}

// bundle sets "-iv": every letter must be a valueless short flag.
func (ps *parser) bundle(f *Flag, rest string) {
	flags := []*Flag{f}
	for _, r := range rest {
		g := ps.c.Lookup("-" + string(r))
		if g == nil || !g.Boolean() {
			ps.fail(&BadValueError{Flag: f.Name, Value: rest, Expected: "true or false (or the bare flag)"})
			return
		}
		flags = append(flags, g)
	}
	for _, g := range flags {
		ps.flag(g, "", false)
	}
}

// unknown builds the error for a flag the tool does not have; the
// suggestions also consider the reserved global options.
func (ps *parser) unknown(name string) error {
	names := ps.c.FlagNames()
	cands := append(names[:len(names):len(names)], reservedNames()...)
	sugg := Suggest(name, cands)
	// A property spelled as in the schema ("--per_page", "--telemetry.context")
	// suggests the flag that stands for it first.
	prop := strings.TrimLeft(name, "-")
	for _, f := range ps.c.Flags {
		if f.Property() == prop && f.Name != name {
			out := []string{f.Name}
			for _, s := range sugg {
				if s != f.Name && len(out) < 3 {
					out = append(out, s)
				}
			}
			sugg = out
			break
		}
	}
	return &UnknownFlagError{Flag: name, Suggestions: sugg, Flags: names, FreeForm: ps.c.FreeForm}
}

// value returns the value of a flag that needs one: after "=", else the
// next word unless it begins with "-" (a negative number is taken when
// spec takes one; spec is nil for a global option).
func (ps *parser) value(name, val string, hasVal bool, spec *valueSpec) (string, bool) {
	if hasVal {
		return val, true
	}
	if ps.i+1 >= len(ps.args) {
		ps.fail(&MissingValueError{Flag: name})
		return "", false
	}
	next := ps.args[ps.i+1]
	if len(next) > 1 && next[0] == '-' && !(spec != nil && spec.takesNegative() && isJSONNumber(next)) {
		e := &MissingValueError{Flag: name, Next: next}
		// The "--x=value" hint only when the next word could be the value:
		// not a flag of this command, and accepted by the flag's type.
		if ps.isFlagWord(next) || spec != nil && !spec.accepts(next) {
			e.Before = true
		}
		ps.fail(e)
		return "", false
	}
	ps.i++
	return next, true
}

// isFlagWord reports whether a word is a flag of this command or a
// reserved option ("--count", "--count=1", "-A2", "--output").
func (ps *parser) isFlagWord(w string) bool {
	name, _, _ := strings.Cut(w, "=")
	if isReserved(name) {
		return true
	}
	if ps.c.Lookup(name) != nil {
		return true
	}
	return len(w) >= 2 && w[1] != '-' && ps.c.Lookup(w[:2]) != nil
}

// flag applies one occurrence of a tool flag.
func (ps *parser) flag(f *Flag, val string, hasVal bool) {
	n := ps.count[f]
	spec := f.spec
	if spec.kind == vArray {
		spec = spec.elem(n)
	}
	text := "true"
	if f.Boolean() {
		if hasVal {
			text = val
		} else {
			ps.bare = f
		}
	} else {
		v, ok := ps.value(f.Name, val, hasVal, spec)
		if !ok {
			return
		}
		text = v
	}
	ps.count[f] = n + 1
	if n > 0 && !f.Repeatable {
		ps.fail(&DuplicateFlagError{Flag: f.Name})
		return
	}
	if spec.takesRef() && ps.o.ReadRef != nil && strings.HasPrefix(text, "@") {
		b, err := ps.o.ReadRef(f.Name, text[1:])
		if err != nil {
			ps.fail(err)
			return
		}
		text = string(b)
	}
	v, ok := spec.convert(text)
	if !ok {
		exp := spec.expected()
		if f.Boolean() {
			exp += " (or the bare flag)"
		}
		ps.fail(&BadValueError{Flag: f.Name, Value: text, Expected: exp, Item: spec.badItemText(text)})
		return
	}
	setPath(ps.p.Input, f.Path, v, f.Repeatable)
}

// setPath stores v at path, building the ancestors; repeated appends.
func setPath(m map[string]any, path []string, v any, repeated bool) {
	for _, k := range path[:len(path)-1] {
		child, ok := m[k].(map[string]any)
		if !ok {
			child = map[string]any{}
			m[k] = child
		}
		m = child
	}
	last := path[len(path)-1]
	if repeated {
		list, _ := m[last].([]any)
		m[last] = append(list, v)
		return
	}
	m[last] = v
}

// getPath reports whether a value is set at path.
func getPath(m map[string]any, path []string) bool {
	for i, k := range path {
		v, ok := m[k]
		if !ok {
			return false
		}
		if i == len(path)-1 {
			return true
		}
		if m, ok = v.(map[string]any); !ok {
			return false
		}
	}
	return false
}

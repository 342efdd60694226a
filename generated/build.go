// Package generated maps a tool's live input schema to a command-line shape
// and parses argv into the input object the tool receives.
//
// Build walks the raw JSON of an inputSchema in document order (resolving
// local $ref, merging allOf, flattening objects with declared properties) and
// yields a Command: an ordered list of Flags with kebab-cased names, value
// types, required marks and help text. Command.Parse turns the words after
// the tool name into a Parsed value whose Input holds only the flags the user
// set. The rules are those of docs/mapping.md; the package does no I/O and
// knows nothing of HTTP or rendering.
//
// Every error a user can cause carries ExitCode() == 2 (usage).
package generated

import (
	"encoding/json"
	"strconv"
	"strings"
)

// BuildOptions adjusts how a schema maps to flags. The zero value maps
// every property.
type BuildOptions struct {
	// Omit leaves out these top-level properties (a curated command binds
	// them to operands).
	Omit []string
	// Rename gives a top-level property's flag another spelling
	// ("ignore" → "--ignore-globs"; the leading dashes may be left out).
	Rename map[string]string
}

// Command is the command-line shape of one tool.
type Command struct {
	Flags      []*Flag  // in mapping order
	NoInput    bool     // {} / true / no properties: takes no options, sends {}
	FreeForm   bool     // top level is a free-form map: cannot be given input (help says so)
	Properties []string // the top-level property names in order
	Required   []string // the required top-level property names, omitted ones included

	byName  map[string]*Flag
	omitted map[string]*Flag // Omit'd top-level properties, for Bind
}

// Build maps a tool's raw inputSchema (bytes as served; property order is
// document order) to an ordered command shape. It never panics or hangs on
// any input; a schema that is not valid JSON is a *SchemaError. opts may be
// the zero value.
func Build(schema json.RawMessage, opts BuildOptions) (*Command, error) {
	root, err := parseJSON(schema)
	if err != nil {
		return nil, &SchemaError{Err: err}
	}
	b := &builder{
		w:     walker{root: root, budget: walkBudget},
		opts:  opts,
		cmd:   &Command{byName: make(map[string]*Flag), omitted: make(map[string]*Flag)},
		taken: make(map[string]bool),
	}
	for _, o := range GlobalOptions { // the reservation rule: GlobalOptions
		if o.Reserves() {
			b.taken[o.Name] = true
		}
		if o.Short != "" && o.Reserves() {
			b.taken[o.Short] = true
		}
	}
	if err := b.top(); err != nil {
		return nil, &SchemaError{Err: err}
	}
	return b.cmd, nil
}

// builder holds the state of one Build.
type builder struct {
	w     walker
	opts  BuildOptions
	cmd   *Command
	taken map[string]bool
	// suffix is, per base spelling, the next collision suffix to try.
	suffix map[string]int
}

// probeHook, when set (by tests), is called for each taken suffixed
// spelling tried: naming must stay linear.
var probeHook func()

func (b *builder) top() error {
	v, err := b.w.viewOf(b.w.root)
	if err != nil {
		return err
	}
	defer b.w.done(v)
	props := v.props()
	requiredOK := true
	if len(props) == 0 {
		// A top-level union of object schemas: offer the properties of every
		// branch, none of them required (the branches are alternatives).
		bs, _ := v.union()
		for _, br := range bs {
			bv, err := b.w.viewOf(br)
			if err != nil {
				return err
			}
			props = mergeProps(props, bv.props())
			b.w.done(bv)
		}
		requiredOK = false
	}
	if len(props) == 0 {
		b.cmd.NoInput = true
		ap := v.kw("additionalProperties")
		b.cmd.FreeForm = ap != nil && !(ap.kind == jBool && !ap.b) || v.kw("patternProperties") != nil
		return nil
	}
	for _, p := range props {
		b.cmd.Properties = append(b.cmd.Properties, p.name)
		if requiredOK && v.required(p.name) {
			b.cmd.Required = append(b.cmd.Required, p.name)
		}
	}
	return b.walk(v, props, nil, nil, requiredOK)
}

func mergeProps(into, more []prop) []prop {
	index := make(map[string]int, len(into))
	for i, p := range into {
		index[p.name] = i
	}
	for _, p := range more {
		if i, ok := index[p.name]; ok {
			into[i].schemas = append(into[i].schemas, p.schemas...)
			continue
		}
		index[p.name] = len(into)
		into = append(into, p)
	}
	return into
}

// walk visits the properties of an object view depth-first in order.
// path holds the property names so far and names their kebab spellings.
func (b *builder) walk(parent *view, props []prop, path, names []string, required bool) error {
	top := len(path) == 0
	for _, p := range props {
		if b.w.budget--; b.w.budget < 0 {
			return errTooLarge
		}
		pv, err := b.w.viewOf(p.schemas...)
		if err != nil {
			return err
		}
		spec, err := b.w.classify(pv, nil)
		if err != nil {
			b.w.done(pv)
			return err
		}
		if top && b.omitted(p.name) {
			b.omit(pv, spec, p.name, required && parent.required(p.name))
			b.w.done(pv)
			continue
		}
		req := required && parent.required(p.name)
		ppath := append(path[:len(path):len(path)], p.name)
		name := Kebab(p.name)
		if top {
			if r, ok := b.opts.Rename[p.name]; ok {
				name = Kebab(r)
			}
		}
		pnames := append(names[:len(names):len(names)], name)
		if spec.kind == vObject {
			err = b.walk(pv, pv.props(), ppath, pnames, req)
		} else {
			b.leaf(pv, spec, ppath, pnames, req)
		}
		b.w.done(pv)
		if err != nil {
			return err
		}
	}
	return nil
}

// omit records an omitted top-level property as a hidden flag for Bind;
// an object with properties binds as one JSON object.
func (b *builder) omit(v *view, spec *valueSpec, name string, required bool) {
	if spec.kind == vObject {
		spec = &valueSpec{kind: vJSON, object: true}
	}
	f := &Flag{Name: "<" + name + ">", Path: []string{name}, Required: required, spec: spec}
	f.describe(v)
	b.cmd.omitted[name] = f
}

func (b *builder) omitted(name string) bool {
	for _, o := range b.opts.Omit {
		if o == name {
			return true
		}
	}
	return false
}

// leaf adds the flag of one leaf.
func (b *builder) leaf(v *view, spec *valueSpec, path, names []string, required bool) {
	base := "--" + strings.Join(names, "-")
	renamed := false
	if len(path) == 1 && literalFlag(path[0]) && names[0] == Kebab(path[0]) {
		base = path[0]
		if base == "-h" {
			base, renamed = "--h", true
		}
	}
	name := base
	if b.taken[name] {
		// The first free suffix: names are never freed, so every suffix
		// below the one this base reached last time is still taken, and
		// naming N colliding leaves costs O(N), not O(N²).
		if b.suffix == nil {
			b.suffix = make(map[string]int)
		}
		n := max(b.suffix[base], 2)
		for name = base + "-" + strconv.Itoa(n); b.taken[name]; name = base + "-" + strconv.Itoa(n) {
			n++
			if probeHook != nil {
				probeHook()
			}
		}
		b.suffix[base] = n + 1
		renamed = true
	}
	b.taken[name] = true
	f := &Flag{
		Name:     name,
		Path:     path,
		Renamed:  renamed,
		Required: required,
		spec:     spec,
	}
	if renamed {
		f.base = base
	}
	f.describe(v)
	f.Shape = b.shapeOf(v, f)
	b.cmd.Flags = append(b.cmd.Flags, f)
	b.cmd.byName[name] = f
}

// RenamedFrom returns the flag that was renamed away from this spelling
// (a `target` property spelled --target-2 because --target is reserved), or
// nil.
func (c *Command) RenamedFrom(spelling string) *Flag {
	if c == nil {
		return nil
	}
	for _, f := range c.Flags {
		if f.base == spelling {
			return f
		}
	}
	return nil
}

// Lookup returns the flag with this exact spelling ("--org-slug", "-i"),
// or nil.
func (c *Command) Lookup(spelling string) *Flag {
	if c == nil {
		return nil
	}
	return c.byName[spelling]
}

// LookupPath returns the flag of the leaf at this property path, or nil.
func (c *Command) LookupPath(path []string) *Flag {
	if c == nil {
		return nil
	}
	for _, f := range c.Flags {
		if equalPath(f.Path, path) {
			return f
		}
	}
	return nil
}

func equalPath(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FlagNames returns the spellings of every flag in mapping order.
func (c *Command) FlagNames() []string {
	if c == nil {
		return nil
	}
	out := make([]string, len(c.Flags))
	for i, f := range c.Flags {
		out[i] = f.Name
	}
	return out
}

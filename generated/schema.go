package generated

import (
	"errors"
	"strconv"
	"strings"
)

// errTooLarge is returned for schemas whose expansion exceeds the budget
// (a chain of definitions each used several times grows exponentially).
var errTooLarge = errors.New("schema too large to map (more than 50000 expanded nodes)")

const walkBudget = 50000

// walker holds the state of one schema walk: the document root for local
// references, the expansion budget, and the schema nodes expanded on the
// current path (a reference into them is recursion and is cut).
type walker struct {
	root   *jvalue
	budget int
	stack  []*jvalue
}

// view is the effective schema at one position: the node itself, then what
// it pulls in through $ref, allOf and a single-branch (nullable) anyOf or
// oneOf, in document order. Keywords are looked up in that order.
type view struct {
	parts   []*jvalue
	propSrc []*jvalue // "properties" objects in document order
	merged  []prop    // props(), computed once
	didProp bool
	req     map[string]bool // required names, computed once
	base    int             // length of the walker stack before this view
	cyclic  bool            // a reference led back into an ancestor and was cut
	// nullable: a nullable wrapper (anyOf [T, {"type":"null"}]) pulled T
	// in; its null counts as a "null" among the types.
	nullable bool
}

// prop is one declared property; a name declared by several parts (allOf)
// keeps all their schemas, merged when visited.
type prop struct {
	name    string
	schemas []*jvalue
}

// viewOf builds the view of one or more schema nodes and pushes its parts
// on the walker stack; the caller pops it with done.
func (w *walker) viewOf(nodes ...*jvalue) (*view, error) {
	v := &view{base: len(w.stack)}
	for _, n := range nodes {
		if err := w.flatten(v, n); err != nil {
			w.done(v)
			return nil, err
		}
	}
	return v, nil
}

// done pops the view's parts from the walker stack.
func (w *walker) done(v *view) { w.stack = w.stack[:v.base] }

func (w *walker) flatten(v *view, n *jvalue) error {
	if w.budget--; w.budget < 0 {
		return errTooLarge
	}
	if n == nil || n.kind != jObject {
		return nil // true, false and non-schemas add nothing
	}
	for _, p := range v.parts {
		if p == n {
			return nil // already merged into this view
		}
	}
	v.parts = append(v.parts, n)
	w.stack = append(w.stack, n)
	for i, k := range n.keys {
		val := n.vals[i]
		switch k {
		case "properties":
			if val.kind == jObject {
				v.propSrc = append(v.propSrc, val)
			}
		case "$ref":
			if val.kind != jString {
				continue
			}
			t := w.resolve(val.s)
			if t == nil {
				continue
			}
			if w.ancestor(v, t) {
				v.cyclic = true
				continue
			}
			if err := w.flatten(v, t); err != nil {
				return err
			}
		case "allOf":
			if val.kind != jArray {
				continue
			}
			for _, b := range val.arr {
				if err := w.flatten(v, b); err != nil {
					return err
				}
			}
		case "anyOf", "oneOf":
			if b := singleBranch(val); b != nil {
				if len(val.arr) > 1 {
					v.nullable = true // anyOf [T, {"type":"null"}]: T, and null
				}
				if err := w.flatten(v, b); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// ancestor reports whether t was expanded on the path above this view.
func (w *walker) ancestor(v *view, t *jvalue) bool {
	for _, s := range w.stack[:v.base] {
		if s == t {
			return true
		}
	}
	return false
}

// resolve follows a local JSON pointer reference ("#", "#/$defs/x",
// "#/definitions/x", "#/properties/a~1b"); nil when it does not resolve.
func (w *walker) resolve(ref string) *jvalue {
	if !strings.HasPrefix(ref, "#") {
		return nil
	}
	ptr := ref[1:]
	if ptr == "" {
		return w.root
	}
	if ptr[0] != '/' {
		return nil
	}
	cur := w.root
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch cur.kind {
		case jObject:
			cur = cur.get(tok)
		case jArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.arr) {
				return nil
			}
			cur = cur.arr[i]
		default:
			return nil
		}
		if cur == nil {
			return nil
		}
	}
	return cur
}

// isNullSchema reports whether a schema only admits null.
func isNullSchema(n *jvalue) bool {
	t := n.get("type")
	if t == nil {
		return false
	}
	if t.kind == jString {
		return t.s == "null"
	}
	return t.kind == jArray && len(t.arr) == 1 && t.arr[0].kind == jString && t.arr[0].s == "null"
}

// branches returns the non-null branches of an anyOf/oneOf array.
func branches(list *jvalue) []*jvalue {
	if list == nil || list.kind != jArray {
		return nil
	}
	var out []*jvalue
	for _, b := range list.arr {
		if b.kind == jObject && isNullSchema(b) {
			continue
		}
		out = append(out, b)
	}
	return out
}

// singleBranch returns the one non-null branch of a nullable wrapper
// (anyOf [T, {"type":"null"}]) or a one-branch anyOf, else nil.
func singleBranch(list *jvalue) *jvalue {
	if b := branches(list); len(b) == 1 {
		return b[0]
	}
	return nil
}

// kw returns the first value of a keyword among the view's parts.
func (v *view) kw(name string) *jvalue {
	for _, p := range v.parts {
		if m := p.get(name); m != nil {
			return m
		}
	}
	return nil
}

// types returns the declared types without "null", whether "null" was
// among them, and whether a type was declared at all.
func (v *view) types() (types []string, null, present bool) {
	t := v.kw("type")
	if t == nil {
		return nil, v.nullable, false
	}
	null = v.nullable
	add := func(s string) {
		if s == "null" {
			null = true
			return
		}
		for _, have := range types {
			if have == s {
				return
			}
		}
		types = append(types, s)
	}
	switch t.kind {
	case jString:
		add(t.s)
	case jArray:
		for _, e := range t.arr {
			if e.kind == jString {
				add(e.s)
			}
		}
	default:
		return nil, false, false
	}
	return types, null, true
}

// props merges the declared properties of every part, in document order
// (own "properties", then those reached through $ref, allOf, … as the
// keywords appear).
func (v *view) props() []prop {
	if v.didProp {
		return v.merged
	}
	v.didProp = true
	var out []prop
	index := make(map[string]int)
	for _, ps := range v.propSrc {
		for i, name := range ps.keys {
			if j, ok := index[name]; ok {
				out[j].schemas = append(out[j].schemas, ps.vals[i])
				continue
			}
			index[name] = len(out)
			out = append(out, prop{name: name, schemas: []*jvalue{ps.vals[i]}})
		}
	}
	v.merged = out
	return out
}

// required reports whether any part lists name as required.
func (v *view) required(name string) bool {
	if v.req == nil {
		v.req = make(map[string]bool)
		for _, p := range v.parts {
			r := p.get("required")
			if r == nil || r.kind != jArray {
				continue
			}
			for _, e := range r.arr {
				if e.kind == jString {
					v.req[e.s] = true
				}
			}
		}
	}
	return v.req[name]
}

// union returns the branches of the first anyOf/oneOf with two or more
// non-null branches, and whether it also had a null branch.
func (v *view) union() ([]*jvalue, bool) {
	for _, p := range v.parts {
		for _, k := range [...]string{"anyOf", "oneOf"} {
			list := p.get(k)
			if b := branches(list); len(b) >= 2 {
				return b, len(b) < len(list.arr)
			}
		}
	}
	return nil, false
}

package inputgen

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// schema nodes are what encoding/json decodes: map[string]any for objects.
type node = map[string]any

// view is the effective schema at one position: the node and what it pulls
// in through $ref, allOf and a single-branch (nullable) anyOf/oneOf.
type view struct {
	parts  []node
	cut    []node // reference targets not expanded (recursion)
	base   int
	cyclic bool
}

func same(a, b node) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// viewOf builds the view of nodes; with cut set, a reference into a node
// expanded on the current path is recursion and is not expanded (as the
// mapper does at flattened positions).
func (g *gen) viewOf(cut bool, nodes ...any) *view {
	v := &view{base: len(g.stack)}
	for _, n := range nodes {
		g.flatten(v, n, cut)
	}
	return v
}

func (g *gen) done(v *view) { g.stack = g.stack[:v.base] }

func (g *gen) flatten(v *view, n any, cut bool) {
	m, ok := n.(node)
	if !ok {
		return
	}
	for _, p := range v.parts {
		if same(p, m) {
			return
		}
	}
	v.parts = append(v.parts, m)
	g.stack = append(g.stack, m)
	if ref, ok := m["$ref"].(string); ok {
		if t, ok := g.resolve(ref).(node); ok {
			if cut && g.onStack(v, t) {
				v.cyclic = true
				v.cut = append(v.cut, t)
			} else {
				g.flatten(v, t, cut)
			}
		}
	}
	if all, ok := m["allOf"].([]any); ok {
		for _, b := range all {
			g.flatten(v, b, cut)
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if bs := nonNull(m[k]); len(bs) == 1 {
			g.flatten(v, bs[0], cut)
		}
	}
}

func (g *gen) onStack(v *view, t node) bool {
	for _, s := range g.stack[:v.base] {
		if same(s, t) {
			return true
		}
	}
	return false
}

// resolve follows a local JSON pointer.
func (g *gen) resolve(ref string) any {
	if !strings.HasPrefix(ref, "#") {
		return nil
	}
	ptr := ref[1:]
	if ptr == "" {
		return g.root
	}
	if ptr[0] != '/' {
		return nil
	}
	cur := g.root
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case node:
			cur = c[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

func nonNull(list any) []any {
	l, ok := list.([]any)
	if !ok {
		return nil
	}
	var out []any
	for _, b := range l {
		if m, ok := b.(node); ok && onlyNull(m) {
			continue
		}
		out = append(out, b)
	}
	return out
}

func onlyNull(m node) bool {
	switch t := m["type"].(type) {
	case string:
		return t == "null"
	case []any:
		return len(t) == 1 && t[0] == "null"
	}
	return false
}

func (v *view) kw(name string) (any, bool) {
	for _, p := range v.parts {
		if x, ok := p[name]; ok {
			return x, true
		}
	}
	return nil, false
}

// types returns the declared types without null, and whether null was one.
func (v *view) types() (types []string, null, present bool) {
	t, ok := v.kw("type")
	if !ok {
		return nil, false, false
	}
	var list []any
	switch x := t.(type) {
	case string:
		list = []any{x}
	case []any:
		list = x
	default:
		return nil, false, false
	}
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			continue
		}
		if s == "null" {
			null = true
			continue
		}
		dup := false
		for _, h := range types {
			dup = dup || h == s
		}
		if !dup {
			types = append(types, s)
		}
	}
	return types, null, true
}

type prop struct {
	name    string
	schemas []any
}

func (v *view) props() []prop {
	var out []prop
	for _, p := range v.parts {
		ps, ok := p["properties"].(node)
		if !ok {
			continue
		}
		names := make([]string, 0, len(ps))
		for name := range ps {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			s := ps[name]
			found := false
			for i := range out {
				if out[i].name == name {
					out[i].schemas = append(out[i].schemas, s)
					found = true
				}
			}
			if !found {
				out = append(out, prop{name, []any{s}})
			}
		}
	}
	return out
}

func (v *view) required(name string) bool {
	for _, p := range v.parts {
		if r, ok := p["required"].([]any); ok {
			for _, e := range r {
				if e == name {
					return true
				}
			}
		}
	}
	return false
}

// union returns the branches of the first anyOf/oneOf with two or more
// non-null branches, and whether it had a null branch too.
func (v *view) union() ([]any, bool) {
	for _, p := range v.parts {
		for _, k := range []string{"anyOf", "oneOf"} {
			if b := nonNull(p[k]); len(b) >= 2 {
				all, _ := p[k].([]any)
				return b, len(b) < len(all)
			}
		}
	}
	return nil, false
}

// isFlattened reports whether the view is an object the mapper flattens.
func (v *view) isFlattened() bool {
	if v.cyclic {
		return false
	}
	types, _, _ := v.types()
	return len(v.props()) > 0 && (len(types) == 0 || len(types) == 1 && types[0] == "object")
}

// enumValues returns the non-null enum (or const) values, and whether the
// view declares either.
func (v *view) enumValues() ([]any, bool) {
	var vals []any
	if e, ok := v.kw("enum"); ok {
		if l, ok := e.([]any); ok && len(l) > 0 {
			vals = l
		}
	}
	if vals == nil {
		c, ok := v.kw("const")
		if !ok {
			return nil, false
		}
		vals = []any{c}
	}
	var kept []any
	for _, x := range vals {
		if x != nil {
			kept = append(kept, x)
		}
	}
	return kept, true
}

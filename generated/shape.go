package generated

import "strings"

// Shape limits: nesting shown, members per object, values per enum, and
// schema nodes expanded for one flag's shape.
const (
	shapeDepth   = 3
	shapeMembers = 8
	shapeEnum    = 6
	shapeBudget  = 2000
)

// shapeOf describes the JSON one occurrence of a JSON-valued flag takes, from
// its schema, depth-limited: `{name: string, entityType: string,
// observations: [string]}` (help's Value line, docs/mapping.md#values). For a
// repeatable flag it is the element's shape. "" when the schema says nothing
// more than "JSON" or "an object".
func (b *builder) shapeOf(v *view, f *Flag) string {
	if f.Type != "json" {
		return ""
	}
	sw := &walker{root: b.w.root, budget: shapeBudget}
	nodes := v.parts
	if f.Repeatable {
		items := v.kw("items")
		if p := v.kw("prefixItems"); p != nil || items != nil && items.kind == jArray {
			return "" // a tuple: each position has its own shape
		}
		if items == nil {
			return ""
		}
		nodes = []*jvalue{items}
	}
	iv, err := sw.viewOf(nodes...)
	if err != nil {
		return ""
	}
	s := sw.shape(iv, 0)
	sw.done(iv)
	switch s {
	case "{…}":
		return ""
	case "any":
		return "any JSON" // a free-form value: say so rather than nothing
	case "object":
		return "any JSON object"
	}
	return s
}

// shape describes one schema position.
func (w *walker) shape(v *view, depth int) string {
	if w.budget <= 0 {
		return "…"
	}
	if e := v.kw("enum"); e != nil && e.kind == jArray && len(e.arr) > 0 && len(e.arr) <= shapeEnum {
		labels := make([]string, len(e.arr))
		for i, x := range e.arr {
			labels[i] = x.text()
		}
		return strings.Join(labels, "|")
	}
	if c := v.kw("const"); c != nil {
		return c.text()
	}
	types, null, _ := v.types()
	if props := v.props(); len(props) > 0 && (len(types) == 0 || len(types) == 1 && types[0] == "object") {
		if depth >= shapeDepth {
			return "{…}"
		}
		var parts []string
		for i, p := range props {
			if i == shapeMembers {
				parts = append(parts, "…")
				break
			}
			pv, err := w.viewOf(p.schemas...)
			if err != nil {
				return "{…}"
			}
			name := p.name
			if !v.required(p.name) {
				name += "?"
			}
			parts = append(parts, name+": "+w.shape(pv, depth+1))
			w.done(pv)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	if bs, bnull := v.union(); bs != nil {
		var alts []string
		for _, br := range bs {
			bv, err := w.viewOf(br)
			if err != nil {
				return "…"
			}
			if s := w.shape(bv, depth); !contains(alts, s) {
				alts = append(alts, s)
			}
			w.done(bv)
		}
		if bnull || null {
			alts = append(alts, "null") // the text null sends it
		}
		return strings.Join(alts, " | ")
	}
	if len(types) == 0 && (v.kw("items") != nil || v.kw("prefixItems") != nil) {
		types = []string{"array"}
	}
	if len(types) == 0 && (v.kw("additionalProperties") != nil || v.kw("patternProperties") != nil) {
		types = []string{"object"}
	}
	var alts []string
	for _, t := range types {
		s := t
		switch t {
		case "array":
			s = "[…]"
			if tuple := tupleItems(v); tuple != nil && depth < shapeDepth {
				var el []string
				for _, it := range tuple {
					iv, err := w.viewOf(it)
					if err != nil {
						return "[…]"
					}
					el = append(el, w.shape(iv, depth+1))
					w.done(iv)
				}
				s = "[" + strings.Join(el, ", ") + "]"
			} else if items := v.kw("items"); items != nil && items.kind == jObject && depth < shapeDepth {
				iv, err := w.viewOf(items)
				if err != nil {
					return "[…]"
				}
				s = "[" + w.shape(iv, depth+1) + "]"
				w.done(iv)
			} else if items == nil {
				s = "[any]"
			}
		case "object":
			s = "object"
			// A map: its values' shape ({string: string|number}).
			ap := v.kw("additionalProperties")
			if pp := v.kw("patternProperties"); ap == nil && pp != nil && pp.kind == jObject && len(pp.vals) == 1 {
				ap = pp.vals[0] // one pattern: its values' shape (the keys' pattern is not shown)
			}
			if ap != nil && ap.kind == jObject && depth < shapeDepth {
				av, err := w.viewOf(ap)
				if err != nil {
					return "{…}"
				}
				s = "{string: " + w.shape(av, depth+1) + "}"
				w.done(av)
			}
		}
		alts = append(alts, s)
	}
	if len(alts) == 0 {
		if null {
			return "null"
		}
		return "any"
	}
	if null {
		alts = append(alts, "null")
	}
	return strings.Join(alts, "|")
}

// tupleItems returns the per-position schemas of a tuple (prefixItems, or
// an items array), nil for any other array.
func tupleItems(v *view) []*jvalue {
	if p := v.kw("prefixItems"); p != nil && p.kind == jArray {
		return p.arr
	}
	if it := v.kw("items"); it != nil && it.kind == jArray {
		return it.arr
	}
	return nil
}

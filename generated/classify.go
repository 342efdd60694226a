package generated

import "strings"

// vkind is how a schema position takes its value on the command line.
type vkind uint8

const (
	vString  vkind = iota // verbatim text
	vInteger              // base-10 int64
	vNumber               // JSON number syntax, sent as written
	vBoolean              // valueless flag
	vEnum                 // one of listed values, compared as text
	vUnion                // union of scalars: typed by the text (docs/mapping.md#unions-of-scalars)
	vJSON                 // parsed as JSON
	vObject               // object with declared properties: flattened
	vArray                // array: one element per occurrence
)

// valueSpec describes how text becomes a value at one schema position.
type valueSpec struct {
	kind     vkind
	enum     []*jvalue    // vEnum: allowed values, in order
	titles   []string     // vEnum: each value's title or description ("" none), nil when none has one
	branches []*valueSpec // vUnion: scalar branches in declared order
	null     bool         // vUnion, vJSON: null is one of its types (the text null sends null); a scalar: its schema also admits null
	fallback bool         // vJSON: text that is not JSON is sent as a string
	object   bool         // vJSON: the value must be a JSON object
	item     *valueSpec   // vArray: the element spec (scalar or vJSON)
	tuple    []*valueSpec // vArray of a tuple: per-position specs (vJSON)
	what     string       // vJSON: the JSON values the schema allows, for errors ("an object or an integer"); "" any
	allow    []*valueSpec // vJSON: the specs whose values it takes (a union's branches); nil: any JSON value
}

func (s *valueSpec) scalar() bool { return s.kind <= vUnion }

// jsonSpec is an untyped or structured position.
func jsonSpec(fallback bool) *valueSpec { return &valueSpec{kind: vJSON, fallback: fallback} }

// jsonOf is a JSON-valued position whose values are those of the specs
// (the branches of a union, an array's element), described for errors.
func jsonOf(fallback bool, specs ...*valueSpec) *valueSpec {
	s := jsonSpec(fallback)
	var parts []string
	for _, b := range specs {
		d := b.describe()
		if d == "" {
			return s // an untyped branch: any JSON
		}
		if !contains(parts, d) {
			parts = append(parts, d)
		}
		if b.null {
			s.null = true
		}
	}
	s.what = strings.Join(parts, " or ")
	s.allow = specs
	return s
}

// describe names the JSON values a spec takes ("an object", "an integer");
// "" when any JSON value.
func (s *valueSpec) describe() string {
	switch {
	case s.kind == vObject, s.kind == vJSON && s.object:
		return "an object"
	case s.kind == vArray:
		return "an array"
	case s.kind == vJSON:
		return s.what
	}
	return s.expected()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// classify decides the spec of a view. inherit is the type list of an
// enclosing schema, used by union branches that declare no type.
func (w *walker) classify(v *view, inherit []string) (*valueSpec, error) {
	if v.cyclic {
		return jsonSpec(false), nil
	}
	types, null, present := v.types()
	if !present {
		types = inherit
	}
	if len(v.props()) > 0 && (len(types) == 0 || len(types) == 1 && types[0] == "object") {
		return &valueSpec{kind: vObject}, nil
	}
	if s := enumSpec(v); s != nil {
		return s, nil
	}
	if bs, bnull := v.union(); bs != nil {
		return w.unionSpec(bs, types, null || bnull)
	}
	s, err := classifyTypes(v, w, types, null)
	if s != nil && null {
		s.null = true
	}
	return s, err
}

// classifyTypes is classify for a view that is neither an object with
// properties, an enum nor a multi-branch union: by its type list.
func classifyTypes(v *view, w *walker, types []string, null bool) (*valueSpec, error) {
	switch len(types) {
	case 0:
		if null {
			return jsonSpec(false), nil
		}
		if v.kw("items") != nil || v.kw("prefixItems") != nil {
			return w.arraySpec(v)
		}
		if v.kw("additionalProperties") != nil || v.kw("patternProperties") != nil || v.kw("propertyNames") != nil {
			return &valueSpec{kind: vJSON, object: true}, nil
		}
		return jsonSpec(true), nil
	case 1:
		switch types[0] {
		case "string":
			return &valueSpec{kind: vString}, nil
		case "integer":
			return &valueSpec{kind: vInteger}, nil
		case "number":
			return &valueSpec{kind: vNumber}, nil
		case "boolean":
			return &valueSpec{kind: vBoolean}, nil
		case "object":
			return &valueSpec{kind: vJSON, object: true}, nil
		case "array":
			return w.arraySpec(v)
		}
		return jsonSpec(true), nil
	}
	u := &valueSpec{kind: vUnion, null: null}
	for _, t := range types {
		switch t {
		case "object", "array":
			var specs []*valueSpec
			for _, t := range types {
				specs = append(specs, typeSpec(t))
			}
			return jsonOf(hasString(types), specs...), nil
		case "string":
			u.branches = append(u.branches, &valueSpec{kind: vString})
		case "integer":
			u.branches = append(u.branches, &valueSpec{kind: vInteger})
		case "number":
			u.branches = append(u.branches, &valueSpec{kind: vNumber})
		case "boolean":
			u.branches = append(u.branches, &valueSpec{kind: vBoolean})
		default:
			return jsonSpec(hasString(types)), nil
		}
	}
	return u, nil
}

// typeSpec is the spec of one JSON Schema type name, for describing a type
// list; an unknown name takes any JSON.
func typeSpec(t string) *valueSpec {
	switch t {
	case "string":
		return &valueSpec{kind: vString}
	case "integer":
		return &valueSpec{kind: vInteger}
	case "number":
		return &valueSpec{kind: vNumber}
	case "boolean":
		return &valueSpec{kind: vBoolean}
	case "object":
		return &valueSpec{kind: vJSON, object: true}
	case "array":
		return &valueSpec{kind: vArray}
	}
	return jsonSpec(true)
}

func hasString(types []string) bool {
	for _, t := range types {
		if t == "string" {
			return true
		}
	}
	return false
}

// enumSpec returns a vEnum spec for enum or const, nil when neither is
// declared usefully. Null values are dropped when others remain.
func enumSpec(v *view) *valueSpec {
	var vals []*jvalue
	if e := v.kw("enum"); e != nil && e.kind == jArray && len(e.arr) > 0 {
		vals = e.arr
	} else if c := v.kw("const"); c != nil {
		vals = []*jvalue{c}
	} else {
		return nil
	}
	var kept []*jvalue
	for _, x := range vals {
		if x.kind != jNull {
			kept = append(kept, x)
		}
	}
	if len(kept) == 0 {
		kept = vals
	}
	e := &valueSpec{kind: vEnum, enum: kept}
	if len(kept) == 1 && v.kw("enum") == nil {
		// A const's title (or description) names its value: oneOf of
		// titled consts is how a schema labels its choices.
		t := v.str("title")
		if t == "" {
			t = v.str("description")
		}
		t, _, _ = strings.Cut(strings.TrimSpace(t), "\n")
		if t != "" && t != kept[0].text() {
			e.titles = []string{t}
		}
	}
	return e
}

// unionSpec classifies a multi-branch anyOf/oneOf: an enum when every
// branch is a const or an enum (oneOf of const, as written for titled
// choices), a union of scalars when every branch is scalar, else a JSON
// value with a string fallback when a branch takes strings. null says a
// branch (or the enclosing type list) admits null.
func (w *walker) unionSpec(bs []*jvalue, inherit []string, null bool) (*valueSpec, error) {
	u := &valueSpec{kind: vUnion, null: null}
	fallback, allScalar := false, true
	var specs []*valueSpec
	for _, b := range bs {
		bv, err := w.viewOf(b)
		if err != nil {
			return nil, err
		}
		s, err := w.classify(bv, inherit)
		w.done(bv)
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
		if s.null {
			u.null = true
		}
		switch {
		case s.kind == vUnion:
			u.branches = append(u.branches, s.branches...)
		case s.scalar():
			u.branches = append(u.branches, s)
		default:
			allScalar = false
		}
		if s.takesString() {
			fallback = true
		}
	}
	if !allScalar {
		j := jsonOf(fallback, specs...)
		if u.null {
			// The text null is JSON null here too, a string branch or not
			// (docs/mapping.md#values).
			j.null = true
			if j.what != "" {
				j.what += " or null"
			}
		}
		return j, nil
	}
	if e := mergeEnums(u.branches); e != nil {
		return e, nil
	}
	return u, nil
}

// mergeEnums is one enum of every branch's values when each branch is an
// enum or a const, in order, repeated values once; nil otherwise.
func mergeEnums(bs []*valueSpec) *valueSpec {
	e := &valueSpec{kind: vEnum}
	seen := map[string]bool{}
	var titles []string
	titled := false
	for _, b := range bs {
		if b.kind != vEnum {
			return nil
		}
		for i, x := range b.enum {
			if k := string(x.raw()); !seen[k] {
				seen[k] = true
				e.enum = append(e.enum, x)
				t := ""
				if i < len(b.titles) {
					t = b.titles[i]
				}
				titles = append(titles, t)
				titled = titled || t != ""
			}
		}
	}
	if titled {
		e.titles = titles
	}
	return e
}

// takesString reports whether the spec accepts arbitrary strings.
func (s *valueSpec) takesString() bool {
	switch s.kind {
	case vString:
		return true
	case vJSON:
		return s.fallback
	case vUnion:
		for _, b := range s.branches {
			if b.kind == vString {
				return true
			}
		}
	}
	return false
}

// arraySpec classifies an array: scalar items repeat as scalars, anything
// else (and tuples) as one JSON element per occurrence.
func (w *walker) arraySpec(v *view) (*valueSpec, error) {
	a := &valueSpec{kind: vArray}
	items := v.kw("items")
	var positions []*jvalue
	rest := items
	if p := v.kw("prefixItems"); p != nil && p.kind == jArray {
		positions = p.arr
	} else if items != nil && items.kind == jArray {
		positions, rest = items.arr, v.kw("additionalItems")
	}
	for _, p := range positions {
		s, err := w.itemSpec(p)
		if err != nil {
			return nil, err
		}
		a.tuple = append(a.tuple, jsonOf(s.takesString(), s))
	}
	s, err := w.itemSpec(rest)
	if err != nil {
		return nil, err
	}
	if positions != nil || !s.scalar() {
		s = jsonOf(s.takesString(), s)
	}
	a.item = s
	return a, nil
}

// itemSpec classifies an element schema (nil or true: untyped).
func (w *walker) itemSpec(n *jvalue) (*valueSpec, error) {
	iv, err := w.viewOf(n)
	if err != nil {
		return nil, err
	}
	defer w.done(iv)
	s, err := w.classify(iv, nil)
	if err != nil {
		return nil, err
	}
	if s.kind == vObject || s.kind == vArray {
		return jsonOf(false, s), nil
	}
	return s, nil
}

// elem returns the spec of the i-th occurrence of an array flag.
func (s *valueSpec) elem(i int) *valueSpec {
	if i < len(s.tuple) {
		return s.tuple[i]
	}
	return s.item
}

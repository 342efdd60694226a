package inputgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
)

// ErrNoValue reports a schema position no value in the domain satisfies
// (null only, an empty enum, a required endless recursion).
var ErrNoValue = errors.New("inputgen: no value in the round-trip domain")

// maxDepth bounds the nesting of generated JSON values.
const maxDepth = 6

// gen is the state of one Generate call.
type gen struct {
	root     any
	r        *rand.Rand
	stack    []node
	depth    int
	patterns map[string]*regexp.Regexp
	steps    int
}

// Generate returns an input object valid against the raw schema, in the
// round-trip domain of the mapping rules. It returns ErrNoValue when no
// such object exists and an error for a schema that is not JSON.
func Generate(schema json.RawMessage, r *rand.Rand) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("inputgen: schema: %w", err)
	}
	g := &gen{root: root, r: r, patterns: map[string]*regexp.Regexp{}}
	v := g.viewOf(true, root)
	defer g.done(v)
	props := v.props()
	if len(props) == 0 {
		if bs, _ := v.union(); bs != nil {
			// The mapper offers the properties of every branch; an input
			// valid against the schema follows one branch.
			bv := g.viewOf(true, bs[g.r.IntN(len(bs))])
			defer g.done(bv)
			if !bv.isFlattened() {
				return map[string]any{}, nil
			}
			return g.object(bv, true)
		}
		return map[string]any{}, nil
	}
	return g.object(v, true)
}

// object generates an object for a view with declared properties. At a
// flattened position it is never empty and every key is declared.
func (g *gen) object(v *view, flat bool) (map[string]any, error) {
	out := map[string]any{}
	props := v.props()
	var optional []prop
	for _, p := range props {
		if !v.required(p.name) {
			optional = append(optional, p)
			continue
		}
		val, err := g.prop(p, flat)
		if err != nil {
			return nil, err
		}
		out[p.name] = val
	}
	for _, p := range optional {
		if g.depth >= maxDepth || g.r.IntN(2) == 0 {
			continue
		}
		if val, err := g.prop(p, flat); err == nil {
			out[p.name] = val
		}
	}
	if flat && len(out) == 0 {
		for _, i := range g.r.Perm(len(optional)) {
			if val, err := g.prop(optional[i], flat); err == nil {
				out[optional[i].name] = val
				break
			}
		}
		if len(out) == 0 {
			return nil, ErrNoValue
		}
	}
	return out, nil
}

func (g *gen) prop(p prop, flat bool) (any, error) {
	v := g.viewOf(flat, p.schemas...)
	defer g.done(v)
	return g.value(v, flat)
}

// value generates a value for a view. flat is true at flattened
// positions (objects there are flattened, arrays are flags).
func (g *gen) value(v *view, flat bool) (any, error) { return g.valueT(v, flat, nil) }

// valueT is value with the types of an enclosing union, used when the view
// declares none.
func (g *gen) valueT(v *view, flat bool, inherit []string) (any, error) {
	if g.steps++; g.steps > 100000 {
		return nil, ErrNoValue
	}
	if v.cyclic {
		// A cut reference: the mapper makes it a JSON-valued flag; any
		// value valid against the target will do.
		cv := g.viewOf(false, v.parts[0])
		defer g.done(cv)
		return g.nested(cv)
	}
	if v.isFlattened() {
		if !flat {
			return g.nestedObject(v)
		}
		return g.object(v, true)
	}
	if vals, ok := v.enumValues(); ok {
		if len(vals) == 0 {
			return nil, ErrNoValue
		}
		return vals[g.r.IntN(len(vals))], nil
	}
	types, null, present := v.types()
	if !present {
		types = inherit
	}
	if bs, bnull := v.union(); bs != nil {
		return g.unionValue(bs, types, flat, null || bnull)
	}
	switch len(types) {
	case 0:
		if null {
			return nil, ErrNoValue
		}
		if _, ok := v.kw("items"); ok {
			return g.array(v, flat)
		}
		if _, ok := v.kw("prefixItems"); ok {
			return g.array(v, flat)
		}
		if g.isMap(v) {
			return g.mapValue(v)
		}
		return g.anyJSON(), nil
	case 1:
		return g.typed(v, types[0], flat)
	}
	if scalarTypes(types) && null && g.r.IntN(5) == 0 {
		return nil, nil // a union of scalars that takes null
	}
	return g.typed(v, types[g.r.IntN(len(types))], flat)
}

// nested generates a value inside a JSON-valued flag, one level deeper.
func (g *gen) nested(v *view) (any, error) { return g.deeper(v, g.value) }

// nestedObject is nested for an object.
func (g *gen) nestedObject(v *view) (any, error) {
	return g.deeper(v, func(v *view, flat bool) (any, error) { return g.object(v, flat) })
}

// deeper runs gen (g.value or g.object, not flattened) one level deeper.
func (g *gen) deeper(v *view, gen func(*view, bool) (any, error)) (any, error) {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 3*maxDepth {
		return nil, ErrNoValue
	}
	return gen(v, false)
}

func (g *gen) isMap(v *view) bool {
	for _, k := range []string{"additionalProperties", "patternProperties", "propertyNames"} {
		if _, ok := v.kw(k); ok {
			return true
		}
	}
	return false
}

func (g *gen) typed(v *view, t string, flat bool) (any, error) {
	switch t {
	case "string":
		return g.str(v), nil
	case "integer":
		return g.integer(v)
	case "number":
		return g.number(v)
	case "boolean":
		return g.r.IntN(2) == 0, nil
	case "array":
		return g.array(v, flat)
	case "object":
		return g.mapValue(v)
	}
	return g.anyJSON(), nil
}

// mapValue generates an object without declared properties.
func (g *gen) mapValue(v *view) (any, error) {
	out := map[string]any{}
	ap, has := v.kw("additionalProperties")
	if b, ok := ap.(bool); has && ok && !b {
		return out, nil
	}
	n := 1 + g.r.IntN(2)
	for i := 0; i < n; i++ {
		key := fmt.Sprintf("k%d", g.r.IntN(100))
		if m, ok := ap.(node); ok {
			av := g.viewOf(false, m)
			val, err := g.nested(av)
			g.done(av)
			if err != nil {
				return out, nil
			}
			out[key] = val
			continue
		}
		out[key] = g.anyScalar()
	}
	return out, nil
}

// array generates a non-empty array (at least minItems elements).
func (g *gen) array(v *view, flat bool) (any, error) {
	minI, maxI := 1, 3
	if n, ok := intKw(v, "minItems"); ok && n > int64(minI) {
		minI = int(min(n, 8))
	}
	if n, ok := intKw(v, "maxItems"); ok && n < int64(maxI) {
		maxI = int(max(n, 0))
	}
	if maxI < minI {
		maxI = minI
	}
	if maxI == 0 {
		return nil, ErrNoValue
	}
	var positions []any
	rest, _ := v.kw("items")
	if p, ok := v.kw("prefixItems"); ok {
		positions, _ = p.([]any)
	} else if l, ok := rest.([]any); ok {
		positions = l
		rest, _ = v.kw("additionalItems")
	}
	n := minI + g.r.IntN(maxI-minI+1)
	if positions != nil {
		n = len(positions)
		if b, ok := rest.(bool); (rest == nil || ok && b) && n < minI {
			n = minI
		}
		if n == 0 {
			return nil, ErrNoValue
		}
	}
	out := make([]any, 0, n)
	for i := 0; i < n; i++ {
		s := rest
		if i < len(positions) {
			s = positions[i]
		}
		iv := g.viewOf(flat, s)
		e, err := g.nested(iv)
		g.done(iv)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

package inputgen

import (
	"encoding/json"
	"strconv"
)

// scalarTypes reports whether every type of a type list is a scalar one
// (string, integer, number, boolean): the mapper makes such a list a union
// of scalars.
func scalarTypes(types []string) bool {
	for _, t := range types {
		switch t {
		case "string", "integer", "number", "boolean":
		default:
			return false
		}
	}
	return true
}

// scalarUnion reports whether a view is made of scalars only (an enum, a
// scalar type list, or a union of such), as a branch of a union of
// scalars, and whether null is among the values it takes.
func (g *gen) scalarUnion(v *view, inherit []string) (null, ok bool) {
	if v.cyclic || v.isFlattened() {
		return false, false
	}
	if _, ok := v.enumValues(); ok {
		return false, true // an enum's null is dropped, as the mapper does
	}
	types, null, present := v.types()
	if !present {
		types = inherit
	}
	if bs, bnull := v.union(); bs != nil {
		null = null || bnull
		for _, b := range bs {
			bv := g.viewOf(true, b)
			n, ok := g.scalarUnion(bv, types)
			g.done(bv)
			if !ok {
				return false, false
			}
			null = null || n
		}
		return null, true
	}
	if len(types) == 0 {
		return false, false
	}
	return null, scalarTypes(types)
}

// unionValue generates a value for a multi-branch anyOf/oneOf: the value
// of one branch, as that branch generates it (a union of scalars sends
// every value typed, docs/mapping.md#unions-of-scalars), or now and then null when a union
// of scalars takes null. null says the enclosing schema takes null.
func (g *gen) unionValue(bs []any, inherit []string, flat, null bool) (any, error) {
	scalar := true
	for _, b := range bs {
		bv := g.viewOf(true, b)
		n, ok := g.scalarUnion(bv, inherit)
		g.done(bv)
		if !ok {
			scalar = false
			break
		}
		null = null || n
	}
	if scalar && null && g.r.IntN(5) == 0 {
		return nil, nil
	}
	for _, i := range g.r.Perm(len(bs)) {
		bv := g.viewOf(flat, bs[i])
		var val any
		var err error
		if scalar {
			val, err = g.valueT(bv, false, inherit)
		} else {
			g.depth++
			val, err = g.valueT(bv, false, inherit)
			g.depth--
		}
		g.done(bv)
		if err != nil {
			continue
		}
		return val, nil
	}
	return nil, ErrNoValue
}

// textOf is the command-line text of a scalar: a string verbatim, anything
// else as compact JSON.
func textOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	}
	return string(compact(v))
}

// unionText is the text of a value of a union of scalars: a string that a
// union could read as something else (null, true, false, a JSON number, or
// text in JSON quotes) is written JSON-quoted, whatever the union's
// branches; anything else as textOf.
func unionText(v any) string {
	s, ok := v.(string)
	if !ok {
		return textOf(v)
	}
	if s == "null" || s == "true" || s == "false" || isJSONNumber(s) || len(s) > 0 && s[0] == '"' {
		return string(compact(s))
	}
	return s
}

func isJSONNumber(s string) bool {
	if s == "" || s[0] == '+' || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	var n json.Number
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		return false
	}
	return string(n) == s
}

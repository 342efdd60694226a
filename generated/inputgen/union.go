package inputgen

import (
	"encoding/json"
	"strconv"
)

// sbranch is one scalar branch of a union, as the mapper converts text.
type sbranch struct {
	kind string // "string", "integer", "number", "boolean", "enum"
	enum []any
}

func typeBranches(types []string) ([]sbranch, bool) {
	var out []sbranch
	for _, t := range types {
		switch t {
		case "string", "integer", "number", "boolean":
			out = append(out, sbranch{kind: t})
		default:
			return nil, false
		}
	}
	return out, true
}

// scalarBranches classifies a view as scalar branches, or reports false.
func (g *gen) scalarBranches(v *view, inherit []string) ([]sbranch, bool) {
	if v.cyclic || v.isFlattened() {
		return nil, false
	}
	if vals, ok := v.enumValues(); ok {
		if len(vals) == 0 {
			vals = []any{nil}
		}
		return []sbranch{{kind: "enum", enum: vals}}, true
	}
	types, null, present := v.types()
	if !present {
		types = inherit
	}
	if bs := v.union(); bs != nil {
		var out []sbranch
		for _, b := range bs {
			bv := g.viewOf(true, b)
			sb, ok := g.scalarBranches(bv, types)
			g.done(bv)
			if !ok {
				return nil, false
			}
			out = append(out, sb...)
		}
		return out, true
	}
	if len(types) == 0 || null && len(types) == 0 {
		return nil, false
	}
	return typeBranches(types)
}

// unionValue generates a value for a multi-branch anyOf/oneOf. A union of
// scalars yields the form of its first accepting branch.
func (g *gen) unionValue(bs []any, inherit []string, flat bool) (any, error) {
	var all []sbranch
	scalar := true
	for _, b := range bs {
		bv := g.viewOf(true, b)
		sb, ok := g.scalarBranches(bv, inherit)
		g.done(bv)
		if !ok {
			scalar = false
			break
		}
		all = append(all, sb...)
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
		if scalar {
			return firstAccepting(all, val), nil
		}
		return val, nil
	}
	return nil, ErrNoValue
}

// firstAccepting converts val through its text by the first branch that
// accepts the text, as the mapper does.
func firstAccepting(bs []sbranch, val any) any {
	text := textOf(val)
	for _, b := range bs {
		if v, ok := b.convert(text); ok {
			return v
		}
	}
	return val
}

func (b sbranch) convert(text string) (any, bool) {
	switch b.kind {
	case "string":
		return text, true
	case "integer":
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, false
		}
		return json.Number(strconv.FormatInt(n, 10)), true
	case "number":
		if !isJSONNumber(text) {
			return nil, false
		}
		return json.Number(text), true
	case "boolean":
		if text == "true" || text == "false" {
			return text == "true", true
		}
	case "enum":
		for _, e := range b.enum {
			if textOf(e) == text {
				return e, true
			}
		}
	}
	return nil, false
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

package jsontext

// Value is a JSON value read by Parse into a Tree: scalars keep their token
// (a number's text exactly as received), containers their whole text, and
// objects their members in document order.
type Value struct {
	Kind Kind
	Raw  []byte   // the value's bytes as received
	Keys []string // an object's keys, in order (a repeated key repeated)
	Vals []*Value // an object's values (parallel to Keys) or an array's elements
}

// Str is the decoded text of a string value (Unquote).
func (v *Value) Str() string { return Unquote(v.Raw) }

// Field is the value of the first member named key of an object, or nil.
func (v *Value) Field(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i, k := range v.Keys {
		if k == key {
			return v.Vals[i]
		}
	}
	return nil
}

// Tree is the Builder of Values. Values, member slices and keys are carved
// from slabs sized to the input, so a 10,000-row table costs a few hundred
// allocations instead of hundreds of thousands.
type Tree struct {
	slab  int // the next slab's size, doubling up to limit
	limit int
	nodes []Value
	vals  []*Value
	keys  []string
}

// ParseTree reads data into Values (Parse with a Tree).
func ParseTree(data []byte, maxDepth int) (*Value, error) {
	// Every value but the first takes two bytes at least ("1,"): that
	// bounds the slabs; they start small and double up to 1024 entries, so
	// a small result does not pay for the bound (a 2 KB answer holds
	// about a hundred values, not a thousand).
	t := &Tree{slab: min(16, len(data)/2+1), limit: min(1024, len(data)/2+1)}
	return Parse[*Value](data, t, maxDepth)
}

func (t *Tree) node(k Kind, raw []byte) *Value {
	if len(t.nodes) == cap(t.nodes) {
		t.nodes = make([]Value, 0, t.slab)
		t.slab = min(t.slab*2, t.limit)
	}
	t.nodes = append(t.nodes, Value{Kind: k, Raw: raw})
	return &t.nodes[len(t.nodes)-1]
}

// Scalar implements Builder.
func (t *Tree) Scalar(k Kind, raw []byte) *Value { return t.node(k, raw) }

// Array implements Builder.
func (t *Tree) Array(raw []byte, elems []*Value) *Value {
	n := t.node(Array, raw)
	n.Vals = t.carve(elems)
	return n
}

// Object implements Builder.
func (t *Tree) Object(raw []byte, keys []string, vals []*Value) *Value {
	n := t.node(Object, raw)
	n.Vals = t.carve(vals)
	if len(keys) > 0 {
		if cap(t.keys)-len(t.keys) < len(keys) {
			t.keys = make([]string, 0, max(t.slab, len(keys)))
		}
		start := len(t.keys)
		t.keys = append(t.keys, keys...)
		n.Keys = t.keys[start:len(t.keys):len(t.keys)]
	}
	return n
}

// Key implements Builder: Unquote.
func (t *Tree) Key(raw []byte) string { return Unquote(raw) }

// carve copies vs into an exactly sized slice from the slab.
func (t *Tree) carve(vs []*Value) []*Value {
	if len(vs) == 0 {
		return nil
	}
	if cap(t.vals)-len(t.vals) < len(vs) {
		t.vals = make([]*Value, 0, max(t.slab, len(vs)))
	}
	start := len(t.vals)
	t.vals = append(t.vals, vs...)
	return t.vals[start:len(t.vals):len(t.vals)]
}

// Valid reports whether data is exactly one JSON value (white space
// around it allowed) nesting at most maxDepth deep: Parse's verdict,
// without building anything (ValueEnd).
func Valid(data []byte, maxDepth int) bool {
	end, ok := ValueEnd(data, 0, maxDepth)
	return ok && SkipSpace(data, end) == len(data)
}

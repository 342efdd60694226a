package render

import (
	"encoding/json"
	"errors"
	"fmt"
)

// kind is the JSON type of a decoded node.
type kind uint8

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 10000

// node is one decoded JSON value. Scalars keep their raw token bytes (a
// number's text exactly as received); objects keep their keys in order.
type node struct {
	kind kind
	raw  []byte   // the value's bytes as received (whole value, containers included)
	keys []string // object keys, in order
	vals []*node  // object values (parallel to keys) or array elements
}

// str returns the decoded text of a string node.
func (n *node) str() string {
	return decodeJSONString(n.raw)
}

// field returns the value of key in an object node, or nil.
func (n *node) field(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// parseJSON decodes data (one JSON value, surrounding whitespace allowed)
// into an ordered tree. It never panics; bad input gives an error.
func parseJSON(data []byte) (*node, error) {
	p := parser{data: data}
	p.skipSpace()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, fmt.Errorf("invalid JSON: unexpected data at offset %d", p.pos)
	}
	return n, nil
}

type parser struct {
	data []byte
	pos  int

	// Allocation slabs: nodes and child slices are carved from larger
	// blocks, and object keys are interned, so a 10,000-row table costs a
	// few hundred allocations instead of hundreds of thousands.
	nodes []node
	vals  []*node
	keys  []string
	names map[string]string
	stack []*node
	kstk  []string
}

const slabSize = 1024

// newNode returns a node from the slab.
func (p *parser) newNode(k kind, raw []byte) *node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]node, 0, slabSize)
	}
	p.nodes = append(p.nodes, node{kind: k, raw: raw})
	return &p.nodes[len(p.nodes)-1]
}

// children moves the top n entries of the value stack (and, for objects,
// the key stack) into exactly sized slices carved from the slabs.
func (p *parser) children(n *node, base, kbase int, object bool) {
	count := len(p.stack) - base
	if count == 0 {
		return
	}
	if cap(p.vals)-len(p.vals) < count {
		p.vals = make([]*node, 0, max(slabSize, count))
	}
	start := len(p.vals)
	p.vals = append(p.vals, p.stack[base:]...)
	n.vals = p.vals[start:len(p.vals):len(p.vals)]
	p.stack = p.stack[:base]
	if object {
		if cap(p.keys)-len(p.keys) < count {
			p.keys = make([]string, 0, max(slabSize, count))
		}
		ks := len(p.keys)
		p.keys = append(p.keys, p.kstk[kbase:]...)
		n.keys = p.keys[ks:len(p.keys):len(p.keys)]
		p.kstk = p.kstk[:kbase]
	}
}

// key returns the decoded object key at raw, interned.
func (p *parser) key(raw []byte) string {
	if k, ok := p.names[string(raw)]; ok {
		return k
	}
	if p.names == nil {
		p.names = map[string]string{}
	}
	k := decodeJSONString(raw)
	if len(p.names) < 4096 {
		p.names[string(raw)] = k
	}
	return k
}

var errEOF = errors.New("invalid JSON: unexpected end of input")

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, errors.New("invalid JSON: nesting too deep")
	}
	if p.pos >= len(p.data) {
		return nil, errEOF
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		if err := p.skipString(); err != nil {
			return nil, err
		}
		return p.newNode(kindString, p.data[start:p.pos]), nil
	case c == 't':
		return p.literal("true", kindBool)
	case c == 'f':
		return p.literal("false", kindBool)
	case c == 'n':
		return p.literal("null", kindNull)
	case c == '-' || (c >= '0' && c <= '9'):
		if err := p.skipNumber(); err != nil {
			return nil, err
		}
		return p.newNode(kindNumber, p.data[start:p.pos]), nil
	default:
		return nil, fmt.Errorf("invalid JSON: unexpected %q at offset %d", c, p.pos)
	}
}

func (p *parser) literal(word string, k kind) (*node, error) {
	end := p.pos + len(word)
	if end > len(p.data) || string(p.data[p.pos:end]) != word {
		return nil, fmt.Errorf("invalid JSON: bad literal at offset %d", p.pos)
	}
	n := p.newNode(k, p.data[p.pos:end])
	p.pos = end
	return n, nil
}

func (p *parser) object(depth int) (*node, error) {
	start := p.pos
	p.pos++ // {
	n := p.newNode(kindObject, nil)
	base, kbase := len(p.stack), len(p.kstk)
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		n.raw = p.data[start:p.pos]
		return n, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, errEOF
		}
		if p.data[p.pos] != '"' {
			return nil, fmt.Errorf("invalid JSON: expected a key at offset %d", p.pos)
		}
		ks := p.pos
		if err := p.skipString(); err != nil {
			return nil, err
		}
		key := p.key(p.data[ks:p.pos])
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, fmt.Errorf("invalid JSON: expected ':' at offset %d", p.pos)
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		p.kstk = append(p.kstk, key)
		p.stack = append(p.stack, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, errEOF
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			n.raw = p.data[start:p.pos]
			p.children(n, base, kbase, true)
			return n, nil
		default:
			return nil, fmt.Errorf("invalid JSON: expected ',' or '}' at offset %d", p.pos)
		}
	}
}

func (p *parser) array(depth int) (*node, error) {
	start := p.pos
	p.pos++ // [
	n := p.newNode(kindArray, nil)
	base := len(p.stack)
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		n.raw = p.data[start:p.pos]
		return n, nil
	}
	for {
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		p.stack = append(p.stack, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, errEOF
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			n.raw = p.data[start:p.pos]
			p.children(n, base, 0, false)
			return n, nil
		default:
			return nil, fmt.Errorf("invalid JSON: expected ',' or ']' at offset %d", p.pos)
		}
	}
}

// skipString moves past a string token, checking escapes and control bytes.
func (p *parser) skipString() error {
	start := p.pos
	p.pos++ // opening quote
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return nil
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				return errEOF
			}
			switch p.data[p.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos += 2
			case 'u':
				if p.pos+6 > len(p.data) || !isHex4(p.data[p.pos+2:p.pos+6]) {
					return fmt.Errorf("invalid JSON: bad \\u escape at offset %d", p.pos)
				}
				p.pos += 6
			default:
				return fmt.Errorf("invalid JSON: bad escape at offset %d", p.pos)
			}
		case c < 0x20:
			return fmt.Errorf("invalid JSON: control character in string at offset %d", p.pos)
		default:
			p.pos++
		}
	}
	p.pos = start
	return errEOF
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// skipNumber moves past a number token following the JSON grammar.
func (p *parser) skipNumber() error {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return fmt.Errorf("invalid JSON: bad number at offset %d", start)
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return fmt.Errorf("invalid JSON: bad number at offset %d", start)
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return fmt.Errorf("invalid JSON: bad number at offset %d", start)
		}
	}
	return nil
}

// decodeJSONString decodes a raw string token (quotes included). Tokens
// without escapes are converted directly; others go through encoding/json.
func decodeJSONString(raw []byte) string {
	if len(raw) < 2 {
		return ""
	}
	inner := raw[1 : len(raw)-1]
	escaped := false
	for _, c := range inner {
		if c == '\\' {
			escaped = true
			break
		}
	}
	if !escaped {
		return string(inner)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return string(inner)
	}
	return s
}

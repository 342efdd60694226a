package jsontext

import "fmt"

// Kind is the JSON type of a value.
type Kind uint8

// The kinds of JSON values.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Builder makes the caller's tree from what Parse reads. raw is always the
// value's bytes as received (a container's whole text included); the slices
// given to Array and Object are valid only during the call.
type Builder[N any] interface {
	// Scalar makes a null, boolean, number or string (raw: the token).
	Scalar(k Kind, raw []byte) N
	// Array makes an array of elems.
	Array(raw []byte, elems []N) N
	// Object makes an object of its members in document order (a repeated
	// key repeated); keys are as Key decoded them.
	Object(raw []byte, keys []string, vals []N) N
	// Key decodes an object key's token (Unquote or UnquoteValid); Parse
	// asks once per spelling.
	Key(raw []byte) string
}

// SyntaxError is a JSON text that is not one valid value, with the byte
// offset of the fault. Its message is in encoding/json's words.
type SyntaxError struct {
	Msg    string
	Offset int
}

func (e *SyntaxError) Error() string { return e.Msg }

// Parse reads data, exactly one JSON value with white space around it
// allowed, into the caller's tree. Containers nest at most maxDepth deep. It
// never panics; text that is not JSON is a *SyntaxError.
func Parse[N any, B Builder[N]](data []byte, b B, maxDepth int) (N, error) {
	p := &parser[N, B]{data: data, b: b, maxDepth: maxDepth}
	v, err := p.value(0)
	if err != nil {
		var zero N
		return zero, err
	}
	if p.pos = SkipSpace(data, p.pos); p.pos < len(data) {
		var zero N
		return zero, &SyntaxError{fmt.Sprintf("unexpected data after the JSON value at offset %d", p.pos), p.pos}
	}
	return v, nil
}

// parser reads one document. The members of the containers being read wait
// on two stacks (values, keys) until their container is made.
type parser[N any, B Builder[N]] struct {
	data     []byte
	pos      int
	b        B
	maxDepth int
	stack    []N
	keys     []string
	names    map[string]string
	decoded  int // keys decoded before the names map is used
}

// internFrom is how many keys a document has before its keys are decoded
// once per spelling: a small one costs no map.
const internFrom = 32

// errorAt is the error for the byte at offset at (what: where in the grammar),
// or the end of the input.
func (p *parser[N, B]) errorAt(at int, what string) error {
	if at >= len(p.data) {
		return &SyntaxError{"unexpected end of JSON", len(p.data)}
	}
	return &SyntaxError{fmt.Sprintf("invalid character %q %s at offset %d", p.data[at], what, at), at}
}

func (p *parser[N, B]) value(depth int) (N, error) {
	var zero N
	p.pos = SkipSpace(p.data, p.pos)
	if p.pos >= len(p.data) {
		return zero, p.errorAt(p.pos, "")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		if depth >= p.maxDepth {
			return zero, &SyntaxError{fmt.Sprintf("JSON nested more than %d levels", p.maxDepth), p.pos}
		}
		p.pos++
		if c == '{' {
			return p.object(start, depth)
		}
		return p.array(start, depth)
	}
	k, end, at, what := scalarEnd(p.data, p.pos)
	if end < 0 {
		return zero, p.errorAt(at, what)
	}
	p.pos = end
	return p.b.Scalar(k, p.data[start:end]), nil
}

func (p *parser[N, B]) array(start, depth int) (N, error) {
	var zero N
	base := len(p.stack)
	if p.pos = SkipSpace(p.data, p.pos); p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return p.b.Array(p.data[start:p.pos], nil), nil
	}
	for {
		e, err := p.value(depth + 1)
		if err != nil {
			return zero, err
		}
		p.stack = append(p.stack, e)
		if done, err := p.separator(']', "after array element"); err != nil || done {
			if err != nil {
				return zero, err
			}
			n := p.b.Array(p.data[start:p.pos], p.stack[base:])
			clear(p.stack[base:])
			p.stack = p.stack[:base]
			return n, nil
		}
	}
}

func (p *parser[N, B]) object(start, depth int) (N, error) {
	var zero N
	base, kbase := len(p.stack), len(p.keys)
	if p.pos = SkipSpace(p.data, p.pos); p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return p.b.Object(p.data[start:p.pos], nil, nil), nil
	}
	for {
		key, err := p.key()
		if err != nil {
			return zero, err
		}
		e, err := p.value(depth + 1)
		if err != nil {
			return zero, err
		}
		p.keys = append(p.keys, key)
		p.stack = append(p.stack, e)
		if done, err := p.separator('}', "after object key:value pair"); err != nil || done {
			if err != nil {
				return zero, err
			}
			n := p.b.Object(p.data[start:p.pos], p.keys[kbase:], p.stack[base:])
			clear(p.stack[base:])
			p.stack, p.keys = p.stack[:base], p.keys[:kbase]
			return n, nil
		}
	}
}

// separator reads what follows a container's member: ',' (done false) or
// the closing bracket (done true).
func (p *parser[N, B]) separator(closing byte, what string) (done bool, err error) {
	end, done, ok := next(p.data, p.pos, closing)
	if !ok {
		return false, p.errorAt(SkipSpace(p.data, p.pos), what)
	}
	p.pos = end
	return done, nil
}

// key reads an object key and its ':'. Keys are decoded once per spelling
// (a table repeats its column names on every row).
func (p *parser[N, B]) key() (string, error) {
	p.pos = SkipSpace(p.data, p.pos)
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return "", p.errorAt(p.pos, "looking for beginning of object key string")
	}
	end, at, what := stringEnd(p.data, p.pos)
	if end < 0 {
		return "", p.errorAt(at, what)
	}
	raw := p.data[p.pos:end]
	var key string
	if p.decoded < internFrom {
		// A small document: its few keys are decoded as they come.
		p.decoded++
		key = p.b.Key(raw)
	} else if k, ok := p.names[string(raw)]; ok {
		key = k
	} else {
		key = p.b.Key(raw)
		if p.names == nil {
			p.names = map[string]string{}
		}
		if len(p.names) < 4096 {
			p.names[string(raw)] = key
		}
	}
	if p.pos = SkipSpace(p.data, end); p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return "", p.errorAt(p.pos, "after object key")
	}
	p.pos++
	return key, nil
}

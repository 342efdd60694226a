package interp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// headTail is `head` and `tail`: the first or last N lines or elements, or (tail
// -n +N) everything from the Nth on.
type headTail struct {
	tail bool
	n    int
	from bool // tail -n +N
}

func (f *headTail) name() string {
	if f.tail {
		return "tail"
	}
	return "head"
}

// newHeadTail parses `-n N`, `-nN`, `-N` and, for tail, `-n +N` (default 10).
func newHeadTail(name string, args []string) (*headTail, error) {
	f := &headTail{tail: name == "tail", n: 10}
	setN := func(s string) error {
		given := s
		f.from = false
		switch {
		case f.tail && strings.HasPrefix(s, "+"):
			f.from = true
			s = s[1:]
		case !f.tail && strings.HasPrefix(s, "+"), f.tail && strings.HasPrefix(s, "-"):
			s = s[1:] // as GNU: head -n +N and tail -n -N are -n N
		}
		n, err := strconv.Atoi(s)
		if err != nil || s == "" || strings.Trim(s, "0123456789") != "" {
			return fmt.Errorf("invalid number of lines: %q", given)
		}
		f.n = n
		return nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return nil, operandError(name, args[i+1])
			}
		case a == "-n":
			if i+1 >= len(args) {
				return nil, fmt.Errorf("option -n needs a number")
			}
			i++
			if err := setN(args[i]); err != nil {
				return nil, err
			}
		case strings.HasPrefix(a, "-n"):
			if err := setN(a[2:]); err != nil {
				return nil, err
			}
		case len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9':
			if err := setN(a[1:]); err != nil {
				return nil, err
			}
		case len(a) > 1 && a[0] == '-':
			return nil, fmt.Errorf("unknown option %s; use -n N or -N", a)
		default:
			return nil, operandError(name, a)
		}
	}
	return f, nil
}

func (f *headTail) run(_ context.Context, rd Renderer, v Value) (Value, int, error) {
	src, err := sourceOf(rd, v)
	if err != nil {
		return Value{}, StatusFailure, err
	}
	if src.array != nil {
		out, err := f.elements(src.array)
		if err != nil {
			return Value{}, StatusFailure, err
		}
		return out, StatusOK, nil
	}
	switch {
	case !f.tail:
		return textValue(headLines(src.text, f.n)), StatusOK, nil
	case f.from:
		return textValue(fromLine(src.text, f.n)), StatusOK, nil
	}
	return textValue(tailLines(src.text, f.n)), StatusOK, nil
}

// headLines returns the first n lines of s, newlines included.
func headLines(s string, n int) string {
	pos := 0
	for k := 0; k < n && pos < len(s); k++ {
		j := strings.IndexByte(s[pos:], '\n')
		if j < 0 {
			return s
		}
		pos += j + 1
	}
	return s[:pos]
}

// fromLine returns s from its nth line on (1-based; 0 counts as 1).
func fromLine(s string, n int) string {
	pos := 0
	for k := 1; k < n; k++ {
		j := strings.IndexByte(s[pos:], '\n')
		if j < 0 {
			return ""
		}
		pos += j + 1
	}
	return s[pos:]
}

// tailLines returns the last n lines of s, scanning backwards.
func tailLines(s string, n int) string {
	if n == 0 {
		return ""
	}
	body := strings.TrimSuffix(s, "\n")
	pos := len(body)
	for k := 0; k < n; k++ {
		j := strings.LastIndexByte(body[:pos], '\n')
		if j < 0 {
			return s
		}
		pos = j
	}
	return s[pos+1:]
}

// elements applies the filter to a JSON array's elements. The result is one
// contiguous run of the input's elements, copied once.
func (f *headTail) elements(raw []byte) (Value, error) {
	start, end := -1, -1
	var err error
	switch {
	case !f.tail:
		k := 0
		err = eachElement(raw, func(s, e int) bool {
			if k >= f.n {
				return false
			}
			if k == 0 {
				start = s
			}
			end = e
			k++
			return true
		})
	case f.from:
		k := 1
		err = eachElement(raw, func(s, e int) bool {
			if k >= f.n && start < 0 {
				start = s
			}
			end = e
			k++
			return true
		})
	default:
		// a ring of the last n start offsets
		ring := make([]int, 0, min(f.n, 1024))
		next := 0
		err = eachElement(raw, func(s, e int) bool {
			if f.n == 0 {
				return false
			}
			if len(ring) < f.n {
				ring = append(ring, s)
			} else {
				ring[next] = s
				next = (next + 1) % f.n
			}
			end = e
			return true
		})
		if len(ring) > 0 {
			start = ring[next%len(ring)]
		}
	}
	if err != nil {
		return Value{}, err
	}
	if start < 0 {
		return arrayValue(nil), nil
	}
	return arrayValue(raw[start:end]), nil
}

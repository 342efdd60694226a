package interp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// grep selects the lines (or array elements, by their compact JSON) that match a
// pattern. It exits 1 when it selects nothing.
type grep struct {
	invert, count, number bool
	// literal is the string searched for when the pattern is a plain string
	// (no -w or -x); fold means it is lower-case ASCII matched ignoring case.
	literal      string
	literalBytes []byte
	fold         bool
	buf          []byte
	re           *regexp.Regexp
	// required are strings every match of re contains: lines without one of
	// them are rejected, and skipped over, without running the regexp. The
	// first is the one searched for to skip ahead (the rarest in the input).
	required []string
}

func (*grep) name() string { return "grep" }

// newGrep parses `-i -v -c -n -E -F -w -x` (combinable, as in -in), `-e PATTERN`
// and the pattern operand (options may follow it, as in GNU grep; `--` ends
// them), and compiles the pattern (RE2 syntax).
func newGrep(args []string) (*grep, error) {
	f := &grep{}
	var ignoreCase, fixed, word, line bool
	var patterns, rest []string
	hasE, endOpts := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if endOpts || len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		if a == "--" {
			endOpts = true
			continue
		}
		for k := 1; k < len(a); k++ {
			switch a[k] {
			case 'i':
				ignoreCase = true
			case 'v':
				f.invert = true
			case 'c':
				f.count = true
			case 'n':
				f.number = true
			case 'E':
				fixed = false
			case 'F':
				fixed = true
			case 'w':
				word = true
			case 'x':
				line = true
			case 'e':
				hasE = true
				if r := a[k+1:]; r != "" {
					patterns = append(patterns, r)
				} else if i+1 < len(args) {
					i++
					patterns = append(patterns, args[i])
				} else {
					return nil, errors.New("option -e needs a pattern")
				}
				k = len(a)
			default:
				return nil, fmt.Errorf("unknown option -%c; use -i, -v, -c, -n, -E, -F, -w, -x or -e PATTERN", a[k])
			}
		}
	}
	if !hasE {
		if len(rest) == 0 {
			return nil, errors.New("missing pattern")
		}
		patterns, rest = rest[:1], rest[1:]
	}
	if len(rest) > 0 {
		return nil, operandError("grep", rest[0])
	}
	if len(patterns) > 1 {
		return nil, errors.New("give one pattern (use a|b to match either)")
	}
	pat := patterns[0]
	if fixed {
		pat = regexp.QuoteMeta(pat)
	}
	tree, err := syntax.Parse(pat, syntax.Perl)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, fmt.Errorf("invalid regular expression %q: %s", pat, se.Code)
		}
		return nil, fmt.Errorf("invalid regular expression %q", pat)
	}
	if !ignoreCase {
		f.required = requiredLiterals(tree)
	}
	if !word && !line {
		// A pattern that is a plain string is searched for without the regexp
		// engine; with -i, an ASCII string is matched by folding ASCII letters.
		if re, err := regexp.Compile(pat); err == nil {
			if lit, complete := re.LiteralPrefix(); complete && (!ignoreCase || isASCII(lit)) {
				f.fold = ignoreCase
				if ignoreCase {
					lit = strings.ToLower(lit)
				}
				f.literal, f.literalBytes = lit, []byte(lit)
				return f, nil
			}
		}
	}
	switch {
	case line:
		pat = `^(?:` + pat + `)$`
	case word:
		pat = `(?:^|[^\p{L}\p{N}_])(?:` + pat + `)(?:$|[^\p{L}\p{N}_])`
	}
	if ignoreCase {
		pat = `(?i)` + pat
	}
	f.re, err = regexp.Compile(pat)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression: %s", err)
	}
	return f, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (f *grep) match(s string) bool {
	switch {
	case f.re != nil:
		for _, lit := range f.required {
			if !strings.Contains(s, lit) {
				return f.invert
			}
		}
		return f.re.MatchString(s) != f.invert
	case f.fold:
		f.buf = lowerASCII(f.buf[:0], s)
		return bytes.Contains(f.buf, f.literalBytes) != f.invert
	}
	return strings.Contains(s, f.literal) != f.invert
}

func (f *grep) matchBytes(b []byte) bool {
	switch {
	case f.re != nil:
		return f.re.Match(b) != f.invert
	case f.fold:
		f.buf = f.buf[:0]
		for _, c := range b {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			f.buf = append(f.buf, c)
		}
		return bytes.Contains(f.buf, f.literalBytes) != f.invert
	}
	return bytes.Contains(b, f.literalBytes) != f.invert
}

// lowerASCII appends s to dst with ASCII letters lowered (other bytes as is).
func lowerASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func (f *grep) run(_ context.Context, rd Renderer, v Value) (Value, int, error) {
	src, err := sourceOf(rd, v)
	if err != nil {
		return Value{}, StatusFailure, err
	}
	var n int
	var out Value
	if src.array != nil {
		n, out, err = f.elements(src.array)
		if err != nil {
			return Value{}, StatusFailure, err
		}
	} else {
		n, out = f.lines(src.text)
	}
	if f.count {
		out = textValue(strconv.Itoa(n) + "\n")
	}
	if n == 0 {
		return out, StatusFailure, nil
	}
	return out, StatusOK, nil
}

// lines selects matching lines of text.
func (f *grep) lines(t string) (int, Value) {
	f.rarestFirst(t)
	var b strings.Builder
	n, lineNo := 0, 0
	for pos := 0; pos < len(t); {
		if f.re != nil && len(f.required) > 0 && !f.invert {
			// jump to the line holding the next occurrence of a required string
			j := strings.Index(t[pos:], f.required[0])
			if j < 0 {
				break
			}
			start := pos + strings.LastIndexByte(t[pos:pos+j], '\n') + 1
			lineNo += strings.Count(t[pos:start], "\n")
			pos = start
		}
		end := strings.IndexByte(t[pos:], '\n')
		next := len(t)
		if end < 0 {
			end = len(t)
		} else {
			end += pos
			next = end + 1
		}
		lineNo++
		if line := t[pos:end]; f.match(line) {
			n++
			if !f.count {
				if b.Cap()-b.Len() < len(line)+24 {
					b.Grow(max(b.Cap(), len(line)+24)) // double: output stays under 2× its size
				}
				if f.number {
					b.WriteString(strconv.Itoa(lineNo))
					b.WriteByte(':')
				}
				b.WriteString(line)
				b.WriteByte('\n')
			}
		}
		pos = next
	}
	return n, textValue(b.String())
}

// elements selects array elements whose compact JSON matches; the result is
// still an array (of the compact elements).
func (f *grep) elements(raw []byte) (int, Value, error) {
	var out bytes.Buffer
	var buf []byte
	n := 0
	err := eachElement(raw, func(s, e int) bool {
		elem := compactView(&buf, raw[s:e])
		if f.matchBytes(elem) {
			n++
			if !f.count {
				if out.Len() > 0 {
					out.WriteByte(',')
				}
				out.Write(elem)
			}
		}
		return true
	})
	if err != nil {
		return 0, Value{}, err
	}
	return n, arrayValue(out.Bytes()), nil
}

// requiredLiterals returns case-sensitive literals that every match of the
// regular expression contains: the expression itself when it is a literal, else
// the literals among the parts of a top-level concatenation. Literals spanning
// lines are left out (a line cannot hold them).
func requiredLiterals(re *syntax.Regexp) []string {
	for re.Op == syntax.OpCapture && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	parts := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		parts = re.Sub
	}
	var out []string
	for _, r := range parts {
		for r.Op == syntax.OpCapture && len(r.Sub) == 1 {
			r = r.Sub[0]
		}
		if r.Op == syntax.OpLiteral && r.Flags&syntax.FoldCase == 0 {
			if l := string(r.Rune); !strings.Contains(l, "\n") {
				out = append(out, l)
			}
		}
	}
	return out
}

// rarestFirst moves the required literal seen least often in the first 64 KiB
// of t (the longest among equals) to the front: it is the one skipped to.
func (f *grep) rarestFirst(t string) {
	if len(f.required) < 2 {
		return
	}
	sample := t[:min(len(t), 64<<10)]
	best, bestN := 0, -1
	for i, lit := range f.required {
		n := strings.Count(sample, lit)
		if bestN < 0 || n < bestN || n == bestN && len(lit) > len(f.required[best]) {
			best, bestN = i, n
		}
	}
	f.required[0], f.required[best] = f.required[best], f.required[0]
}

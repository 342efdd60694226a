package fstools

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of one glob: how many patterns its {a,b} groups may expand to,
// their total size, and the pattern's own length. A glob over them is
// refused (400), not cut short: a cut would silently match less.
const (
	maxBraceExpansions = 10_000
	maxExpandedBytes   = 4 << 20
	maxGlobLength      = 4096
)

// globPattern is a compiled path pattern of glob, grep's glob and ls's
// ignore_globs: brace alternatives, each split into segments.
type globPattern struct {
	dirOnly bool
	alts    [][]string
}

// compileGlob compiles a user's glob: a pattern not starting with "**/" gets
// it prepended, {a,b} groups expand, and a trailing "/" restricts the
// pattern to directories.
//
// A glob longer than maxGlobLength, or whose braces expand to more than
// maxBraceExpansions patterns (or maxExpandedBytes), is an error.
func compileGlob(p string) (globPattern, error) {
	var g globPattern
	if len(p) > maxGlobLength {
		return g, fmt.Errorf("the pattern is %d bytes long; at most %d", len(p), maxGlobLength)
	}
	if strings.HasSuffix(p, "/") && len(p) > 1 {
		g.dirOnly = true
		p = strings.TrimRight(p, "/")
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	if !strings.HasPrefix(p, "**/") {
		p = "**/" + p
	}
	alts, err := expandBraces(p)
	if err != nil {
		return g, err
	}
	for _, alt := range alts {
		g.alts = append(g.alts, strings.Split(alt, "/"))
	}
	return g, nil
}

// match reports whether the slash-separated relative path matches.
func (g globPattern) match(rel string, isDir bool) bool {
	if g.dirOnly && !isDir {
		return false
	}
	parts := strings.Split(rel, "/")
	for _, segs := range g.alts {
		if matchPath(segs, parts) {
			return true
		}
	}
	return false
}

// Why a brace expansion is refused.
var (
	errTooManyBraces = fmt.Errorf("its {…} groups expand to more than %d patterns", maxBraceExpansions)
	errBracesTooLong = fmt.Errorf("its {…} groups expand to more than %d bytes of patterns", maxExpandedBytes)
)

// expandBraces expands {a,b} groups (nested ones too) into separate
// patterns, leftmost group slowest; an unbalanced brace or a group without a
// top-level comma is literal (what is inside it still expands), and '\'
// escapes the next byte. The pattern is parsed once and the count of
// patterns worked out before any is built, so the work is linear in the
// pattern and its expansion: more than maxBraceExpansions patterns, or more
// than maxExpandedBytes of them, is refused without being built.
func expandBraces(p string) ([]string, error) {
	seq := parseBraces(p, braceMatches(p), 0, len(p))
	if braceCount(seq) > maxBraceExpansions {
		return nil, errTooManyBraces
	}
	e := braceExpander{out: []string{}}
	e.walk(seq, nil, make([]byte, 0, len(p)))
	if e.over {
		return nil, errBracesTooLong
	}
	return e.out, nil
}

// braceMatches pairs the braces of p in one pass: close[i] is the index of
// the '}' closing the '{' at i (0 when it is unbalanced), and commas[i] the
// top-level commas of that group.
type braceMatch struct {
	close  map[int]int
	commas map[int][]int
}

func braceMatches(p string) braceMatch {
	m := braceMatch{close: map[int]int{}, commas: map[int][]int{}}
	var open []int
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			open = append(open, i)
		case '}':
			if len(open) > 0 {
				m.close[open[len(open)-1]] = i
				open = open[:len(open)-1]
			}
		case ',':
			if len(open) > 0 {
				o := open[len(open)-1]
				m.commas[o] = append(m.commas[o], i)
			}
		}
	}
	return m
}

// braceNode is a literal run of a pattern, or a group of alternatives.
type braceNode struct {
	lit  string
	alts [][]braceNode // nil: a literal
}

// parseBraces parses p[lo:hi] into literals and the groups that expand.
func parseBraces(p string, m braceMatch, lo, hi int) []braceNode {
	var seq []braceNode
	start := lo
	for i := lo; i < hi; i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			end, commas := m.close[i], m.commas[i]
			if end == 0 || len(commas) == 0 {
				continue // literal; what is inside may still expand
			}
			if start < i {
				seq = append(seq, braceNode{lit: p[start:i]})
			}
			g := braceNode{}
			prev := i + 1
			for _, c := range append(commas, end) {
				g.alts = append(g.alts, parseBraces(p, m, prev, c))
				prev = c + 1
			}
			seq = append(seq, g)
			i, start = end, end+1
		}
	}
	if start < hi {
		seq = append(seq, braceNode{lit: p[start:min(hi, len(p))]})
	}
	return seq
}

// braceCount is how many patterns seq expands to, saturated just above
// maxBraceExpansions.
func braceCount(seq []braceNode) int {
	n := 1
	for _, nd := range seq {
		if nd.alts == nil {
			continue
		}
		sum := 0
		for _, alt := range nd.alts {
			sum = min(sum+braceCount(alt), maxBraceExpansions+1)
		}
		n = min(n*sum, maxBraceExpansions+1)
	}
	return n
}

// braceExpander builds the patterns of a parsed glob.
type braceExpander struct {
	out  []string
	size int
	over bool
}

// braceRest is what follows a group: sequences still to walk, innermost
// first.
type braceRest struct {
	seq  []braceNode
	next *braceRest
}

// walk appends to buf the literals of seq and then of each sequence of
// rest, one alternative of each group at a time, and records every complete
// pattern.
func (e *braceExpander) walk(seq []braceNode, rest *braceRest, buf []byte) {
	for {
		for len(seq) == 0 {
			if rest == nil {
				if e.size+len(buf) > maxExpandedBytes {
					e.over = true
					return
				}
				e.size += len(buf)
				e.out = append(e.out, string(buf))
				return
			}
			seq, rest = rest.seq, rest.next
		}
		nd := seq[0]
		seq = seq[1:]
		if nd.alts == nil {
			buf = append(buf, nd.lit...)
			continue
		}
		more := &braceRest{seq: seq, next: rest}
		for _, alt := range nd.alts {
			if e.over {
				return
			}
			e.walk(alt, more, buf)
		}
		return
	}
}

// matchPath matches path segments against pattern segments, where a "**"
// segment matches zero or more segments (one or more when it is last).
func matchPath(pat, path []string) bool {
	// memo[i][j]: 0 unknown, 1 false, 2 true.
	memo := make([]uint8, (len(pat)+1)*(len(path)+1))
	var m func(i, j int) bool
	m = func(i, j int) bool {
		k := i*(len(path)+1) + j
		if memo[k] != 0 {
			return memo[k] == 2
		}
		var ok bool
		switch {
		case i == len(pat):
			ok = j == len(path)
		case pat[i] == "**" && i == len(pat)-1:
			ok = len(path)-j >= 1
		case pat[i] == "**":
			ok = m(i+1, j) || (j < len(path) && m(i, j+1))
		default:
			ok = j < len(path) && matchSegment(pat[i], path[j]) && m(i+1, j+1)
		}
		memo[k] = 1
		if ok {
			memo[k] = 2
		}
		return ok
	}
	return m(0, 0)
}

// matchSegment reports whether name, one path segment, matches pat: '*' any
// run of characters, '?' one character, '[...]' a class ('!' or '^'
// negates, ranges, [:alpha:] and friends), '\x' a literal x.
func matchSegment(pat, name string) bool {
	px, nx := 0, 0
	starPx, starNx := -1, -1
	for px < len(pat) || nx < len(name) {
		if px < len(pat) {
			switch c := pat[px]; c {
			case '*':
				for px < len(pat) && pat[px] == '*' {
					px++
				}
				starPx, starNx = px, nx
				continue
			case '?':
				if nx < len(name) {
					_, w := utf8.DecodeRuneInString(name[nx:])
					px++
					nx += w
					continue
				}
			case '[':
				if nx < len(name) {
					r, w := utf8.DecodeRuneInString(name[nx:])
					ok, end := matchClass(pat, px, r)
					if end > 0 {
						if ok {
							px = end
							nx += w
							continue
						}
						break
					}
				}
				if nx < len(name) && name[nx] == '[' {
					px++
					nx++
					continue
				}
			case '\\':
				lit := byte('\\')
				step := 1
				if px+1 < len(pat) {
					lit, step = pat[px+1], 2
				}
				if nx < len(name) && name[nx] == lit {
					px += step
					nx++
					continue
				}
			default:
				if nx < len(name) && name[nx] == c {
					px++
					nx++
					continue
				}
			}
		}
		if starNx >= 0 && starNx < len(name) {
			_, w := utf8.DecodeRuneInString(name[starNx:])
			starNx += w
			px, nx = starPx, starNx
			continue
		}
		return false
	}
	return true
}

// matchClass matches r against the class starting at pat[open] == '['. end
// is the index after the closing ']', or 0 when the class is unterminated
// (the '[' is then literal).
func matchClass(pat string, open int, r rune) (ok bool, end int) {
	i := open + 1
	negate := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		negate = true
		i++
	}
	first := true
	for i < len(pat) {
		if pat[i] == ']' && !first {
			return ok != negate, i + 1
		}
		first = false
		if pat[i] == '[' && i+1 < len(pat) && pat[i+1] == ':' {
			if close := strings.Index(pat[i+2:], ":]"); close >= 0 {
				if namedClass(pat[i+2:i+2+close], r) {
					ok = true
				}
				i += close + 4
				continue
			}
		}
		lo, w := classChar(pat, i)
		if w == 0 {
			return false, 0
		}
		i += w
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			h, w2 := classChar(pat, i+1)
			if w2 == 0 {
				return false, 0
			}
			hi = h
			i += 1 + w2
		}
		if lo <= r && r <= hi {
			ok = true
		}
	}
	return false, 0
}

// classChar decodes one (possibly escaped) character of a class.
func classChar(pat string, i int) (rune, int) {
	if pat[i] == '\\' {
		if i+1 >= len(pat) {
			return 0, 0
		}
		r, w := utf8.DecodeRuneInString(pat[i+1:])
		return r, w + 1
	}
	return utf8.DecodeRuneInString(pat[i:])
}

// namedClass reports whether r is in the POSIX class called name.
func namedClass(name string, r rune) bool {
	switch name {
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "alpha":
		return unicode.IsLetter(r)
	case "blank":
		return r == ' ' || r == '\t'
	case "cntrl":
		return unicode.IsControl(r)
	case "digit":
		return '0' <= r && r <= '9'
	case "graph":
		return unicode.IsGraphic(r) && !unicode.IsSpace(r)
	case "lower":
		return unicode.IsLower(r)
	case "print":
		return unicode.IsPrint(r)
	case "punct":
		return unicode.IsPunct(r) || unicode.IsSymbol(r)
	case "space":
		return unicode.IsSpace(r)
	case "upper":
		return unicode.IsUpper(r)
	case "xdigit":
		return strings.ContainsRune("0123456789abcdefABCDEF", r)
	}
	return false
}

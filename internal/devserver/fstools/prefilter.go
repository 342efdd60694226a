package fstools

import (
	"bytes"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxPrefilterLits caps the literal alternatives a prefilter searches for.
const maxPrefilterLits = 16

// prefilter holds literals one of which every match of a pattern
// contains, so a search can find candidate lines with bytes.Index and run
// the regexp only on those lines.
type prefilter struct {
	lits     [][]byte // lower-cased when fold
	fold     bool     // search an ASCII-lower-cased copy of the text
	complete bool     // a literal hit is a match: the pattern is just the literals
}

// litSet is the result of analysing a subexpression.
type litSet struct {
	lits     []string
	fold     bool
	complete bool
}

// buildPrefilter analyses the compiled pattern's syntax; nil when no useful
// literal is required.
func buildPrefilter(expr string) *prefilter {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	set, ok := required(re.Simplify())
	if !ok || len(set.lits) == 0 || len(set.lits) > maxPrefilterLits {
		return nil
	}
	p := &prefilter{fold: set.fold, complete: set.complete}
	for _, l := range set.lits {
		if l == "" || (len(l) < 2 && !set.complete) {
			return nil
		}
		if strings.Contains(l, "\n") {
			p.complete = false
		}
		if set.fold {
			if !asciiFoldSafe(l) {
				return nil
			}
			l = strings.ToLower(l)
		}
		p.lits = append(p.lits, []byte(l))
	}
	return p
}

// required returns literals one of which every match of re contains.
func required(re *syntax.Regexp) (litSet, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return litSet{lits: []string{string(re.Rune)}, fold: re.Flags&syntax.FoldCase != 0, complete: true}, true
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		s, ok := required(re.Sub[0])
		s.complete = false
		return s, ok
	case syntax.OpRepeat:
		if re.Min < 1 {
			return litSet{}, false
		}
		s, ok := required(re.Sub[0])
		s.complete = false
		return s, ok
	case syntax.OpAlternate:
		var out litSet
		out.complete = true
		for i, sub := range re.Sub {
			s, ok := required(sub)
			if !ok {
				return litSet{}, false
			}
			if i > 0 && s.fold != out.fold {
				out.complete = false
			}
			out.fold = out.fold || s.fold
			out.complete = out.complete && s.complete
			out.lits = append(out.lits, s.lits...)
		}
		return out, true
	case syntax.OpConcat:
		return requiredConcat(re.Sub)
	}
	return litSet{}, false
}

// requiredConcat picks the best requirement among a concatenation's parts,
// joining adjacent literals.
func requiredConcat(subs []*syntax.Regexp) (litSet, bool) {
	var best litSet
	found := false
	consider := func(s litSet) {
		if !found || score(s) > score(best) {
			best, found = s, true
		}
	}
	for i := 0; i < len(subs); i++ {
		if subs[i].Op == syntax.OpLiteral {
			fold := subs[i].Flags&syntax.FoldCase != 0
			run := string(subs[i].Rune)
			for i+1 < len(subs) && subs[i+1].Op == syntax.OpLiteral && (subs[i+1].Flags&syntax.FoldCase != 0) == fold {
				i++
				run += string(subs[i].Rune)
			}
			consider(litSet{lits: []string{run}, fold: fold})
			continue
		}
		if s, ok := required(subs[i]); ok {
			consider(s)
		}
	}
	best.complete = false
	return best, found
}

// score rates a requirement: its shortest literal, fewer alternatives
// breaking ties.
func score(s litSet) int {
	shortest := 1 << 20
	for _, l := range s.lits {
		shortest = min(shortest, len(l))
	}
	return shortest*64 - len(s.lits)
}

// asciiFoldSafe reports whether every case variant of s's characters is
// ASCII (so ASCII lower-casing finds all of them; 'k' and 's' fold to
// non-ASCII letters, so they are not).
func asciiFoldSafe(s string) bool {
	for _, r := range s {
		if r >= utf8.RuneSelf {
			return false
		}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f >= utf8.RuneSelf {
				return false
			}
		}
	}
	return true
}

// lowerASCII writes buf lower-cased (ASCII letters only) into dst's storage.
func lowerASCII(dst, buf []byte) []byte {
	if cap(dst) < len(buf) {
		dst = make([]byte, len(buf), len(buf)+512)
	}
	dst = dst[:len(buf)]
	for i, c := range buf {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
	return dst
}

// present reports whether any literal occurs in hay.
func (p *prefilter) present(hay []byte) bool {
	for _, l := range p.lits {
		if bytes.Contains(hay, l) {
			return true
		}
	}
	return false
}

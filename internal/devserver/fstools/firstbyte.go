package fstools

import (
	"bytes"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// byteSet is a set of byte values.
type byteSet [256]bool

// firstBytes returns the bytes a match of the pattern can start with, for
// patterns with no required literal: lines without any of them are skipped
// without running the regexp. It is nil when the set would not be selective
// (it holds a lower-case letter or a space, or the pattern can match
// empty).
func firstBytes(expr string) *byteSet {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	var set byteSet
	if !addFirst(re.Simplify(), &set) {
		return nil
	}
	if set[' '] || set['\t'] || bytes.ContainsFunc([]byte("abcdefghijklmnopqrstuvwxyz"), func(r rune) bool { return set[r] }) {
		return nil
	}
	return &set
}

// addFirst adds the bytes a non-empty match of re can start with; false
// when re can match the empty string or start with any byte.
func addFirst(re *syntax.Regexp, set *byteSet) bool {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return false
		}
		addRune(set, re.Rune[0], re.Flags&syntax.FoldCase != 0)
		return true
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
				set[r] = true
			}
			if hi >= utf8.RuneSelf {
				for b := 0xC0; b < 0x100; b++ {
					set[b] = true // any multi-byte lead byte
				}
			}
		}
		return true
	case syntax.OpCapture, syntax.OpPlus:
		return addFirst(re.Sub[0], set)
	case syntax.OpRepeat:
		return re.Min >= 1 && addFirst(re.Sub[0], set)
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !addFirst(sub, set) {
				return false
			}
		}
		return true
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if zeroWidth(sub) {
				continue
			}
			if nullable(sub) {
				if !addFirst(sub, set) && !addFirstOptional(sub, set) {
					return false
				}
				continue
			}
			return addFirst(sub, set)
		}
		return false
	}
	return false
}

// addFirstOptional adds the first bytes of an optional part (x*, x?,
// x{0,n}) of a concatenation.
func addFirstOptional(re *syntax.Regexp, set *byteSet) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpQuest, syntax.OpRepeat:
		return addFirst(re.Sub[0], set) || (nullable(re.Sub[0]) && addFirstOptional(re.Sub[0], set))
	case syntax.OpCapture:
		return addFirstOptional(re.Sub[0], set)
	}
	return false
}

// zeroWidth reports whether re only asserts a position.
func zeroWidth(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
		return true
	}
	return false
}

// nullable reports whether re can match the empty string.
func nullable(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpQuest, syntax.OpEmptyMatch:
		return true
	case syntax.OpLiteral:
		return len(re.Rune) == 0
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		return false
	case syntax.OpCapture, syntax.OpPlus:
		return nullable(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || nullable(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !nullable(sub) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if nullable(sub) {
				return true
			}
		}
		return false
	}
	return zeroWidth(re)
}

// addRune adds the first byte of r's UTF-8 form (of each case variant when
// fold).
func addRune(set *byteSet, r rune, fold bool) {
	var buf [utf8.UTFMax]byte
	add := func(r rune) {
		utf8.EncodeRune(buf[:], r)
		set[buf[0]] = true
	}
	add(r)
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			add(f)
		}
	}
}

// indexAny returns the index of the first byte of buf in set, or -1.
func (s *byteSet) indexAny(buf []byte) int {
	for i, c := range buf {
		if s[c] {
			return i
		}
	}
	return -1
}

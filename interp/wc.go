package interp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// wc counts lines, words and bytes. Text is measured as it prints: a final line
// without a newline counts as a line, and its newline as a byte unless the text
// is final (printed byte for byte: read's file text gives the file's size); an
// array counts each element as one line of its compact JSON.
type wc struct {
	lines, words, bytes bool
}

func (*wc) name() string { return "wc" }

func newWC(args []string) (*wc, error) {
	f := &wc{}
	for i, a := range args {
		if a == "--" {
			if i+1 < len(args) {
				return nil, operandError("wc", args[i+1])
			}
			break
		}
		if len(a) < 2 || a[0] != '-' {
			return nil, operandError("wc", a)
		}
		for _, c := range a[1:] {
			switch c {
			case 'l':
				f.lines = true
			case 'w':
				f.words = true
			case 'c':
				f.bytes = true
			default:
				return nil, fmt.Errorf("unknown option -%c; use -l, -w or -c", c)
			}
		}
	}
	if !f.lines && !f.words && !f.bytes {
		f.lines, f.words, f.bytes = true, true, true
	}
	return f, nil
}

func (f *wc) run(_ context.Context, rd Renderer, v Value) (Value, int, error) {
	src, err := sourceOf(rd, v)
	if err != nil {
		return Value{}, StatusFailure, err
	}
	var lines, words, nbytes int
	if src.array != nil {
		err = eachElement(src.array, func(s, e int) bool {
			w, n := countCompact(src.array[s:e])
			lines++
			words += w
			nbytes += n + 1
			return true
		})
		if err != nil {
			return Value{}, StatusFailure, err
		}
	} else if t := src.text; t != "" {
		lines = strings.Count(t, "\n")
		nbytes = len(t)
		if t[len(t)-1] != '\n' {
			lines++
			if !v.Final { // final text prints byte for byte, without one
				nbytes++
			}
		}
		words = countWords(t)
	}
	var parts []string
	if f.lines {
		parts = append(parts, strconv.Itoa(lines))
	}
	if f.words {
		parts = append(parts, strconv.Itoa(words))
	}
	if f.bytes {
		parts = append(parts, strconv.Itoa(nbytes))
	}
	return textValue(strings.Join(parts, " ") + "\n"), StatusOK, nil
}

// countWords counts maximal runs of non-space characters (Unicode spaces).
func countWords(s string) int {
	n := 0
	in := false
	for i := 0; i < len(s); {
		c := s[i]
		if c > ' ' && c < utf8.RuneSelf { // the common case
			if !in {
				in = true
				n++
			}
			i++
			continue
		}
		var space bool
		if c < utf8.RuneSelf {
			space = isASCIISpace(c)
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
			i += size
		}
		if space {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

// countCompact returns the words and bytes of a JSON value's compact form
// without building it: blanks outside strings vanish, those inside separate.
func countCompact(v []byte) (words, size int) {
	in, inString := false, false
	for i := 0; i < len(v); {
		c := v[i]
		if c > ' ' && c < utf8.RuneSelf && c != '"' && c != '\\' { // the common case
			if !in {
				in = true
				words++
			}
			i++
			size++
			continue
		}
		space := false
		width := 1
		switch {
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			i++
			continue
		case c == '"':
			inString = !inString
		case inString && c == '\\':
			width = 2 // an escape is never a blank
		case c < utf8.RuneSelf:
			space = isASCIISpace(c)
		default:
			var r rune
			r, width = utf8.DecodeRune(v[i:])
			space = unicode.IsSpace(r)
		}
		i += width
		size += width
		if space {
			in = false
		} else if !in {
			in = true
			words++
		}
	}
	return words, size
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c-'\t' <= '\r'-'\t'
}

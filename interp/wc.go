package interp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// wc counts lines, words and bytes. Text is measured as it prints (a final line
// without a newline counts as a line and its newline as a byte); an array counts
// each element as one line of its compact JSON.
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
		var buf bytes.Buffer
		var cerr error
		err = eachElement(src.array, func(s, e int) bool {
			buf.Reset()
			if cerr = json.Compact(&buf, src.array[s:e]); cerr != nil {
				return false
			}
			lines++
			words += countWordsBytes(buf.Bytes())
			nbytes += buf.Len() + 1
			return true
		})
		if err == nil && cerr != nil {
			err = errMalformed
		}
		if err != nil {
			return Value{}, StatusFailure, err
		}
	} else if t := src.text; t != "" {
		lines = strings.Count(t, "\n")
		nbytes = len(t)
		if t[len(t)-1] != '\n' {
			lines++
			nbytes++
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
	for _, r := range s {
		if isSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

// countWordsBytes is countWords for bytes, without copying them.
func countWordsBytes(b []byte) int {
	n := 0
	in := false
	for _, r := range string(b) {
		if isSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\v' || r == '\f'
	}
	return unicode.IsSpace(r)
}

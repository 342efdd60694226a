package interp

import "github.com/agsh-dev/agsh/internal/jsontext"

// Token-level scanning of JSON arrays: elements are found by their byte ranges
// without decoding them, so filters over large arrays stay linear and allocate
// nothing per element.

// eachElement calls fn with the byte range of every element of the JSON array
// raw, in order, until fn returns false. It checks the structure it walks
// (brackets, strings, separators: jsontext.Elements) and reports errMalformed
// when it is broken.
func eachElement(raw []byte, fn func(start, end int) bool) error {
	stopped := false
	end, ok := jsontext.Elements(raw, 0, func(start int) (int, bool) {
		end, ok := jsontext.SpanEnd(raw, start)
		if ok && !fn(start, end) {
			stopped, ok = true, false
		}
		return end, ok
	})
	switch {
	case stopped:
		return nil
	case !ok || skipSpace(raw, end) != len(raw):
		return errMalformed
	}
	return nil
}

func skipSpace(raw []byte, i int) int { return jsontext.SkipSpace(raw, i) }

// appendCompact appends the JSON value v without the blanks outside its strings.
func appendCompact(dst, v []byte) []byte { return jsontext.AppendCompact(dst, v) }

// compactView returns v without the blanks outside its strings: v itself when it
// has none, else a copy made in *buf (kept for reuse).
func compactView(buf *[]byte, v []byte) []byte {
	k := firstBlank(v)
	if k < 0 {
		return v
	}
	*buf = jsontext.AppendCompact(append((*buf)[:0], v[:k]...), v[k:])
	return *buf
}

// firstBlank returns the index of the first blank outside strings in v, or -1.
func firstBlank(v []byte) int {
	inString := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			return i
		case '"':
			inString = true
		}
	}
	return -1
}

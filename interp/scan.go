package interp

import "github.com/agsh-dev/agsh/internal/jsontext"

// Token-level scanning of JSON arrays: elements are found by their byte ranges
// without decoding them, so filters over large arrays stay linear and allocate
// nothing per element.

// eachElement calls fn with the byte range of every element of the JSON array
// raw, in order, until fn returns false. It checks the structure it walks
// (brackets, strings, separators) and reports errMalformed when it is broken.
func eachElement(raw []byte, fn func(start, end int) bool) error {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return errMalformed
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return endOfArray(raw, i)
	}
	for {
		start := i
		end, err := skipValue(raw, i)
		if err != nil {
			return err
		}
		if !fn(start, end) {
			return nil
		}
		i = skipSpace(raw, end)
		if i >= len(raw) {
			return errMalformed
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
		case ']':
			return endOfArray(raw, i)
		default:
			return errMalformed
		}
	}
}

// endOfArray checks that only blanks follow the closing bracket at i.
func endOfArray(raw []byte, i int) error {
	if skipSpace(raw, i+1) != len(raw) {
		return errMalformed
	}
	return nil
}

func skipSpace(raw []byte, i int) int { return jsontext.SkipSpace(raw, i) }

// skipValue returns the index just after the JSON value starting at i.
func skipValue(raw []byte, i int) (int, error) {
	end, ok := jsontext.SpanEnd(raw, i)
	if !ok {
		return 0, errMalformed
	}
	return end, nil
}

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

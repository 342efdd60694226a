package interp

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

func skipSpace(raw []byte, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue returns the index just after the JSON value starting at i.
func skipValue(raw []byte, i int) (int, error) {
	if i >= len(raw) {
		return 0, errMalformed
	}
	switch raw[i] {
	case '"':
		return skipString(raw, i)
	case '[', '{':
		depth := 0
		for j := i; j < len(raw); j++ {
			switch raw[j] {
			case '"':
				end, err := skipString(raw, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '[', '{':
				depth++
			case ']', '}':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errMalformed
	case ',', ']', '}', ':':
		return 0, errMalformed
	}
	j := i
	for j < len(raw) {
		switch raw[j] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return j, nil
		}
		j++
	}
	return j, nil
}

// skipString returns the index just after the JSON string starting at i.
func skipString(raw []byte, i int) (int, error) {
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errMalformed
}

// appendCompact appends the JSON value v without the blanks outside its strings
// (v has been walked by eachElement, so its strings are terminated).
func appendCompact(dst, v []byte) []byte {
	var buf []byte
	return append(dst, compactView(&buf, v)...)
}

// compactView returns v without the blanks outside its strings: v itself when it
// has none, else a copy made in *buf (grown as needed and kept for reuse).
func compactView(buf *[]byte, v []byte) []byte {
	k := firstBlank(v)
	if k < 0 {
		return v
	}
	if cap(*buf) < len(v) {
		*buf = make([]byte, len(v), 2*len(v))
	}
	out := (*buf)[:len(v)]
	n := copy(out, v[:k])
	inString := false
	for i := k; i < len(v); i++ {
		c := v[i]
		if inString {
			out[n] = c
			n++
			switch c {
			case '\\':
				if i+1 < len(v) {
					i++
					out[n] = v[i]
					n++
				}
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			inString = true
		}
		out[n] = c
		n++
	}
	return out[:n]
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

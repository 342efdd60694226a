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
		return nil
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
			return nil
		default:
			return errMalformed
		}
	}
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

package jsontext

// Walking a document without a tree: for the readers that take only a few
// members of a large answer (catalog's listing) or keep offsets instead of
// values (render's table scanner). They accept exactly what Parse accepts.

// Elements reads the array at data[i] (white space before it skipped),
// calling elem with the offset where each element starts (its white space
// skipped); elem checks the element and returns the offset after it. It
// returns the offset after the closing ']'; false for anything Parse would
// refuse, or when elem refuses.
func Elements(data []byte, i int, elem func(start int) (end int, ok bool)) (int, bool) {
	if i = SkipSpace(data, i); i >= len(data) || data[i] != '[' {
		return 0, false
	}
	if i = SkipSpace(data, i+1); i < len(data) && data[i] == ']' {
		return i + 1, true
	}
	for {
		end, ok := elem(SkipSpace(data, i))
		if !ok {
			return 0, false
		}
		var done bool
		if i, done, ok = next(data, end, ']'); !ok || done {
			return i, ok
		}
	}
}

// Members reads the object at data[i] (white space before it skipped),
// calling member with each key's token (quotes included, checked) and the
// offset where its value starts; member checks the value and returns the
// offset after it. It returns the offset after the closing '}'; false for
// anything Parse would refuse, or when member refuses.
func Members(data []byte, i int, member func(key []byte, start int) (end int, ok bool)) (int, bool) {
	if i = SkipSpace(data, i); i >= len(data) || data[i] != '{' {
		return 0, false
	}
	if i = SkipSpace(data, i+1); i < len(data) && data[i] == '}' {
		return i + 1, true
	}
	for {
		ks := SkipSpace(data, i)
		ke, ok := StringEnd(data, ks)
		if !ok {
			return 0, false
		}
		if i = SkipSpace(data, ke); i >= len(data) || data[i] != ':' {
			return 0, false
		}
		end, ok := member(data[ks:ke], SkipSpace(data, i+1))
		if !ok {
			return 0, false
		}
		var done bool
		if i, done, ok = next(data, end, '}'); !ok || done {
			return i, ok
		}
	}
}

// next reads what follows a container's member at data[i]: ',' (the offset
// after it), or the closing byte (done, the offset after it).
func next(data []byte, i int, closing byte) (int, bool, bool) {
	if i = SkipSpace(data, i); i < len(data) {
		switch data[i] {
		case ',':
			return i + 1, false, true
		case closing:
			return i + 1, true, true
		}
	}
	return 0, false, false
}

// ValueEnd checks the one value at data[i] (white space before it skipped)
// as Parse reads it, containers nested at most maxDepth deep, and returns
// the offset after it.
func ValueEnd(data []byte, i, maxDepth int) (int, bool) {
	if i = SkipSpace(data, i); i >= len(data) {
		return 0, false
	}
	switch data[i] {
	case '{':
		if maxDepth <= 0 {
			return 0, false
		}
		return Members(data, i, func(_ []byte, s int) (int, bool) { return ValueEnd(data, s, maxDepth-1) })
	case '[':
		if maxDepth <= 0 {
			return 0, false
		}
		return Elements(data, i, func(s int) (int, bool) { return ValueEnd(data, s, maxDepth-1) })
	}
	_, end, _, _ := scalarEnd(data, i)
	return end, end >= 0
}

// scalarEnd reads the string, number, true, false or null at data[i]: its
// kind and the offset after it, or end -1 with the offset of the fault and
// what was being read there.
func scalarEnd(data []byte, i int) (k Kind, end, at int, what string) {
	switch c := data[i]; {
	case c == '"':
		end, at, what = stringEnd(data, i)
		return String, end, at, what
	case c == '-' || c >= '0' && c <= '9':
		if end = NumberEnd(data, i); end < 0 {
			return Number, -1, i, "in number"
		}
		return Number, end, 0, ""
	}
	for _, lit := range [...]struct {
		text string
		kind Kind
	}{{"true", Bool}, {"false", Bool}, {"null", Null}} {
		if end := i + len(lit.text); end <= len(data) && string(data[i:end]) == lit.text {
			return lit.kind, end, 0, ""
		}
	}
	return Null, -1, i, "looking for beginning of value"
}

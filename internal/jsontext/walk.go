package jsontext

import (
	"encoding/binary"
	"math"
	"math/bits"
)

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
	end, _, ok := check(data, i, maxDepth, 0, nil)
	return end, ok
}

// CountedEnd is ValueEnd, also counting the value's values as catalog's
// answer bound counts them (each ',', '[' and '{' outside strings); past
// maxValues (when not 0) it stops, false, with a count above maxValues.
func CountedEnd(data []byte, i, maxDepth int, maxValues int64) (end int, values int64, ok bool) {
	return check(data, i, maxDepth, maxValues, nil)
}

// check is ValueEnd, counting the values as catalog's answer bound counts
// them (each ',', '[' and '{' outside strings; past maxValues, when not 0,
// it stops) and, with rows set, indexing
// the members of the elements of the array at data[i] (Rows; rows.Members
// is set to nil as soon as an element is not an object). It reads the
// value in one loop, without recursion or a call per container, keeping
// one bit per open container (set for an object).
func check(data []byte, i, maxDepth int, maxValues int64, rows *Rows) (end int, values int64, ok bool) {
	if maxValues <= 0 {
		maxValues = math.MaxInt64
	}
	var small [4]uint64 // the first 256 levels; deeper ones in big
	var big []uint64
	depth := 0
	n := len(data)
	var key, start, plain uint32 // the member being read (rows)
	aligned := false             // the row being read has the first row's keys (rows)
	if rows != nil && rows.at > 0 {
		// Resumed (ArrayFeed): inside the array, at the element after
		// the last whole row fed.
		i, values, depth = rows.at, rows.atValues, 1
		rows.Members, rows.Ends, rows.rowStart = rows.Members[:rows.atMember], rows.Ends[:rows.atEnds], rows.atMember
	}
value:
	i = skip(data, i)
	if i >= n {
		return 0, values, false
	}
	if rows != nil && depth >= 1 && depth <= 2 {
		if depth == 2 {
			start, plain = uint32(i), 0
		} else if data[i] != '{' {
			rows = rows.drop()
		} else {
			aligned = true
		}
	}
	switch c := data[i]; c {
	case '{', '[':
		if depth >= maxDepth {
			return 0, values, false
		}
		if values++; values > maxValues {
			return 0, values, false
		}
		if depth >= 256 && (depth-256)>>6 >= len(big) {
			big = append(big, 0)
		}
		var bit uint64
		if c == '{' {
			bit = 1 << (depth & 63)
		}
		if depth < 256 {
			small[depth>>6] = small[depth>>6]&^(1<<(depth&63)) | bit
		} else {
			big[(depth-256)>>6] = big[(depth-256)>>6]&^(1<<(depth&63)) | bit
		}
		depth++
		if i = skip(data, i+1); i < n && data[i] == c+2 { // '}' or ']'
			i++
			depth--
			goto after
		}
		if c == '{' {
			goto key
		}
		goto value
	case '"':
		if rows != nil && depth == 2 {
			var ok bool
			if i, ok = quotedPlainEnd(data, i); i < 0 {
				return 0, values, false
			}
			if ok {
				plain = PlainString
			}
			break
		}
		if i = quotedEnd(data, i); i < 0 {
			return 0, values, false
		}
	case 't':
		if i+4 > n || string(data[i:i+4]) != "true" {
			return 0, values, false
		}
		i += 4
	case 'f':
		if i+5 > n || string(data[i:i+5]) != "false" {
			return 0, values, false
		}
		i += 5
	case 'n':
		if i+4 > n || string(data[i:i+4]) != "null" {
			return 0, values, false
		}
		i += 4
	default:
		if i = NumberEnd(data, i); i < 0 {
			return 0, values, false
		}
	}
after:
	if rows != nil {
		switch depth {
		case 2: // a row's member
			rows.Members = append(rows.Members, Member{Start: start, End: uint32(i) | plain})
		case 1: // a row
			rows.row(i, n, aligned)
		}
	}
	if depth == 0 {
		return i, values, true
	}
	if i = skip(data, i); i >= n {
		return 0, values, false
	}
	switch data[i] {
	case ',':
		i++
		if values++; values > maxValues {
			return 0, values, false
		}
		if rows != nil && depth == 1 && rows.feeding {
			rows.commit(i, values)
		}
		if isObject(&small, big, depth-1) {
			goto key
		}
		goto value
	case '}':
		if !isObject(&small, big, depth-1) {
			return 0, values, false
		}
	case ']':
		if isObject(&small, big, depth-1) {
			return 0, values, false
		}
	default:
		return 0, values, false
	}
	i++
	depth--
	goto after
key:
	if i = skip(data, i); i >= n || data[i] != '"' {
		return 0, values, false
	}
	if rows != nil && depth == 2 {
		// A row's keys are mostly the first row's, in its order: a key
		// that is byte for byte a checked token is that token.
		if j := len(rows.Members) - int(rows.rowStart); j < len(rows.keys) {
			k := rows.keys[j]
			if HasAt(data, i, data[k.Start:k.End]) {
				i += int(k.End - k.Start)
				goto colon
			}
		}
		key = uint32(i)
		if i = quotedEnd(data, i); i < 0 {
			return 0, values, false
		}
		if len(rows.Ends) == 0 && !rows.keysGiven && len(rows.keys) < maxKeys {
			rows.keys = append(rows.keys, span{key, uint32(i)})
		} else {
			aligned = false
		}
		goto colon
	}
	if i = quotedEnd(data, i); i < 0 {
		return 0, values, false
	}
colon:
	if i = skip(data, i); i >= n || data[i] != ':' {
		return 0, values, false
	}
	i++
	goto value
}

// isObject reports whether the container open at depth d is an object
// (check's bit stack: the first 256 levels in small, deeper ones in big).
func isObject(small *[4]uint64, big []uint64, d int) bool {
	if d < 256 {
		return small[d>>6]&(1<<(d&63)) != 0
	}
	return big[(d-256)>>6]&(1<<(d&63)) != 0
}

// HasAt reports whether data holds tok at offset i (i within data). A
// token of up to eight bytes (a table's key, mostly) that has eight bytes
// of capacity is compared in one word, without a call.
func HasAt(data []byte, i int, tok []byte) bool {
	if l := len(tok); l <= 8 && i+8 <= len(data) && cap(tok) >= 8 {
		return (binary.LittleEndian.Uint64(data[i:])^binary.LittleEndian.Uint64(tok[:8]))<<(64-8*l) == 0
	}
	return i+len(tok) <= len(data) && string(data[i:i+len(tok)]) == string(tok)
}

// skip is SkipSpace, the usual case (no white space) first.
func skip(data []byte, i int) int {
	if i < len(data) && data[i] > ' ' {
		return i
	}
	return SkipSpace(data, i)
}

// quotedEnd is StringEnd for data[i] == '"': the offset after the closing
// quote, or -1. A string's plain bytes are passed eight at a time in the
// loop itself (plainLen's word test), as most strings of a table are a few
// words long.
func quotedEnd(data []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i++; ; i++ {
		for ; i+8 <= len(data); i += 8 {
			w := binary.LittleEndian.Uint64(data[i:])
			q := w ^ (ones * '"')
			s := w ^ (ones * '\\')
			if m := ((w-ones*0x20)&^w | (q-ones)&^q | (s-ones)&^s) & highs; m != 0 {
				i += bits.TrailingZeros64(m) / 8
				goto special
			}
		}
		for ; i < len(data); i++ {
			if c := data[i]; c == '"' || c == '\\' || c < 0x20 {
				goto special
			}
		}
		return -1
	special:
		switch data[i] {
		case '"':
			return i + 1
		case '\\':
			if i+1 >= len(data) {
				return -1
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+6 > len(data) || !isHex(data[i+2]) || !isHex(data[i+3]) || !isHex(data[i+4]) || !isHex(data[i+5]) {
					return -1
				}
				i += 5
			default:
				return -1
			}
		default: // a control byte
			return -1
		}
	}
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

// quotedPlainEnd is quotedEnd, also reporting a plain string: printable
// ASCII (0x20 to 0x7e) without escapes, shown as it is received. The
// words of a plain string are passed with one test for every byte that
// is not plain; a string that has one before its closing quote is read
// again by quotedEnd and its bytes tested one by one.
func quotedPlainEnd(data []byte, i int) (int, bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	start := i
	for i++; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		q := w ^ (ones * '"')
		s := w ^ (ones * '\\')
		d := w ^ (ones * 0x7f)
		// below 0x20, a quote, a backslash, 0x7f, or 0x80 and above
		if m := ((w-ones*0x20)&^w | (q-ones)&^q | (s-ones)&^s | (d-ones)&^d | w) & highs; m != 0 {
			i += bits.TrailingZeros64(m) / 8
			if data[i] == '"' {
				return i + 1, true
			}
			break
		}
	}
	end := quotedEnd(data, start)
	if end < 0 {
		return end, false
	}
	for _, c := range data[start+1 : end-1] {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return end, false
		}
	}
	return end, true
}

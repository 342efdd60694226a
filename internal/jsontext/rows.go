package jsontext

import "math"

// Rows indexes the elements of an array of objects, found in the pass that
// checks the array (IndexArray): catalog's answer splice checks a call's
// array result once, and render's table reads the members from the index
// instead of scanning the bytes again (docs/rendering.md#table-layout).
// Offsets are into the bytes given to IndexArray; three integers a member,
// no pointers, so the garbage collector never looks inside.
type Rows struct {
	// Members are every element's members in order; Ends[k] is where the
	// members of element k end (Members[Ends[k-1]:Ends[k]]).
	Members []Member
	Ends    []uint32

	from     int    // the offset of the array
	dropped  bool   // an element is not an object
	keys     []span // the first row's key tokens (maxKeys at most)
	rowStart uint32 // where the members of the row being read begin
}

// span is a token's bytes, data[Start:End].
type span struct{ Start, End uint32 }

// maxKeys is how many keys of the first row the check compares the keys of
// the next rows with.
const maxKeys = 64

// Member is one member of an element: the offset of its key's token (the
// PlainString bit aside), and the span of its value.
type Member struct {
	Key        uint32
	Start, End uint32
}

// PlainString is the bit of Member.Key set when the value is a string of
// printable ASCII (0x20 to 0x7e) without escapes: its text is its bytes
// between the quotes.
const PlainString = 1 << 31

// KeyToken is the key token of m (quotes included) in data: it runs from
// m's key offset to the quote before the ':' that precedes the value.
func (m Member) KeyToken(data []byte) []byte {
	i := int(m.Start) - 1
	for data[i] != ':' {
		i--
	}
	for i--; data[i] != '"'; i-- {
	}
	return data[m.Key&^PlainString : i+1]
}

// IndexArray checks the value at data[i] (white space before it skipped)
// as CountedEnd does (past maxValues, when not 0, it stops: the index is
// bounded too) and returns the offset after it and the count of its
// values. When it is a non-empty array of objects and data is shorter than
// 2 GiB, rows indexes its elements; else rows is nil.
func IndexArray(data []byte, i, maxDepth int, maxValues int64) (end int, values int64, rows *Rows, ok bool) {
	j := SkipSpace(data, i)
	r := &Rows{from: j}
	if len(data) >= math.MaxInt32 || j >= len(data) || data[j] != '[' {
		r = nil
	}
	end, values, ok = check(data, i, maxDepth, maxValues, r)
	if !ok || r == nil || r.dropped || r.Ends == nil {
		return end, values, nil, ok
	}
	return end, values, r, true
}

// row ends an element at offset at of data (n bytes). The first one sizes
// the slices for the rest (rows as long as it), so a big array is not
// copied while it grows.
func (r *Rows) row(at, n int) {
	r.Ends = append(r.Ends, uint32(len(r.Members)))
	r.rowStart = uint32(len(r.Members))
	if len(r.Ends) != 1 {
		return
	}
	rows := (n-r.from)/max(at-r.from, 1) + 1
	if m := len(r.Members); m > 0 {
		members := make([]Member, m, rows*m+rows/8)
		copy(members, r.Members)
		r.Members = members
	}
	ends := make([]uint32, 1, rows+rows/8)
	ends[0] = r.Ends[0]
	r.Ends = ends
}

// drop gives up the index: an element is not an object.
func (r *Rows) drop() *Rows {
	r.Members, r.Ends, r.keys, r.dropped = nil, nil, nil, true
	return nil
}

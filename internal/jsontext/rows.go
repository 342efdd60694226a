package jsontext

import (
	"bytes"
	"math"
	"runtime"
)

// Rows indexes the elements of an array of objects, found in the pass that
// checks the array (IndexArray): catalog's answer splice checks a call's
// array result once, and render's table reads the members from the index
// instead of scanning the bytes again (docs/rendering.md#table-layout).
// Offsets are into the bytes given to IndexArray; two integers a member,
// no pointers, so the garbage collector never looks inside.
type Rows struct {
	// Members are every element's members in order; Ends[k] (its Aligned
	// bit aside: RowEnd) is where the members of element k end.
	Members []Member
	Ends    []uint32

	from     int    // the offset of the array
	dropped  bool   // an element is not an object
	keys     []span // the first row's key tokens (maxKeys at most)
	rowStart uint32 // where the members of the row being read begin

	// ArrayFeed's: the bytes' declared length (sizes the slices in place
	// of the bytes so far), and the last whole row fed: the offset of the
	// element after it, the count of values up to there and of rows.
	size     int
	feeding  bool
	at       int
	atValues int64
	atEnds   int
	atMember uint32
	// keysGiven: keys are another Rows' first row's (finish's second
	// half), not this one's first row's.
	keysGiven bool
}

// span is a token's bytes, data[Start:End].
type span struct{ Start, End uint32 }

// maxKeys is how many keys of the first row the check compares the keys of
// the next rows with.
const maxKeys = 64

// Member is one member of an element: the span of its value (End with
// the PlainString bit aside: ValueEnd). Its key is found from the value
// (KeyToken).
type Member struct {
	Start, End uint32
}

// PlainString is the bit of Member.End set when the value is a string of
// printable ASCII (0x20 to 0x7e) without escapes: its text is its bytes
// between the quotes.
const PlainString = 1 << 31

// Aligned is the bit of Rows.Ends[k] set when the keys of element k are,
// in order, the first element's (byte for byte, as many or fewer): its
// j-th member has the first element's j-th key. The first element is
// aligned unless it has more than 64 members.
const Aligned = 1 << 31

// ValueEnd is where m's value ends.
func (m Member) ValueEnd() uint32 { return m.End &^ PlainString }

// Plain reports a value that is a PlainString.
func (m Member) Plain() bool { return m.End&PlainString != 0 }

// Value is m's value in data.
func (m Member) Value(data []byte) []byte { return data[m.Start:m.ValueEnd()] }

// KeyToken is the key token of m (quotes included) in data: the string
// before the ':' that precedes the value. Its opening quote is the first
// quote, going back, that no backslash escapes: inside a string a quote
// comes after an odd run of backslashes, the opening one after none.
func (m Member) KeyToken(data []byte) []byte {
	i := int(m.Start) - 1
	for data[i] != ':' {
		i--
	}
	for i--; data[i] != '"'; i-- {
	}
	end := i + 1
	for i--; ; i-- {
		if data[i] != '"' {
			continue
		}
		b := i
		for b > 0 && data[b-1] == '\\' {
			b--
		}
		if (i-b)%2 == 0 {
			return data[i:end]
		}
	}
}

// RowEnd is where the members of element k end (Members[RowEnd(k-1):
// RowEnd(k)]).
func (r *Rows) RowEnd(k int) uint32 { return r.Ends[k] &^ Aligned }

// Row is where the members of element k begin and end, and whether it is
// Aligned.
func (r *Rows) Row(k int) (start, end uint32, aligned bool) {
	if k > 0 {
		start = r.RowEnd(k - 1)
	}
	return start, r.RowEnd(k), r.Ends[k]&Aligned != 0
}

// Len is the count of elements.
func (r *Rows) Len() int { return len(r.Ends) }

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
func (r *Rows) row(at, n int, aligned bool) {
	end := uint32(len(r.Members))
	if aligned {
		end |= Aligned
	}
	r.Ends = append(r.Ends, end)
	r.rowStart = uint32(len(r.Members))
	if len(r.Ends) != 1 {
		return
	}
	if r.size > n {
		n = r.size
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

// commit marks offset at, after the ',' that follows a whole row, as
// where a later pass resumes (ArrayFeed), with values counted so far.
func (r *Rows) commit(at int, values int64) {
	r.at, r.atValues, r.atEnds, r.atMember = at, values, len(r.Ends), uint32(len(r.Members))
}

// ArrayFeed checks and indexes an array of objects while its bytes
// arrive, a whole row at a time, so that the check of an answer overlaps
// its reading: each Feed resumes after the last whole row it checked, and
// Result finishes on the whole bytes. The outcome is IndexArray's over
// those bytes: a row is taken only when the ',' after it has arrived, so
// nothing after it changes its verdict, and a Feed that fails decides
// nothing (the bytes may be cut in the middle of a row).
type ArrayFeed struct {
	maxDepth  int
	maxValues int64
	size      int
	rows      *Rows
	tried     int // the length of the bytes of the last Feed that failed
	done      bool
	end       int
	values    int64
}

// NewArrayFeed is the feed of an array whose bytes (from its '[') are
// declared to be size long, checked as IndexArray(data, 0, maxDepth,
// maxValues).
func NewArrayFeed(maxDepth int, maxValues int64, size int) *ArrayFeed {
	return &ArrayFeed{maxDepth: maxDepth, maxValues: maxValues, size: size}
}

// Feed checks the whole rows of data, the bytes so far (data[0] is the
// '['; each call's data extends the last one's). It checks again only
// once the bytes after the last whole row have doubled, so that a huge
// element is not checked over and over as it arrives.
func (f *ArrayFeed) Feed(data []byte) {
	if f.done || len(data) >= math.MaxInt32 || f.size >= math.MaxInt32 || len(data) == 0 || data[0] != '[' {
		return
	}
	if f.rows == nil {
		f.rows = &Rows{size: f.size, feeding: true}
	}
	r := f.rows
	if r.dropped || len(data)-r.at < 2*(f.tried-r.at) {
		return
	}
	data = data[:len(data):len(data)] // nothing past the bytes fed is read
	end, values, ok := check(data, 0, f.maxDepth, f.maxValues, r)
	if ok {
		f.done, f.end, f.values = true, end, values
		return
	}
	f.tried = len(data)
	if r.at == 0 && !r.dropped {
		f.rows = nil // no whole row yet: the next Feed begins again
	}
}

// Checked is how many bytes of the array the feed has checked so far
// (up to the element after the last whole row).
func (f *ArrayFeed) Checked() int {
	if f.done {
		return f.end
	}
	if f.rows == nil {
		return 0
	}
	return f.rows.at
}

// Result is IndexArray(data, 0, maxDepth, maxValues) over the whole
// bytes, data (the bytes fed, then the rest), finishing what the feed
// began.
func (f *ArrayFeed) Result(data []byte) (end int, values int64, rows *Rows, ok bool) {
	r := f.rows
	switch {
	case f.done:
		end, values, ok = f.end, f.values, true
	case r == nil || r.dropped || r.at == 0 || len(data) >= math.MaxInt32:
		return IndexArray(data, 0, f.maxDepth, f.maxValues)
	default:
		end, values, ok = f.finish(data)
	}
	if !ok || r == nil || r.dropped || r.Ends == nil {
		return end, values, nil, ok
	}
	r.size, r.at = 0, 0
	return end, values, r, true
}

// splitMin is how much of an array must be left to check, when its bytes
// have all come, for finish to check it in two halves at once.
const splitMin = 1 << 20

// finish checks data from the last whole row fed to its end. A long rest
// is checked in two halves at once: the second on a goroutine of its own,
// from a guess at where a row begins near the middle (the first row's
// first key after "},{"); it is taken only when the first half's check
// ends its last whole row exactly there, within the bound of values.
// Then the second half was read in the state the one pass would have
// been in there, and its rows and values follow the first half's. Any
// other outcome (a wrong guess, an error in the second half) is decided
// by checking on from the first half, as the one pass would.
func (f *ArrayFeed) finish(data []byte) (int, int64, bool) {
	r := f.rows
	if guess := f.middleRow(data); guess > 0 {
		r2 := &Rows{from: guess, at: guess, keys: r.keys, keysGiven: true}
		var end2 int
		var values2 int64
		var ok2 bool
		done := make(chan struct{})
		go func() {
			defer close(done)
			end2, values2, ok2 = check(data, 0, f.maxDepth, f.maxValues, r2)
		}()
		r.feeding = true
		check(data[:guess:guess], 0, f.maxDepth, f.maxValues, r) // ends at the guess: not ok
		<-done
		bound := f.maxValues <= 0 || r.atValues+values2 <= f.maxValues
		if r.at == guess && ok2 && bound && !r.dropped {
			r.Members, r.Ends = r.Members[:r.atMember], r.Ends[:r.atEnds]
			base := uint32(len(r.Members))
			r.Members = append(r.Members, r2.Members...)
			for _, e := range r2.Ends {
				r.Ends = append(r.Ends, (e&^Aligned+base)|e&Aligned)
			}
			r.dropped = r2.dropped
			return end2, r.atValues + values2, true
		}
	}
	r.feeding = false
	return check(data, 0, f.maxDepth, f.maxValues, r)
}

// middleRow is where finish's second half begins: the offset after the
// ',' of the first "},{" followed by the first row's first key, past the
// middle of what is left to check; 0 for none (or a rest too short to
// halve, or one processor).
func (f *ArrayFeed) middleRow(data []byte) int {
	r := f.rows
	rest := len(data) - r.at
	if rest < splitMin || len(r.keys) == 0 || runtime.GOMAXPROCS(0) < 2 {
		return 0
	}
	k := r.keys[0]
	sep := append([]byte("},{"), data[k.Start:k.End]...)
	mid := r.at + rest/2
	i := bytes.Index(data[mid:], sep)
	if i < 0 {
		return 0
	}
	return mid + i + 2
}

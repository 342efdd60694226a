package jsontext

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// A streamed string result (docs/rendering.md#streaming-large-text-results)
// is read once: StringStream finds the string's closing quote, checks its
// content as encoding/json's scanner does and decodes it as Unquote does,
// in one pass over each byte, and hands the text on line by line. The
// runs it hands on are, as often as not, slices of the input itself: a
// line without escapes is not copied.

// RunWriter takes a string's decoded text run by run.
type RunWriter interface {
	// WriteRun takes the next run of text; nl: a line break ('\n', which
	// text never holds) follows it. text is valid until EndRuns.
	WriteRun(text []byte, nl bool) error
	// EndRuns ends the runs of one input chunk: the writer copies what it
	// keeps of them, and may write out what it gathered.
	EndRuns() error
}

// PlainRunWriter is a RunWriter told which runs are plain: printable
// ASCII (DEL included) with no '"' and no '\\', bytes of the input as
// they came. An encoder copies such a run without looking at each byte
// again (but for DEL).
type PlainRunWriter interface {
	RunWriter
	// WritePlainRun is WriteRun of a plain run.
	WritePlainRun(text []byte, nl bool) error
}

// Declared is a writer of a streamed string told, before its first bytes,
// how long the answer it comes in is declared to be from the string's
// content on (its declared length less what came before): the content
// as received is at most n bytes. A writer that would hold the first part
// of a text may decide from it that the text is long.
type Declared interface {
	Declared(n int64)
}

// ErrBadString is the error of a string that is not valid JSON.
var ErrBadString = errors.New("invalid JSON: a bad escape or a control character in the result string")

// StringStream reads one string token's content (what follows its opening
// quote) in chunks cut anywhere. The zero value is ready.
type StringStream struct {
	carry []byte // an escape or UTF-8 sequence cut by the chunk's end
	buf   []byte // carry joined with the next chunk
	// text holds the decoded runs of this chunk that are not slices of
	// the input (a line with escapes other than its line break); the
	// run being read is text[line:], then the input from start on.
	text  []byte
	line  int
	start int
	quote int // the next '"' in the chunk at or after the scan (len: none), once searched
	// plainTo: the chunk's bytes before it (from where quote was
	// searched) hold no control byte and no byte of a multi-byte
	// character, checked once for the chunk.
	plainTo int
	// escaped: an escape was seen, so that invalid UTF-8 is U+FFFD from
	// now on (Unquote's rule). Before it, invalid UTF-8 and everything
	// after it wait in undecided: kept as they are if no escape follows
	// in the whole string, else each invalid byte made U+FFFD.
	escaped   bool
	undecided []byte
	// mixed: the run from start holds a multi-byte character (it is not
	// plain); pw is Feed's writer as a PlainRunWriter, when it is one.
	mixed bool
	pw    PlainRunWriter
}

// Feed reads p, the next bytes of the content, and hands their text to w
// (ending with EndRuns). n is how many bytes of p are content: when done,
// p[n] is the closing quote; otherwise all of p was read. err is
// ErrBadString, or w's error (writeErr set).
func (d *StringStream) Feed(p []byte, w RunWriter) (n int, done, writeErr bool, err error) {
	data := p
	skip := len(d.carry)
	if skip > 0 {
		// Rare: a chunk ended inside an escape or a character. The
		// next chunk is joined to it (one copy of one chunk).
		d.buf = append(append(d.buf[:0], d.carry...), p...)
		data = d.buf
		d.carry = d.carry[:0]
	}
	d.text, d.line, d.start, d.quote, d.mixed = d.text[:0], 0, 0, -1, false
	d.pw, _ = w.(PlainRunWriter)
	end, done, bad, werr := d.scan(data, w)
	d.pw = nil
	if werr != nil {
		return 0, false, true, werr
	}
	if bad {
		return 0, false, false, ErrBadString
	}
	if err := w.EndRuns(); err != nil {
		return 0, false, true, err
	}
	if done {
		return end - skip, true, false, nil
	}
	return len(p), false, false, nil
}

// End ends a string whose closing quote Feed found: what waits (text
// without escapes kept as received) is handed to w, then EndRuns.
func (d *StringStream) End(w RunWriter) error {
	rest := append(d.undecided, d.carry...)
	d.undecided, d.carry = nil, nil
	for len(rest) > 0 {
		i := 0
		for i < len(rest) && rest[i] != '\n' {
			i++
		}
		if err := w.WriteRun(rest[:i], i < len(rest)); err != nil {
			return err
		}
		rest = rest[min(i+1, len(rest)):]
	}
	return w.EndRuns()
}

// flush hands on the run read so far, up to data[i], ending a line when
// nl.
func (d *StringStream) flush(data []byte, i int, nl bool, w RunWriter) error {
	run := data[d.start:i]
	plain := !d.mixed
	if len(d.text) > d.line {
		d.text = append(d.text, run...)
		run = d.text[d.line:]
		d.line = len(d.text) // the run stays as it is until EndRuns
		plain = false
	}
	if len(run) == 0 && !nl {
		return nil
	}
	if plain && d.pw != nil {
		return d.pw.WritePlainRun(run, nl)
	}
	return w.WriteRun(run, nl)
}

// keep moves the run read so far, up to data[i], into text: an escape's
// text follows.
func (d *StringStream) keep(data []byte, i int) {
	d.text = append(d.text, data[d.start:i]...)
}

// scan reads data up to the closing quote (done, at end) or data's end,
// keeping a cut escape or character in carry.
func (d *StringStream) scan(data []byte, w RunWriter) (end int, done, bad bool, werr error) {
	i := 0
	for {
		if len(d.undecided) > 0 {
			// Held as received until an escape decides.
			k := i + plainLen(data[i:])
			d.undecided = append(d.undecided, data[i:k]...)
			switch {
			case k == len(data):
				return k, false, false, nil
			case data[k] == '"':
				return k, true, false, nil
			case data[k] != '\\':
				return 0, false, true, nil // a control byte
			}
			// An escape: the held bytes are decoded as Unquote does.
			d.text = AppendUTF8(d.text, d.undecided)
			d.undecided = d.undecided[:0]
			d.escaped = true
			i, d.start, d.mixed = k, k, false
		}
		// The next backslash and quote are found by IndexByte; the run
		// before them is checked for control bytes and bytes of
		// multi-byte characters, and walked only when it has one.
		if d.quote < i {
			d.quote = len(data)
			if q := bytes.IndexByte(data[i:], '"'); q >= 0 {
				d.quote = i + q
			}
			d.plainTo = i + plainPrefix(data[i:d.quote])
		}
		stop := d.quote
		if b := bytes.IndexByte(data[i:stop], '\\'); b >= 0 {
			stop = i + b
		}
		if stop <= d.plainTo || plainASCII(data[i:stop]) {
			i = stop
		} else {
			i += plainRun(data[i:stop])
		}
		if i >= len(data) {
			return len(data), false, false, d.flush(data, i, false, w)
		}
		c := data[i]
		switch {
		case c == '"':
			return i, true, false, d.flush(data, i, false, w)
		case c < 0x20:
			return 0, false, true, nil
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(data[i:])
			switch {
			case r != utf8.RuneError || size != 1:
				i += size
				d.mixed = true
			case !utf8.FullRune(data[i:]):
				return d.cut(data, i, w)
			case d.escaped:
				d.keep(data, i)
				d.text = utf8.AppendRune(d.text, utf8.RuneError)
				i++
				d.start, d.mixed = i, false
			default:
				// Invalid UTF-8 before any escape: undecided from here.
				if err := d.flush(data, i, false, w); err != nil {
					return 0, false, false, err
				}
				d.undecided = append(d.undecided, c)
				i++
				d.start, d.mixed = i, false
			}
			continue
		}
		// An escape.
		if i+1 >= len(data) {
			return d.cut(data, i, w)
		}
		d.escaped = true
		size := 2
		switch e := data[i+1]; e {
		case 'n':
			if err := d.flush(data, i, true, w); err != nil {
				return 0, false, false, err
			}
		case '"', '\\', '/':
			d.keep(data, i)
			d.text = append(d.text, e)
		case 'b':
			d.keep(data, i)
			d.text = append(d.text, '\b')
		case 'f':
			d.keep(data, i)
			d.text = append(d.text, '\f')
		case 'r':
			d.keep(data, i)
			d.text = append(d.text, '\r')
		case 't':
			d.keep(data, i)
			d.text = append(d.text, '\t')
		case 'u':
			var r rune
			var ok, cut bool
			if r, size, ok, cut = unicodeEscape(data[i:]); !ok {
				if cut {
					return d.cut(data, i, w)
				}
				return 0, false, true, nil
			}
			if r == '\n' {
				if err := d.flush(data, i, true, w); err != nil {
					return 0, false, false, err
				}
			} else {
				d.keep(data, i)
				d.text = utf8.AppendRune(d.text, r)
			}
		default:
			return 0, false, true, nil
		}
		i += size
		d.start, d.mixed = i, false
	}
}

// cut keeps data[i:] (an escape or a character the chunk's end cut) for
// the next chunk, and hands on the run before it.
func (d *StringStream) cut(data []byte, i int, w RunWriter) (int, bool, bool, error) {
	if err := d.flush(data, i, false, w); err != nil {
		return 0, false, false, err
	}
	d.carry = append(d.carry[:0], data[i:]...)
	return len(data), false, false, nil
}

// unicodeEscape reads the \u escape p starts with (and the low half of a
// surrogate pair after it) as Unquote decodes it. cut: p ends before the
// escape does (the bytes so far are not wrong); neither: it is not valid.
func unicodeEscape(p []byte) (r rune, size int, ok, cut bool) {
	if len(p) < 6 {
		for _, c := range p[2:] {
			if !isHex(c) {
				return 0, 0, false, false
			}
		}
		return 0, 0, false, true
	}
	r, ok = hex4(p[2:])
	if !ok {
		return 0, 0, false, false
	}
	if !utf16.IsSurrogate(r) {
		return r, 6, true, false
	}
	rest := p[6:]
	if len(rest) < 6 {
		// The pair's low half may follow in the next chunk.
		if len(rest) == 0 || rest[0] == '\\' && (len(rest) < 2 || rest[1] == 'u' && allHex(rest[2:])) {
			return 0, 0, false, true
		}
		return unicode.ReplacementChar, 6, true, false
	}
	if rest[0] == '\\' && rest[1] == 'u' {
		if r2, ok2 := hex4(rest[2:]); ok2 {
			if dr := utf16.DecodeRune(r, r2); dr != unicode.ReplacementChar {
				return dr, 12, true, false
			}
		}
	}
	return unicode.ReplacementChar, 6, true, false
}

func allHex(p []byte) bool {
	for _, c := range p {
		if !isHex(c) {
			return false
		}
	}
	return true
}

// plainRun is the length of the leading run of p with no '"', no '\\', no
// control byte and no byte of a multi-byte character, sixteen bytes at a
// time (plainLen's word tests, and the high bit).
func plainRun(p []byte) int {
	i := 0
	for ; i+16 <= len(p); i += 16 {
		m, n := specials(binary.LittleEndian.Uint64(p[i:])), specials(binary.LittleEndian.Uint64(p[i+8:]))
		if m|n != 0 {
			if m != 0 {
				return i + bits.TrailingZeros64(m)/8
			}
			return i + 8 + bits.TrailingZeros64(n)/8
		}
	}
	if i+8 <= len(p) {
		if m := specials(binary.LittleEndian.Uint64(p[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	for ; i < len(p); i++ {
		if c := p[i]; c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
	}
	return i
}

// plainASCII reports that p holds only printable ASCII (no control byte,
// no byte of a multi-byte character), sixteen bytes at a time without a
// branch per word.
func plainASCII(p []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var m uint64
	i := 0
	for ; i+16 <= len(p); i += 16 {
		w, v := binary.LittleEndian.Uint64(p[i:]), binary.LittleEndian.Uint64(p[i+8:])
		m |= w | (w - ones*0x20) | v | (v - ones*0x20)
	}
	for ; i+8 <= len(p); i += 8 {
		w := binary.LittleEndian.Uint64(p[i:])
		m |= w | (w - ones*0x20)
	}
	if m&highs != 0 {
		return false
	}
	for ; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// plainPrefix is a length of p's start that holds only printable ASCII
// (plainASCII's test, 64 bytes at a time): all of p when it is all such,
// else at most the start of the 64 bytes holding the first other byte.
func plainPrefix(p []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+64 <= len(p); i += 64 {
		q := p[i : i+64 : i+64]
		a, b := binary.LittleEndian.Uint64(q[0:]), binary.LittleEndian.Uint64(q[8:])
		c, d := binary.LittleEndian.Uint64(q[16:]), binary.LittleEndian.Uint64(q[24:])
		e, f := binary.LittleEndian.Uint64(q[32:]), binary.LittleEndian.Uint64(q[40:])
		g, h := binary.LittleEndian.Uint64(q[48:]), binary.LittleEndian.Uint64(q[56:])
		m := a | b | c | d | e | f | g | h |
			(a - ones*0x20) | (b - ones*0x20) | (c - ones*0x20) | (d - ones*0x20) |
			(e - ones*0x20) | (f - ones*0x20) | (g - ones*0x20) | (h - ones*0x20)
		if m&highs != 0 {
			return i
		}
	}
	if plainASCII(p[i:]) {
		return len(p)
	}
	return i
}

// specials flags the high bit of each byte of w that plainRun stops at,
// and maybe of bytes above one: a borrow only runs upward, so the lowest
// flag is exact.
func specials(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := w ^ (ones * '"')
	s := w ^ (ones * '\\')
	return (w | (w - ones*0x20) | (q-ones)&^q | (s-ones)&^s) & highs
}

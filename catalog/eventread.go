package catalog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// Reading a record's body (docs/console.md#bounds): NDJSON (one event a
// line), the {"ok": true, "events": […]} envelope, or a bare array, each
// read as it arrives so that ten million events cost what one does.
//
//   - An event is at most MaxEventBytes; a bigger one is skipped with a note
//     naming its index and type when its first bytes show them.
//   - A line that runs past MaxSkipBytes without a line break ends the read
//     with an error: it would never end otherwise.
//   - A line or element that is not a JSON event object is skipped with a
//     note; in the envelope, where no line break tells where the next event
//     begins, a malformed element ends the read with an error.
//   - Indexes must grow: an event whose index is not above the last one
//     handed out (repeated, or going backwards) is skipped with a note.
//     Gaps are fine: a deployment drops the oldest events of a long record.
//   - Notes of one kind are shown up to maxNotesOfKind times, then counted.

// MaxEventBytes bounds one event of a record: 8 MiB, the development
// deployment's own bound on an event line (a cut input or result of 1 MiB
// each, escaped).
const MaxEventBytes = 8 << 20

const (
	// MaxSkipBytes bounds a line skipped for its size: past it the read
	// stops (a line that never ends). A 1 GB event is skipped with a note.
	MaxSkipBytes = 2 << 30
	// sniffBytes are the first bytes of an oversized event kept to name it.
	sniffBytes = 4 << 10
	// maxNotesOfKind is how many notes of one kind are shown.
	maxNotesOfKind = 5
	// maxEnvelopeMember bounds a member of the envelope other than events.
	maxEnvelopeMember = 1 << 20
	// readChunk is the buffer of the body reader.
	readChunk = 64 << 10
)

// errEndlessLine: a line ran past the skip bound.
var errEndlessLine = errors.New("endless line")

// eventReader reads the events of one body and hands them out in order.
type eventReader struct {
	br      *bufio.Reader
	max     int
	maxSkip int64  // MaxSkipBytes
	buf     []byte // the line or element being collected
	ev      Event  // reused: handed to each, valid during the call
	last    int64  // the index last handed out; -1 before the first
	// floor: events below it are not handed out, silently (a stream asked
	// to start there).
	floor     int64
	belowCut  int64 // events under floor, skipped
	each      func(*Event) error
	note      func(string)
	kinds     map[string]int
	count     int64 // events handed out
	envelope  envelopeFields
	enveloped bool // the body was the envelope
	refusal   bool // the envelope says ok: false
	hasEvents bool // the envelope has an events array
}

func newEventReader(r io.Reader, each func(*Event) error, note func(string)) *eventReader {
	if note == nil {
		note = func(string) {}
	}
	return &eventReader{br: bufio.NewReaderSize(r, readChunk), max: MaxEventBytes, maxSkip: MaxSkipBytes, last: -1, each: each,
		note: note, kinds: map[string]int{}}
}

// notef writes a note of a kind, up to maxNotesOfKind of each.
func (r *eventReader) notef(kind, format string, args ...any) {
	r.kinds[kind]++
	if r.kinds[kind] <= maxNotesOfKind {
		r.note(fmt.Sprintf(format, args...))
	}
}

// finish writes the counts of the notes not shown.
func (r *eventReader) finish() {
	for _, kind := range []string{noteBig, noteBad, noteOrder, noteNoIndex} {
		if n := r.kinds[kind] - maxNotesOfKind; n > 0 {
			r.note(fmt.Sprintf("%d more events skipped for the same reason (%s)", n, kind))
		}
	}
	if r.belowCut > 0 {
		r.note(fmt.Sprintf("the deployment sent %d events before the index asked for; skipped (shown already)", r.belowCut))
	}
}

// Kinds of notes.
const (
	noteBig     = "more than agsh's bound for one event"
	noteBad     = "not a JSON event object"
	noteOrder   = "index repeated or going backwards"
	noteNoIndex = "no index"
)

// deliver checks one event's text and hands it out; where names it in
// notes ("line 3", "element 2").
func (r *eventReader) deliver(raw []byte, where place) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	ev := &r.ev
	prevType := ev.Type
	*ev = Event{Type: prevType}
	if !parseEventInto(ev, raw) {
		r.notef(noteBad, "%s is not a JSON event object; skipped: %s", where, clipText(snippet(raw, ""), 80))
		return nil
	}
	switch {
	case !ev.HasIndex:
		r.notef(noteNoIndex, "%s (type %s) has no index; skipped", where, quoteType(ev.Type))
		return nil
	case ev.Index < r.floor:
		r.belowCut++
		return nil
	case ev.Index <= r.last:
		r.notef(noteOrder, "event %d (type %s) came after event %d: its index repeats or goes backwards; skipped",
			ev.Index, quoteType(ev.Type), r.last)
		return nil
	}
	r.last = ev.Index
	r.count++
	ev.More = r.more(where)
	return r.each(ev)
}

// more reports whether the next event has arrived already: in NDJSON, a
// whole line; in an envelope's array, the bytes after the event's
// separator (looking for a line's end there would read the rest of the
// buffer again at every event: the array is mostly one line).
func (r *eventReader) more(where place) bool {
	n := r.br.Buffered()
	if !where.line {
		return n > 1
	}
	if n == 0 {
		return false
	}
	p, _ := r.br.Peek(n)
	return bytes.IndexByte(p, '\n') >= 0
}

// oversized notes an event skipped for its size, named from its first
// bytes when they show its index and type.
func (r *eventReader) oversized(prefix []byte, size int64, where place) {
	idx, typ := sniffEvent(prefix)
	name := where.String()
	if idx >= 0 {
		name = "event " + strconv.FormatInt(idx, 10)
	}
	if typ != "" {
		name += " (type " + quoteType(typ) + ")"
	}
	r.notef(noteBig, "%s is %d bytes, more than agsh's bound of %s for one event; skipped", name, size, byteSize(int64(r.max)))
}

// place is where an event stood in the body, for notes: a line or an
// array element.
type place struct {
	line bool
	n    int64
}

func (p place) String() string {
	if p.line {
		return "line " + strconv.FormatInt(p.n, 10)
	}
	return "element " + strconv.FormatInt(p.n, 10)
}

// quoteType is an event type for a note ("?" when none).
func quoteType(t string) string {
	if t == "" {
		return "?"
	}
	return clipText(strconv.Quote(t), 60)
}

// sniffEvent reads the index and type of an event from its first bytes
// (-1 and "" when they do not show them): the top-level members up to
// where the bytes end.
func sniffEvent(prefix []byte) (int64, string) {
	idx, typ := int64(-1), ""
	members(prefix, func(key string, v []byte) {
		switch key {
		case "index":
			if n, err := strconv.ParseInt(string(v), 10, 64); err == nil && n >= 0 {
				idx = n
			}
		case "type":
			typ = stringValue(v)
		}
	})
	return idx, typ
}

// members walks the top-level members of a possibly cut object as far as
// they are whole.
func members(data []byte, member func(key string, v []byte)) {
	i := bytes.IndexByte(data, '{')
	if i < 0 {
		return
	}
	i++
	for {
		i = skipWS(data, i)
		if i >= len(data) || data[i] != '"' {
			return
		}
		ke, ok := jsontext.StringEnd(data, i)
		if !ok {
			return
		}
		key := stringValue(data[i:ke])
		i = skipWS(data, ke)
		if i >= len(data) || data[i] != ':' {
			return
		}
		vs := skipWS(data, i+1)
		ve, ok := jsontext.SpanEnd(data, vs)
		if !ok || ve >= len(data) {
			return // cut inside the value
		}
		member(key, data[vs:ve])
		i = skipWS(data, ve)
		if i >= len(data) || data[i] != ',' {
			return
		}
		i++
	}
}

// readLines reads NDJSON: one event a line.
func (r *eventReader) readLines() error {
	for line := int64(1); ; line++ {
		text, size, over, err := r.readLine()
		switch {
		case over && err == errEndlessLine:
			// No note: the read stops with its error.
		case over:
			r.oversized(text, size, place{true, line})
		case len(text) > 0:
			if derr := r.deliver(text, place{true, line}); derr != nil {
				return derr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its line break. A line longer than max
// is skipped: over is set, text holds its first sniffBytes and size its
// length. err is io.EOF at the end of the body (text may hold a last line
// without a line break).
func (r *eventReader) readLine() (text []byte, size int64, over bool, err error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		size += int64(len(chunk))
		switch {
		case over:
		case len(r.buf) == 0 && err == nil && len(chunk) <= r.max+1:
			// The usual line, whole in the buffer: no copy.
			return bytes.TrimSuffix(chunk, []byte("\n")), size, false, nil
		case len(r.buf)+len(chunk) > r.max+1:
			over = true
			keep := min(sniffBytes, len(r.buf)+len(chunk))
			if len(r.buf) < keep {
				r.buf = append(r.buf, chunk[:keep-len(r.buf)]...)
			}
			r.buf = r.buf[:keep]
		default:
			r.buf = append(r.buf, chunk...)
		}
		if over && size > r.maxSkip {
			return r.buf, size, true, errEndlessLine
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == nil {
			if !over {
				return bytes.TrimSuffix(r.buf, []byte("\n")), size, false, nil
			}
			return r.buf, size - 1, true, nil
		}
		if over {
			return r.buf, size, true, err
		}
		return r.buf, size, false, err
	}
}

// readBody reads a record's body, telling its form from the first bytes:
// a bare array, an object whose first member is one of an event's (NDJSON),
// or the envelope.
func (r *eventReader) readBody() error {
	form, err := r.sniffForm()
	if err != nil {
		return err
	}
	switch form {
	case '[':
		return r.readArray()
	case '{':
		r.enveloped = true
		return r.readEnvelope()
	}
	return r.readLines()
}

// sniffForm peeks at the body's first bytes: '[' (an array), '{' (the
// envelope), 'n' (NDJSON, also for an empty body). Nothing is consumed but
// a byte-order mark and white space.
func (r *eventReader) sniffForm() (byte, error) {
	if b, err := r.br.Peek(3); err == nil && string(b) == "\xef\xbb\xbf" {
		_, _ = r.br.Discard(3)
	}
	want := 1
	for {
		p, err := r.br.Peek(want)
		if i := skipWS(p, 0); i > 0 {
			_, _ = r.br.Discard(i)
			p, want = p[i:], 1
		}
		if len(p) > 0 {
			switch p[0] {
			case '[':
				return '[', nil
			case '{':
				key, done := firstKey(p)
				if !done && err == nil && len(p) < readChunk {
					want = len(p) + 1 // one more byte, then look again
					continue
				}
				switch key {
				case "index", "type", "data", "at":
					return 'n', nil
				}
				return '{', nil
			}
			return 'n', nil
		}
		if err == io.EOF {
			return 'n', nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// firstKey is the first member's key of the object starting p, done false
// when p ends before it is whole.
func firstKey(p []byte) (string, bool) {
	i := skipWS(p, 1)
	if i >= len(p) {
		return "", false
	}
	if p[i] != '"' {
		return "", true
	}
	e, ok := jsontext.StringEnd(p, i)
	if !ok {
		// Cut before its closing quote: more bytes are needed.
		return "", bytes.IndexByte(p[i+1:], '"') >= 0
	}
	return stringValue(p[i:e]), true
}

// readArray reads a bare array of events.
func (r *eventReader) readArray() error {
	if err := r.expect('['); err != nil {
		return err
	}
	return r.elements()
}

// readEnvelope reads {"ok": true, "events": […], …}: the events as they
// come, the other members bounded, the refusal fields kept.
func (r *eventReader) readEnvelope() error {
	if err := r.expect('{'); err != nil {
		return err
	}
	c, err := r.peekNonSpace()
	if err != nil {
		return err
	}
	if c == '}' {
		_, _ = r.br.Discard(1)
		return nil
	}
	for {
		key, err := r.key()
		if err != nil {
			return err
		}
		if key == "events" {
			c, err := r.peekNonSpace()
			if err != nil {
				return err
			}
			if c == '[' {
				r.hasEvents = true
				_, _ = r.br.Discard(1)
				if err := r.elements(); err != nil {
					return err
				}
			} else if _, _, _, err := r.value(maxEnvelopeMember); err != nil {
				return err
			}
		} else {
			v, _, over, err := r.value(maxEnvelopeMember)
			if err != nil {
				return err
			}
			if !over {
				r.member(key, v)
			}
		}
		c, err := r.peekNonSpace()
		if err != nil {
			return err
		}
		_, _ = r.br.Discard(1)
		switch c {
		case ',':
		case '}':
			return nil
		default:
			return errMalformed
		}
	}
}

// member keeps what the envelope's other members say of a refusal.
func (r *eventReader) member(key string, v []byte) {
	switch key {
	case "ok":
		r.refusal = string(bytes.TrimSpace(v)) == "false"
	case "error":
		env, _ := parseEnvelope(append(append([]byte(`{"ok":false,"error":`), v...), '}'))
		r.envelope.Error, r.envelope.Message = env.Error, env.Message
	case "message":
		if s := stringValue(bytes.TrimSpace(v)); s != "" {
			r.envelope.Message = s
		}
	}
}

// errMalformed: the envelope or array is not JSON where an event ends.
var errMalformed = errors.New("malformed")

// elements reads the elements of an array whose '[' was read.
func (r *eventReader) elements() error {
	c, err := r.peekNonSpace()
	if err != nil {
		return err
	}
	if c == ']' {
		_, _ = r.br.Discard(1)
		return nil
	}
	for n := int64(0); ; n++ {
		v, size, over, err := r.value(r.max)
		where := place{false, n}
		if over && err != errEndlessLine {
			r.oversized(v, int64(size), where)
		}
		if err != nil {
			return err
		}
		if !over {
			if derr := r.deliver(v, where); derr != nil {
				return derr
			}
		}
		c, err := r.peekNonSpace()
		if err != nil {
			return err
		}
		_, _ = r.br.Discard(1)
		switch c {
		case ',':
		case ']':
			return nil
		default:
			return errMalformed
		}
	}
}

// key reads a member's key and its colon.
func (r *eventReader) key() (string, error) {
	c, err := r.peekNonSpace()
	if err != nil {
		return "", err
	}
	if c != '"' {
		return "", errMalformed
	}
	v, _, over, err := r.value(4096)
	if err != nil {
		return "", err
	}
	if over {
		return "", errMalformed
	}
	if c, err = r.peekNonSpace(); err != nil {
		return "", err
	}
	if c != ':' {
		return "", errMalformed
	}
	_, _ = r.br.Discard(1)
	return stringValue(v), nil
}

// expect consumes white space and the byte c.
func (r *eventReader) expect(c byte) error {
	got, err := r.peekNonSpace()
	if err != nil {
		return err
	}
	if got != c {
		return errMalformed
	}
	_, _ = r.br.Discard(1)
	return nil
}

// peekNonSpace skips white space and returns the next byte unread; the end
// of the body there is io.ErrUnexpectedEOF.
func (r *eventReader) peekNonSpace() (byte, error) {
	for {
		p, err := r.br.Peek(1)
		if err != nil {
			if err == io.EOF {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
		}
		switch p[0] {
		case ' ', '\t', '\n', '\r':
			_, _ = r.br.Discard(1)
			continue
		}
		return p[0], nil
	}
}

// value reads one JSON value (white space before it skipped) by its
// structure, bracket by bracket; the JSON itself is checked by whoever
// decodes it. It collects at most max bytes (r.buf); past them over is set
// and the first sniffBytes are kept. Its end past the skip bound is an
// error.
func (r *eventReader) value(max int) (v []byte, size int, over bool, err error) {
	if _, err := r.peekNonSpace(); err != nil {
		return nil, 0, false, err
	}
	r.buf = r.buf[:0]
	var st valueScan
	total := 0
	for {
		_, perr := r.br.Peek(1)
		if perr != nil {
			if perr == io.EOF {
				if st.scalar && !st.inString {
					return r.buf, total, over, nil // a scalar at the very end
				}
				return nil, total, over, io.ErrUnexpectedEOF
			}
			return nil, total, over, perr
		}
		p, _ := r.br.Peek(r.br.Buffered())
		n, done, bad := st.feed(p)
		if bad {
			return nil, total, over, errMalformed
		}
		total += n
		if !over && len(r.buf)+n > max {
			over = true
			keep := min(sniffBytes, len(r.buf)+n)
			if len(r.buf) < keep {
				r.buf = append(r.buf, p[:keep-len(r.buf)]...)
			}
			r.buf = r.buf[:keep]
		} else if !over {
			r.buf = append(r.buf, p[:n]...)
		}
		_, _ = r.br.Discard(n)
		if done {
			return r.buf, total, over, nil
		}
		if int64(total) > r.maxSkip {
			return r.buf, total, true, errEndlessLine
		}
	}
}

// valueScan follows one JSON value's structure across chunks.
type valueScan struct {
	started, scalar, inString, escaped bool
	depth                              int
}

// feed scans p: the bytes of the value in it (n), whether the value ended
// there, and bad when p cannot continue a JSON value.
func (s *valueScan) feed(p []byte) (n int, done, bad bool) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !s.started {
			s.started = true
			switch c {
			case '{', '[':
				s.depth = 1
				continue
			case '"':
				s.inString, s.scalar = true, true
				continue
			case ',', ']', '}', ':':
				return 0, false, true
			}
			s.scalar = true
			continue
		}
		if s.inString {
			// Jump to the next quote or backslash.
			j := i
			for j < len(p) && (s.escaped || p[j] != '"' && p[j] != '\\') {
				if s.escaped {
					s.escaped = false
				}
				j++
			}
			if j == len(p) {
				return len(p), false, false
			}
			i = j
			if p[j] == '\\' {
				s.escaped = true
				continue
			}
			s.inString = false
			if s.depth == 0 {
				return i + 1, true, false
			}
			continue
		}
		if s.depth == 0 { // a number or a literal: up to a delimiter
			switch c {
			case ',', ']', '}', ' ', '\t', '\n', '\r', ':':
				return i, true, false
			}
			continue
		}
		switch c {
		case '"':
			s.inString = true
		case '{', '[':
			s.depth++
		case '}', ']':
			if s.depth--; s.depth == 0 {
				return i + 1, true, false
			}
		}
	}
	return len(p), false, false
}

// skipWS skips JSON white space from i.
func skipWS(p []byte, i int) int {
	for i < len(p) && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
		i++
	}
	return i
}

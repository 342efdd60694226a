package render

import (
	"bytes"
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// Streaming a text result: the bytes between the quotes of a call's "result"
// string arrive in chunks (split anywhere) and leave as the text view or the
// --output json view would write the whole value, byte for byte, without
// holding it. ResultStream decodes the string as FromResult does (unquote)
// and decides as FromResult does (step 2 of
// docs/rendering.md#the-value-to-render): text whose first non-space
// character is '{' or '[' may be JSON, so it is held whole and handed back
// (Held) for the usual path; any other text goes straight to its sink.

// TextSink receives decoded text; Close ends it.
type TextSink interface {
	io.Writer
	Close() error
}

// ResultStream is the writer of a streamed string result: Write takes the
// string token's content as received (escapes included, no quotes), Close
// ends it. It never fails on bad escapes: the caller checked the token.
type ResultStream struct {
	sink TextSink

	pending []byte // an escape or UTF-8 sequence cut by the chunk's end
	escaped bool   // a backslash was seen: invalid UTF-8 becomes U+FFFD
	// undecided holds raw bytes from the first invalid UTF-8 byte seen
	// before any escape: unquote keeps them as they are if no escape
	// follows in the whole token, else makes each U+FFFD.
	undecided []byte
	out       []byte // decoded bytes of one Write

	// Before the first non-space character the text is held in lead;
	// then either passed on (passing) or held whole (holding).
	lead    []byte
	passing bool
	holding bool
	err     error
}

// NewResultStream returns the writer of a string result for sink.
func NewResultStream(sink TextSink) *ResultStream {
	return &ResultStream{sink: sink}
}

// Write decodes p (the next bytes of the token's content).
func (s *ResultStream) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n := len(p)
	data := p
	if len(s.pending) > 0 {
		data = append(s.pending, p...)
		s.pending = nil
	}
	s.out = s.decode(s.out[:0], data, false)
	if err := s.emit(s.out); err != nil {
		s.err = err
		return 0, err
	}
	return n, nil
}

// Close decodes what is held and ends the sink.
func (s *ResultStream) Close() error {
	if s.err != nil {
		return s.err
	}
	data := s.pending
	s.pending = nil
	out := s.decode(s.out[:0], data, true)
	if len(s.undecided) > 0 {
		// No escape came: the bytes stay as received.
		out = append(out, s.undecided...)
		s.undecided = nil
	}
	if err := s.emit(out); err != nil {
		return err
	}
	if s.holding {
		return nil
	}
	if !s.passing && len(s.lead) > 0 {
		// White space only.
		if _, err := s.sink.Write(s.lead); err != nil {
			return err
		}
	}
	return s.sink.Close()
}

// Held reports whether the text was held whole (it may be JSON), and then
// the value FromResult gives for it.
func (s *ResultStream) Held() (Value, bool) {
	if !s.holding {
		return Value{}, false
	}
	return textOrJSON(string(s.lead)), true
}

// emit passes decoded bytes on, deciding at the first non-space character.
func (s *ResultStream) emit(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if s.passing {
		_, err := s.sink.Write(b)
		return err
	}
	s.lead = append(s.lead, b...)
	if s.holding {
		return nil
	}
	rest := strings.TrimLeftFunc(string(s.lead), unicode.IsSpace)
	if rest == "" || !utf8.FullRuneInString(rest) {
		return nil
	}
	if rest[0] == '{' || rest[0] == '[' {
		s.holding = true
		return nil
	}
	s.passing = true
	_, err := s.sink.Write(s.lead)
	s.lead = nil
	return err
}

// decode appends the decoded form of data to out; unless final, an escape
// or UTF-8 sequence cut at the end (or a surrogate escape whose pair may
// follow) is kept in s.pending.
func (s *ResultStream) decode(out, data []byte, final bool) []byte {
	if len(s.undecided) == 0 {
		if out, ok := s.decodeValid(out, data, final); ok {
			return out
		}
	}
	for len(data) > 0 {
		if len(s.undecided) > 0 {
			i := bytes.IndexByte(data, '\\')
			if i < 0 {
				s.undecided = append(s.undecided, data...)
				return out
			}
			// An escape: the held bytes are decoded as unquote does.
			s.escaped = true
			out = jsontext.AppendUTF8(out, append(s.undecided, data[:i]...))
			s.undecided = nil
			data = data[i:]
			continue
		}
		i := bytes.IndexByte(data, '\\')
		run := data
		if i >= 0 {
			run = data[:i]
		}
		if i < 0 && !final {
			// The run may continue in the next chunk: keep a cut rune.
			if k := incompleteTail(run); k > 0 {
				s.pending = append(s.pending[:0], run[len(run)-k:]...)
				run = run[:len(run)-k]
			}
		}
		if s.escaped || utf8.Valid(run) {
			out = jsontext.AppendUTF8(out, run)
		} else {
			// Invalid UTF-8 before any escape: undecided from there.
			bad := firstInvalid(run)
			out = append(out, run[:bad]...)
			s.undecided = append(s.undecided, run[bad:]...)
			if i >= 0 {
				data = data[i:]
				continue
			}
			if len(s.pending) > 0 {
				s.undecided = append(s.undecided, s.pending...)
				s.pending = nil
			}
			return out
		}
		if i < 0 {
			return out
		}
		data = data[i:]
		s.escaped = true
		var ok bool
		out, data, ok = s.escape(out, data, final)
		if !ok {
			s.pending = append(s.pending[:0], data...)
			return out
		}
	}
	return out
}

// decodeValid is decode when data's bytes (but for a rune cut at its end,
// unless final) are valid UTF-8, as they nearly always are: then every run
// between escapes is valid too (an escape is ASCII), so each is copied as
// it is, without being checked again. false: data is not valid, nothing
// was done.
func (s *ResultStream) decodeValid(out, data []byte, final bool) ([]byte, bool) {
	k := 0
	if !final {
		k = incompleteTail(data)
	}
	if !utf8.Valid(data[:len(data)-k]) {
		return out, false
	}
	for {
		i := bytes.IndexByte(data, '\\')
		if i < 0 {
			out = append(out, data[:len(data)-k]...)
			if k > 0 {
				s.pending = append(s.pending[:0], data[len(data)-k:]...)
			}
			return out, true
		}
		out = append(out, data[:i]...)
		s.escaped = true
		var ok bool
		if out, data, ok = s.escape(out, data[i:], final); !ok {
			s.pending = append(s.pending[:0], data...)
			return out, true
		}
	}
}

// escape decodes the escape data starts with, as unquote does. ok false:
// it is cut by the chunk's end (not final); data is returned unchanged.
func (s *ResultStream) escape(out, data []byte, final bool) ([]byte, []byte, bool) {
	if len(data) < 2 {
		if final {
			return append(out, data...), nil, true
		}
		return out, data, false
	}
	switch c := data[1]; c {
	case '"', '\\', '/':
		return append(out, c), data[2:], true
	case 'b':
		return append(out, '\b'), data[2:], true
	case 'f':
		return append(out, '\f'), data[2:], true
	case 'n':
		return append(out, '\n'), data[2:], true
	case 'r':
		return append(out, '\r'), data[2:], true
	case 't':
		return append(out, '\t'), data[2:], true
	case 'u':
		if len(data) < 6 {
			if final {
				return append(out, data...), nil, true
			}
			return out, data, false
		}
		r, ok := jsontext.Hex4(data[2:])
		if !ok {
			return append(out, data[:6]...), data[6:], true
		}
		if !utf16.IsSurrogate(r) {
			return utf8.AppendRune(out, r), data[6:], true
		}
		if !final && len(data) < 12 {
			if rest := data[6:]; len(rest) == 0 || rest[0] == '\\' && (len(rest) < 2 || rest[1] == 'u') {
				// The pair's second half may follow in the next chunk.
				return out, data, false
			}
		}
		rest := data[6:]
		if len(rest) >= 6 && rest[0] == '\\' && rest[1] == 'u' {
			if r2, ok2 := jsontext.Hex4(rest[2:]); ok2 {
				if d := utf16.DecodeRune(r, r2); d != unicode.ReplacementChar {
					return utf8.AppendRune(out, d), rest[6:], true
				}
			}
		}
		return utf8.AppendRune(out, unicode.ReplacementChar), rest, true
	}
	return append(out, data[:2]...), data[2:], true
}

// firstInvalid is the offset of p's first invalid UTF-8 byte.
func firstInvalid(p []byte) int {
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(p)
}

// TextStreamSink writes text as Write writes a text value: made safe on a
// terminal (o.TTY), with a newline added at the end when the text has
// none; empty text writes nothing. Its CloseFinal ends it as final text
// (curated output) is written instead: without the added newline.
func TextStreamSink(w io.Writer, o Options) *TextStream {
	t := &TextStream{tail: &lastByte{w: w}}
	t.w = NewTerminalWriter(t.tail, o.TTY)
	return t
}

// TextStream is the sink TextStreamSink returns.
type TextStream struct {
	w    io.Writer // the terminal writer, or tail itself
	tail *lastByte
}

func (t *TextStream) Write(p []byte) (int, error) { return t.w.Write(p) }

// Close ends the text, adding a newline when it has none.
func (t *TextStream) Close() error {
	if err := t.CloseFinal(); err != nil {
		return err
	}
	if !t.tail.any || t.tail.last == '\n' {
		return nil
	}
	_, err := io.WriteString(t.tail.w, "\n")
	return err
}

// CloseFinal ends the text as it is.
func (t *TextStream) CloseFinal() error {
	if tw, ok := t.w.(*TerminalWriter); ok {
		return tw.Flush()
	}
	return nil
}

// lastByte passes bytes on and remembers the last one.
type lastByte struct {
	w    io.Writer
	last byte
	any  bool
}

func (l *lastByte) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	l.last, l.any = p[len(p)-1], true
	return l.w.Write(p)
}

// JSONStringSink writes text as WriteJSON writes a text value: a JSON
// string (encoding/json's escapes, then SafeJSON's) and a newline. Runs
// that need no escape are copied as they are.
func JSONStringSink(w io.Writer) TextSink {
	return &jsonSink{w: w}
}

type jsonSink struct {
	w       io.Writer
	started bool
	pending []byte // a UTF-8 sequence cut by the chunk's end
	buf     []byte
}

func (j *jsonSink) Write(p []byte) (int, error) {
	n := len(p)
	data := p
	if len(j.pending) > 0 {
		data = append(j.pending, p...)
		j.pending = nil
	}
	if k := incompleteTail(data); k > 0 {
		j.pending = append([]byte(nil), data[len(data)-k:]...)
		data = data[:len(data)-k]
	}
	if err := j.put(data); err != nil {
		return 0, err
	}
	return n, nil
}

func (j *jsonSink) put(data []byte) error {
	buf := j.buf[:0]
	if !j.started {
		buf = append(buf, '"')
		j.started = true
	}
	buf = appendJSONText(buf, data)
	j.buf = buf
	_, err := j.w.Write(buf)
	return err
}

func (j *jsonSink) Close() error {
	data := j.pending
	j.pending = nil
	if err := j.put(data); err != nil {
		return err
	}
	_, err := io.WriteString(j.w, "\"\n")
	return err
}

// writeJSONText writes text as WriteJSON writes a text value, through
// JSONStringSink in 64 KiB pieces.
func writeJSONText(w io.Writer, s string) error {
	sink := JSONStringSink(w)
	for len(s) > 0 {
		n := min(len(s), 64<<10)
		if _, err := sink.Write([]byte(s[:n])); err != nil {
			return err
		}
		s = s[n:]
	}
	return sink.Close()
}

// appendJSONText appends text as the content of a JSON string: the escapes
// of encoding/json (without HTML escaping), then DEL and the C1 controls
// as \u escapes (appendSafeString). Invalid UTF-8 becomes \ufffd.
func appendJSONText(dst, s []byte) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != 0x7f {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigit(c>>4), hexDigit(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigit(byte(r)))
		case r >= 0x80 && r <= 0x9f:
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hexDigit(byte(r)>>4), hexDigit(byte(r)))
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

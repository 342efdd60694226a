package render

import (
	"bytes"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// Streaming a text result: the bytes between the quotes of a call's "result"
// string arrive in chunks (split anywhere) and leave as the text view or the
// --output json view would write the whole value, byte for byte, without
// holding it. ResultStream takes the string's text decoded as FromResult
// decodes it (unquote), run by run from the pass that found the string's
// end (jsontext.StringStream), and decides as FromResult does (step 2 of
// docs/rendering.md#the-value-to-render): text whose first non-space
// character is '{' or '[' may be JSON, so it is held whole and handed back
// (Held) for the usual path; any other text goes straight to its sink.

// TextSink receives decoded text; Close ends it. A sink that is also a
// jsontext.RunWriter is handed the runs themselves (no copy of them
// joined).
type TextSink interface {
	io.Writer
	Close() error
}

// ResultStream is the writer of a streamed string result: a
// jsontext.RunWriter of its decoded text; Write takes the string token's
// content as received instead (escapes included, no quotes, checked by
// the caller); Close ends it.
type ResultStream struct {
	sink TextSink
	runs jsontext.RunWriter // sink, when it takes runs
	// plain is runs when it is told the plain runs apart.
	plain jsontext.PlainRunWriter

	dec *jsontext.StringStream // Write's decoder
	out []byte                 // decoded text of one chunk, for a sink of bytes

	// Before the first non-space character the text is held in lead;
	// then either passed on (passing) or held whole (holding).
	lead    []byte
	passing bool
	holding bool
	err     error
}

// NewResultStream returns the writer of a string result for sink.
func NewResultStream(sink TextSink) *ResultStream {
	s := &ResultStream{sink: sink}
	s.runs, _ = sink.(jsontext.RunWriter)
	s.plain, _ = sink.(jsontext.PlainRunWriter)
	return s
}

// Declared passes the answer's declared length on to the sink, when it
// takes it (jsontext.Declared).
func (s *ResultStream) Declared(n int64) {
	if d, ok := s.sink.(jsontext.Declared); ok {
		d.Declared(n)
	}
}

// Write decodes p (the next bytes of the token's content).
func (s *ResultStream) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.dec == nil {
		s.dec = &jsontext.StringStream{}
	}
	if _, _, _, err := s.dec.Feed(p, s); err != nil {
		s.err = err
		return 0, err
	}
	return len(p), nil
}

// WriteRun takes the next run of the decoded text.
func (s *ResultStream) WriteRun(text []byte, nl bool) error {
	if s.err != nil {
		return s.err
	}
	if s.passing {
		if s.runs != nil {
			return s.keep(s.runs.WriteRun(text, nl))
		}
		s.out = append(s.out, text...)
		if nl {
			s.out = append(s.out, '\n')
		}
		return nil
	}
	s.lead = append(s.lead, text...)
	if nl {
		s.lead = append(s.lead, '\n')
	}
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
	lead := s.lead
	s.lead = nil
	return s.keep(s.pass(lead))
}

// WritePlainRun takes a plain run (jsontext.PlainRunWriter): once the
// text passes to a sink that tells plain runs apart, it is told too.
func (s *ResultStream) WritePlainRun(text []byte, nl bool) error {
	if s.err == nil && s.passing {
		switch {
		case s.plain != nil:
			return s.keep(s.plain.WritePlainRun(text, nl))
		case s.runs != nil:
			return s.keep(s.runs.WriteRun(text, nl))
		}
	}
	return s.WriteRun(text, nl)
}

// pass hands decoded text that may hold line breaks to the sink.
func (s *ResultStream) pass(text []byte) error {
	if s.runs == nil {
		s.out = append(s.out, text...)
		return nil
	}
	for {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			if len(text) == 0 {
				return nil
			}
			return s.runs.WriteRun(text, false)
		}
		if err := s.runs.WriteRun(text[:i], true); err != nil {
			return err
		}
		text = text[i+1:]
	}
}

// EndRuns ends one chunk's runs: what was gathered is written.
func (s *ResultStream) EndRuns() error {
	if s.err != nil {
		return s.err
	}
	if s.runs != nil {
		if s.passing {
			return s.keep(s.runs.EndRuns())
		}
		return nil
	}
	if len(s.out) > 0 {
		_, err := s.sink.Write(s.out)
		s.out = s.out[:0]
		return s.keep(err)
	}
	return nil
}

// keep remembers the sink's first error.
func (s *ResultStream) keep(err error) error {
	if err != nil && s.err == nil {
		s.err = err
	}
	return err
}

// Close ends the text (Write's, with its closing quote) and the sink.
func (s *ResultStream) Close() error {
	if s.err != nil {
		return s.err
	}
	if s.dec != nil {
		if _, _, _, err := s.dec.Feed([]byte{'"'}, s); err != nil {
			return s.keep(err)
		}
		if err := s.dec.End(s); err != nil {
			return err
		}
	}
	if s.holding {
		return nil
	}
	if !s.passing && len(s.lead) > 0 {
		// White space only.
		if err := s.pass(s.lead); err != nil {
			return err
		}
		if s.runs != nil {
			if err := s.runs.EndRuns(); err != nil {
				return err
			}
		} else if _, err := s.sink.Write(s.out); err != nil {
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
	j.begin()
	j.buf = jsontext.AppendStringContent(j.buf, data, jsontext.EscapeTerminal)
	_, err := j.w.Write(j.buf)
	j.buf = j.buf[:0]
	return err
}

func (j *jsonSink) begin() {
	if !j.started {
		j.buf = append(j.buf, '"')
		j.started = true
	}
}

// WriteRun encodes a run of decoded text (jsontext.RunWriter): a run
// never ends inside a character.
func (j *jsonSink) WriteRun(text []byte, nl bool) error {
	j.begin()
	j.buf = jsontext.AppendStringContent(j.buf, text, jsontext.EscapeTerminal)
	if nl {
		j.buf = append(j.buf, '\\', 'n')
	}
	return nil
}

// WritePlainRun is WriteRun of a plain run (jsontext.PlainRunWriter): it
// needs no escape but for DEL, so it is copied as it is.
func (j *jsonSink) WritePlainRun(text []byte, nl bool) error {
	if bytes.IndexByte(text, 0x7f) >= 0 {
		return j.WriteRun(text, nl)
	}
	j.begin()
	j.buf = append(j.buf, text...)
	if nl {
		j.buf = append(j.buf, '\\', 'n')
	}
	return nil
}

// EndRuns writes the chunk's runs encoded.
func (j *jsonSink) EndRuns() error {
	if len(j.buf) == 0 {
		return nil
	}
	_, err := j.w.Write(j.buf)
	j.buf = j.buf[:0]
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

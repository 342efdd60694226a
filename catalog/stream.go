package catalog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"sync"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// A call's answer decoded as a stream: when "ok": true and "isError": false
// arrive before "result" (the deployment picks the key order) and the
// result is a JSON string, the string's bytes go to the caller's writer as
// they arrive, escapes and all, instead of being held; everything else of
// the answer is held and decoded as before. Any other answer is held whole
// and decoded as before.

// StreamFunc is asked for the writer of a streamed result when streaming
// can begin; nil declines (the answer is then held). The writer gets the
// content of the result's JSON string token as received (between the
// quotes, escapes included, checked as JSON), in chunks cut anywhere; a
// writer that is a jsontext.RunWriter gets its decoded text instead, run
// by run, read in the same pass that finds the string's end.
type StreamFunc func() io.Writer

// DefaultMaxStreamedBytes bounds a call's answer whose text result is
// written through as it arrives (Options.MaxStreamedBytes): memory stays
// flat, so the bound only ends an answer that never ends.
const DefaultMaxStreamedBytes = 2 << 30

// streamChunk is the size of the reads of an answer's head;
// streamTextChunk of its streamed text, once it streams (fewer reads, and
// fewer and larger writes down the writer's chain, per byte).
const (
	streamChunk     = 64 << 10
	streamTextChunk = 1 << 20
)

// streamMin: an answer whose declared length is at most this is held
// whole, as before; streaming it would only cost a buffer. (A variable
// for the tests.) The thresholds that decide between holding and
// streaming are tabled in docs/rendering.md#hold-or-stream.
var streamMin int64 = 1 << 20

// streamCall reads a call's answer, streaming its result to r.stream when
// it may. streamed reports that it did: err is then the call's outcome
// (the answer's remainder was decoded into a). Otherwise data is every byte
// of the answer and err the error that ended reading it, as readBody.
func (c *Client) streamCall(ctx context.Context, r *request, resp *http.Response, b *body, a *callAnswer) (data []byte, streamed bool, err error) {
	s := &envScan{br: bufio.NewReaderSize(b, streamChunk)}
	if resp.ContentLength > 0 && resp.ContentLength <= b.in.limit {
		s.size = resp.ContentLength
	}
	start, ok := s.head()
	if !ok || s.err != nil {
		if s.err == nil && s.size > 0 {
			b.in.hold() // read whole as declared: counted by the splice
			if r.rows && s.arrayAt > 0 {
				// Its rows are checked as they arrive; the splice takes
				// the outcome if that array is the result it finds.
				s.fed = &fedArray{at: s.arrayAt, maxValues: b.in.held,
					feed: jsontext.NewArrayFeed(spliceDepth, b.in.held, int(s.size)-s.arrayAt)}
				a.fed = s.fed
			}
		}
		return s.rest(s.err)
	}
	var w io.Writer
	if w = r.stream(); w == nil {
		if s.size > 0 {
			b.in.hold()
		}
		return s.rest(nil)
	}
	a.Streamed = true
	// Reads of the text go through a larger buffer (reads bigger than
	// the head's buffer bypass it once what it holds is taken).
	s.br = bufio.NewReaderSize(s.br, streamTextChunk)
	// The text is written through, not held: its bound is the streamed
	// one. What follows it is held again, so the held bound counts it
	// with the head: an answer that ends in an endless member after its
	// result cannot grow agsh up to the streamed bound.
	held := b.in.limit
	b.in.limit = max(b.in.limit, c.opts.MaxStreamedBytes)
	if d, ok := w.(jsontext.Declared); ok && s.size > 0 {
		d.Declared(s.size - int64(len(s.held)))
	}
	if err := s.copyString(w); err != nil {
		return nil, true, c.streamError(ctx, r, resp, b, err)
	}
	tailIn := &boundedReader{r: s.br, limit: max(held-int64(len(s.held)), 0), named: held}
	tail, err := readBody(tailIn, 0, tailIn.limit)
	if err != nil {
		return nil, true, c.streamError(ctx, r, resp, b, err)
	}
	rest := append(append(s.held[:start:start], "null"...), tail...)
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.UseNumber()
	if err := dec.Decode(a); err != nil {
		var typ *json.UnmarshalTypeError
		if !errors.As(err, &typ) || !softTypeError(fieldPath(typ), []string{essentialIsError}) {
			return nil, true, c.bodyError(ctx, r, resp, b, err)
		}
	}
	a.Result = nil
	a.Streamed = true
	return nil, true, c.callChecked(r, resp, a, rest)
}

// streamError is the error of a streamed answer that broke off or went
// wrong after its result began to be written.
func (c *Client) streamError(ctx context.Context, r *request, resp *http.Response, b *body, err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return c.bodyError(ctx, r, resp, b, err)
}

// envScan reads an answer's head from br, keeping every byte it read.
type envScan struct {
	br   *bufio.Reader
	held []byte
	err  error
	size int64 // the answer's declared length, when believed

	arrayAt int       // where a "result" array begins in held (head), or 0
	fed     *fedArray // set: the rest is read by readFed
}

// rest is the not-streamed outcome: every byte read, then the rest.
func (s *envScan) rest(err error) ([]byte, bool, error) {
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = nil
		}
		return s.held, false, err
	}
	if s.size > int64(len(s.held)) {
		// The declared length: the rest is read after what was read,
		// into one buffer of that size (not joined and copied again).
		buf := append(make([]byte, 0, s.size+bytes.MinRead), s.held...)
		if s.fed != nil {
			data, err := s.readFed(buf)
			return data, false, err
		}
		b := bytes.NewBuffer(buf)
		_, err := b.ReadFrom(s.br)
		return b.Bytes(), false, err
	}
	tail, err := readBody(s.br, 0, math.MaxInt64)
	return append(s.held, tail...), false, err
}

// next reads one byte, nil error or the read's.
func (s *envScan) next() (byte, bool) {
	c, err := s.br.ReadByte()
	if err != nil {
		s.err = err
		return 0, false
	}
	s.held = append(s.held, c)
	return c, true
}

// ws skips white space and returns the next byte (read).
func (s *envScan) ws() (byte, bool) {
	for {
		c, ok := s.next()
		if !ok || !(c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			return c, ok
		}
	}
}

// head reads the answer up to the quote that opens a "result" string that
// may stream: the answer is an object, "ok" was true and "isError" false
// (exactly, each once), every member before it is valid JSON, and no key
// is one encoding/json might take for result, ok or isError without being
// spelled so. start is the offset in held where the result's value
// begins. false: it may not stream (held has what was read).
func (s *envScan) head() (start int, ok bool) {
	if c, ok := s.ws(); !ok || c != '{' {
		return 0, false
	}
	var okTrue, isErrorFalse, seenOK, seenIsError bool
	for first := true; ; first = false {
		c, ok := s.ws()
		if !ok || c == '}' {
			return 0, false
		}
		if !first {
			if c != ',' {
				return 0, false
			}
			if c, ok = s.ws(); !ok {
				return 0, false
			}
		}
		if c != '"' {
			return 0, false
		}
		ks := len(s.held) - 1
		if !s.value(c) {
			return 0, false
		}
		key := s.held[ks+1 : len(s.held)-1]
		if c, ok = s.ws(); !ok || c != ':' {
			return 0, false
		}
		c, ok = s.ws()
		if !ok {
			return 0, false
		}
		vs := len(s.held) - 1
		switch string(key) {
		case "result":
			if c == '[' {
				s.arrayAt = vs
			}
			if c != '"' || !okTrue || !isErrorFalse {
				return 0, false
			}
			return vs, true
		case "ok", "isError":
		default:
			if foldsTo(key, "result", "ok", "isError") {
				return 0, false
			}
		}
		if !s.value(c) || !json.Valid(s.held[vs:]) {
			return 0, false
		}
		val := string(s.held[vs:])
		switch string(key) {
		case "ok":
			okTrue, seenOK = val == "true" && !seenOK, true
		case "isError":
			isErrorFalse, seenIsError = val == "false" && !seenIsError, true
		}
	}
}

// value reads the rest of the value that begins with c (read): strings
// and brackets are followed, nothing is checked (json.Valid is, after).
func (s *envScan) value(c byte) bool {
	switch c {
	case '"':
		return s.skipString()
	case '{', '[':
		for depth := 1; depth > 0; {
			c, ok := s.next()
			if !ok {
				return false
			}
			switch c {
			case '"':
				if !s.skipString() {
					return false
				}
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
		}
		return true
	}
	// A scalar: up to a delimiter.
	for {
		p, err := s.br.Peek(1)
		if err != nil || isDelim(p[0]) {
			return true
		}
		if _, ok := s.next(); !ok {
			return false
		}
	}
}

func isDelim(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// skipString reads the rest of a string whose quote was read.
func (s *envScan) skipString() bool {
	for {
		c, ok := s.next()
		switch {
		case !ok:
			return false
		case c == '\\':
			if _, ok := s.next(); !ok {
				return false
			}
		case c == '"':
			return true
		}
	}
}

// copyString reads the rest of the string whose opening quote was read,
// chunk by chunk, in one pass (jsontext.StringStream): it finds the closing
// quote, checks the content as encoding/json's scanner does and decodes
// it. A jsontext.RunWriter gets the decoded text; any other writer the
// content as received. It stops after the closing quote.
func (s *envScan) copyString(w io.Writer) error {
	var d jsontext.StringStream
	rw, decoded := w.(jsontext.RunWriter)
	if !decoded {
		rw = discardRuns{}
	}
	for {
		p, err := s.br.Peek(max(s.br.Buffered(), 1))
		if len(p) == 0 {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		n, done, werr, err := d.Feed(p, rw)
		switch {
		case werr:
			return &writeError{err}
		case err != nil:
			return errBadString
		}
		if !decoded && n > 0 {
			if _, err := w.Write(p[:n]); err != nil {
				return &writeError{err}
			}
		}
		if done {
			_, _ = s.br.Discard(n + 1)
			if err := d.End(rw); err != nil {
				return &writeError{err}
			}
			return nil
		}
		_, _ = s.br.Discard(len(p))
	}
}

var errBadString = jsontext.ErrBadString

// discardRuns checks a string for a writer that takes it as received.
type discardRuns struct{}

func (discardRuns) WriteRun([]byte, bool) error { return nil }
func (discardRuns) EndRuns() error              { return nil }

// writeError is a failure of the caller's writer (a closed pipe, say).
type writeError struct{ err error }

func (e *writeError) Error() string { return e.err.Error() }
func (e *writeError) Unwrap() error { return e.err }

// fedArray is a "result" array's check begun while the answer was read:
// where in the answer it begins, the bound of values it was fed with.
type fedArray struct {
	at        int
	maxValues int64
	feed      *jsontext.ArrayFeed
}

// feedStep is how many bytes arrive between two feeds of a fedArray.
const feedStep = 256 << 10

// readFed reads the rest of a declared answer into buf (which holds what
// was read, with room for the declared length) as rest does, and checks
// the rows of its result array as they arrive: the reads go on in a
// goroutine of their own while this one feeds what they have read, so
// checking the answer overlaps receiving it. It returns when the reads
// have ended, with every byte read and the error that ended them (nil at
// the end of the answer), as rest would; an answer longer than declared
// is read on into a larger buffer.
func (s *envScan) readFed(buf []byte) ([]byte, error) {
	full := buf[:cap(buf)]
	var (
		mu   sync.Mutex
		cond = sync.NewCond(&mu)
		n    = len(buf) // bytes read: full[:n] is the reads'
		done bool
		rerr error
	)
	go func() {
		m, told := n, n
		for {
			k, err := s.br.Read(full[m:])
			m += k
			if err == nil && m < len(full) && m-told < feedStep {
				continue
			}
			mu.Lock()
			n, told = m, m
			if err != nil || m == len(full) {
				done, rerr = true, err
			}
			cond.Signal()
			mu.Unlock()
			if err != nil || m == len(full) {
				return
			}
		}
	}()
	mu.Lock()
	for {
		for !done && n-len(buf) < feedStep {
			cond.Wait()
		}
		if done {
			break
		}
		buf = full[:n]
		mu.Unlock()
		s.fed.feed.Feed(buf[s.fed.at:])
		mu.Lock()
	}
	buf, err := full[:n], rerr
	mu.Unlock()
	if err == nil {
		// The buffer is full and the answer goes on.
		b := bytes.NewBuffer(buf)
		_, err = b.ReadFrom(s.br)
		return b.Bytes(), err
	}
	if err == io.EOF { // as bytes.Buffer.ReadFrom
		err = nil
	}
	return buf, err
}

package render

import (
	"bufio"
	"encoding/json"
	"io"
)

// RecordSink writes JSON texts received from the deployment (a session's
// events) in a data format, one at a time as they arrive, never holding
// more than a buffer of them: Add writes one; Flush writes what is
// buffered (more may not come soon, or none: a record cut short); Close
// ends them.
type RecordSink interface {
	Add(raw []byte) error
	Flush() error
	Close() error
}

// JSON's records: one array of them, an element a line (:trace), or with
// lines one JSON text a line (NDJSON: :tail, which has no end). The texts
// are written as received; the caller makes them safe for a terminal.
func jsonRecords(w io.Writer, lines bool) RecordSink {
	if lines {
		return &jsonLines{w: w}
	}
	return &jsonArray{w: w}
}

// recordBuffer is what a record sink holds before it writes.
const recordBuffer = 32 << 10

// jsonArray writes JSON texts as the elements of one array.
type jsonArray struct {
	w   io.Writer
	n   int
	buf []byte
	err error
}

func (a *jsonArray) Add(raw []byte) error {
	if a.err != nil {
		return a.err
	}
	if a.n == 0 {
		a.buf = append(a.buf, "[\n"...)
	} else {
		a.buf = append(a.buf, ",\n"...)
	}
	a.n++
	a.buf = append(a.buf, raw...)
	if len(a.buf) >= recordBuffer {
		return a.Flush()
	}
	return nil
}

func (a *jsonArray) Flush() error {
	if a.err == nil && len(a.buf) > 0 {
		_, a.err = a.w.Write(a.buf)
	}
	a.buf = a.buf[:0]
	return a.err
}

func (a *jsonArray) Close() error {
	if a.n == 0 {
		a.buf = append(a.buf, "[]\n"...)
	} else {
		a.buf = append(a.buf, "\n]\n"...)
	}
	return a.Flush()
}

// jsonLines writes one JSON text a line.
type jsonLines struct {
	w   io.Writer
	out *bufio.Writer
}

func (l *jsonLines) Add(raw []byte) error {
	if l.out == nil {
		l.out = bufio.NewWriterSize(l.w, recordBuffer)
	}
	_, _ = l.out.Write(raw)
	return l.out.WriteByte('\n')
}

func (l *jsonLines) Flush() error {
	if l.out == nil {
		return nil
	}
	return l.out.Flush()
}

func (l *jsonLines) Close() error { return l.Flush() }

// ValueRecords is the record sink of a format that writes each record as
// a value (Value): with lines, each as it comes; else all of them as one
// array value at Close (held: a format of its own streams them instead).
func ValueRecords(enc DataEncoder, w io.Writer, lines bool) RecordSink {
	return &valueRecords{enc: enc, w: w, lines: lines}
}

type valueRecords struct {
	enc   DataEncoder
	w     io.Writer
	lines bool
	held  []json.RawMessage
}

func (v *valueRecords) Add(raw []byte) error {
	if v.lines {
		return v.enc.Value(v.w, Value{JSON: raw, IsJSON: true})
	}
	v.held = append(v.held, append(json.RawMessage(nil), raw...))
	return nil
}

func (v *valueRecords) Flush() error { return nil }

func (v *valueRecords) Close() error {
	if v.lines {
		return nil
	}
	data, err := json.Marshal(v.held)
	if err != nil {
		return err
	}
	if v.held == nil {
		data = []byte("[]")
	}
	return v.enc.Value(v.w, Value{JSON: data, IsJSON: true})
}

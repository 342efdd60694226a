package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestWriteJSONInChunks: --output json of a large structured value is
// written in pieces as it is indented (not held a second time), with the
// bytes of the whole indentation.
func TestWriteJSONInChunks(t *testing.T) {
	in := tableInput(5000)
	var got bytes.Buffer
	cw := &countingWriter{}
	if err := WriteJSON(teeWriter{&got, cw}, FromResult(json.RawMessage(in))); err != nil {
		t.Fatal(err)
	}
	want := append(appendIndented(nil, in), '\n')
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatal("the chunked indentation differs from the whole one")
	}
	if cw.calls < len(want)/indentFlush {
		t.Fatalf("%d writes for %d bytes: held whole", cw.calls, len(want))
	}
}

// maxWriter records the largest single write.
type maxWriter struct{ max, total int }

func (m *maxWriter) Write(p []byte) (int, error) {
	m.max, m.total = max(m.max, len(p)), m.total+len(p)
	return len(p), nil
}

// TestWriteJSONDeepInChunks: a deeply nested value without commas (a few
// KiB that indent to megabytes: two spaces a level on every line) is
// written in pieces too, not held whole as its indented text (the 10,000
// levels encoding/json allows indent to 200 MB per value).
func TestWriteJSONDeepInChunks(t *testing.T) {
	const depth = 2000
	in := []byte(strings.Repeat(`[{"a":`, depth) + "1" + strings.Repeat("}]", depth))
	var got bytes.Buffer
	mw := &maxWriter{}
	if err := WriteJSON(teeWriter{&got, mw}, FromResult(json.RawMessage(in))); err != nil {
		t.Fatal(err)
	}
	want := append(appendIndented(nil, in), '\n')
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatal("the chunked indentation differs from the whole one")
	}
	if mw.max > 2*indentFlush+4*depth*2 {
		t.Fatalf("one write of %d bytes of %d: held whole", mw.max, mw.total)
	}
}

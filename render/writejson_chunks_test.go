package render

import (
	"bytes"
	"encoding/json"
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

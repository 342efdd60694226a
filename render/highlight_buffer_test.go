package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// TestHighlightBuffered: a colored read of a 50 KiB Go file reaches the
// writer in a few large writes, with exactly the bytes chroma's formatter
// writes token by token.
func TestHighlightBuffered(t *testing.T) {
	src := goSource50K(t)
	var want bytes.Buffer
	it, err := chroma.Coalesce(lexers.Match("big.go")).Tokenise(nil, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := formatters.TTY256.Format(&want, styles.Get(Options{}.chromaStyle()), it); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	cw := &countingWriter{}
	if err := HighlightFile(teeWriter{&got, cw}, "big.go", src); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("highlighted bytes differ from chroma's own: %d vs %d bytes", got.Len(), want.Len())
	}
	if limit := want.Len()/highlightBuffer + 2; cw.calls > limit {
		t.Fatalf("%d writes for %d bytes, want at most %d", cw.calls, want.Len(), limit)
	}
	// A diff too.
	cw = &countingWriter{}
	diff := strings.Repeat("@@ -1,2 +1,2 @@\n-old line\n+new line\n context\n", 500)
	if err := HighlightDiff(cw, diff); err != nil {
		t.Fatal(err)
	}
	if cw.calls > cw.bytes/highlightBuffer+2 {
		t.Fatalf("diff: %d writes for %d bytes", cw.calls, cw.bytes)
	}
}

type teeWriter struct {
	a, b interface{ Write([]byte) (int, error) }
}

func (t teeWriter) Write(p []byte) (int, error) {
	t.a.Write(p)
	return t.b.Write(p)
}

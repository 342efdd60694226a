package resultstream

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/render"
)

// readContent is the content of a call answer's "result" string token
// (escapes as received: \n between lines) of mb MiB of read-style text.
func readContent(mb int) []byte {
	var b strings.Builder
	for i := 1; b.Len() < mb<<20; i++ {
		if i > 1 {
			b.WriteString(`\n`)
		}
		fmt.Fprintf(&b, "%6d|log line %d of the big file, with some text to make it longer", i, i)
	}
	return []byte(b.String())
}

// benchChain writes content through the chain of o in 64 KiB pieces, as
// catalog.CallStream does, telling it first the declared length.
func benchChain(b *testing.B, o Options) {
	content := readContent(50)
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		s := New(io.Discard, o)
		w := s.Func()()
		if d, ok := w.(jsontext.Declared); ok {
			d.Declared(int64(len(content)) + 1)
		}
		for p := content; len(p) > 0; {
			n := min(len(p), 64<<10)
			if _, err := w.Write(p[:n]); err != nil {
				b.Fatal(err)
			}
			p = p[n:]
		}
		if _, err := s.Finish(nil, func(string) {}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadChain50MB: a streamed read result of 50 MB, decoded,
// reformatted line by line and written (the read200 row's work in agsh,
// without the network).
func BenchmarkReadChain50MB(b *testing.B) {
	benchChain(b, Options{Spec: spec("read"), Last: true})
}

// BenchmarkTextChain50MB: the same text as a plain text result.
func BenchmarkTextChain50MB(b *testing.B) {
	benchChain(b, Options{Last: true, Render: render.Options{}})
}

// BenchmarkJSONChain50MB: the same text under --output json.
func BenchmarkJSONChain50MB(b *testing.B) {
	benchChain(b, Options{Spec: spec("read"), Format: render.JSON, Last: true})
}

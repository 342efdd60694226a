package render

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Benchmarks of large answers and of per-command work that live in render.
// Compare two builds with
// `go test ./render -run '^$' -bench '50K|50MB|100kPiped|SmallJSON|Index10k' -count 1`
// on each and benchstat, or read the ratios off one run.

// countingWriter counts Write calls and bytes, as strace counts write(2)
// calls of the real stdout.
type countingWriter struct{ calls, bytes int }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.calls++
	c.bytes += len(p)
	return len(p), nil
}

// goSource50K is about 50 KiB of this package's Go source, whole lines.
func goSource50K(tb testing.TB) string {
	files, err := filepath.Glob("*.go")
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		b.Write(data)
		if b.Len() >= 50<<10 {
			break
		}
	}
	s := b.String()[:50<<10]
	return s[:strings.LastIndexByte(s, '\n')+1]
}

// BenchmarkHighlightGo50K is the colored `read` of a 50 KiB Go file,
// buffered: writes/op is the number of Write calls that reach standard
// output.
func BenchmarkHighlightGo50K(b *testing.B) {
	src := goSource50K(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var cw countingWriter
	for b.Loop() {
		cw = countingWriter{}
		if err := HighlightFile(&cw, "big.go", src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cw.calls), "writes/op")
}

// bigReadText is a read-style text of about mb MiB: numbered lines, no
// final newline.
func bigReadText(mb int) string {
	var b strings.Builder
	b.Grow(mb<<20 + 128)
	for i := 1; b.Len() < mb<<20; i++ {
		if i > 1 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%6d|log line %d of the big file, with some text to make it longer", i, i)
	}
	return b.String()
}

// BenchmarkOutputJSONText50MB is `--output json` of a 50 MB text result: the
// result's string token (as received) to the JSON written.
func BenchmarkOutputJSONText50MB(b *testing.B) {
	raw, _ := json.Marshal(bigReadText(50))
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteJSON(io.Discard, FromResult(raw)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkText50MB is the plain (piped) text view of a 50 MB text result,
// from the string token as received.
func BenchmarkText50MB(b *testing.B) {
	raw, _ := json.Marshal(bigReadText(50))
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, io.Discard, FromResult(raw), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTable100kPiped renders a table of 100k objects to a pipe
// (BenchmarkTable100k of bench_table_test.go renders it to a terminal).
func BenchmarkTable100kPiped(b *testing.B) {
	in := tableInput(100000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, io.Discard, FromResult(in), Options{Width: 120}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSmallJSONResult is one of the 1,000 commands of a script: a text
// result that holds a small JSON array (an MCP text part, say), normalized
// and rendered as a table.
func BenchmarkSmallJSONResult(b *testing.B) {
	var rows []string
	for i := 0; i < 20; i++ {
		rows = append(rows, fmt.Sprintf(`{"sha":"%040d","author":"dev%d","date":"2026-11-%02dT10:00:00Z","subject":"change number %d","files":["a.go","b.go"]}`, i, i%5, i%28+1, i))
	}
	raw, _ := json.Marshal("[" + strings.Join(rows, ",") + "]")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, io.Discard, FromResult(raw), Options{Width: 120}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResultStream50MB decodes a streamed 50 MB string result to a piped
// text view (64 KiB writes).
func BenchmarkResultStream50MB(b *testing.B) {
	raw, _ := json.Marshal(bigReadText(50))
	content := raw[1 : len(raw)-1]
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewResultStream(TextStreamSink(io.Discard, Options{}))
		for p := content; len(p) > 0; {
			n := min(len(p), 64<<10)
			s.Write(p[:n])
			p = p[n:]
		}
		s.Close()
	}
}

// BenchmarkIndex10k renders `agsh help` for 10,000 tools: 2,500 authored, the
// rest in 40 groups.
func BenchmarkIndex10k(b *testing.B) {
	p := IndexPage{Name: "agent", Description: "An agent with many tools."}
	groups := map[int]*IndexGroup{}
	for i := 0; i < 10000; i++ {
		if i%4 == 0 {
			p.Commands = append(p.Commands, IndexRow{fmt.Sprintf("tool_%05d", i), fmt.Sprintf("Does thing number %d", i)})
			continue
		}
		g := groups[i%40]
		if g == nil {
			g = &IndexGroup{Name: fmt.Sprintf("conn%02d", i%40)}
			groups[i%40] = g
		}
		g.Rows = append(g.Rows, IndexRow{fmt.Sprintf("conn%02d_tool_%05d", i%40, i), fmt.Sprintf("A connection tool, number %d", i)})
	}
	for i := 0; i < 40; i++ {
		if g := groups[i]; g != nil {
			p.Groups = append(p.Groups, *g)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteIndex(io.Discard, p, Options{Width: 120}); err != nil {
			b.Fatal(err)
		}
	}
}

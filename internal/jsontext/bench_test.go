package jsontext

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/agsh-dev/agsh/internal/benchdata"
)

// BenchmarkValueEnd100k checks a 100,000-row array (catalog's answer
// splice does this to a table result).
func BenchmarkValueEnd100k(b *testing.B) {
	in := benchdata.TableRows(100000)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if end, ok := ValueEnd(in, 0, 9000); !ok || end != len(in) {
			b.Fatal(end, ok)
		}
	}
}

// BenchmarkIndexArray100k checks and indexes the same array.
func BenchmarkIndexArray100k(b *testing.B) {
	in := benchdata.TableRows(100000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if end, _, rows, ok := IndexArray(in, 0, 9000, 0); !ok || end != len(in) || len(rows.Ends) != 100000 {
			b.Fatal(end, ok)
		}
	}
}

// numberedLines is a read result's content as it arrives: numbered lines
// of about 70 bytes, each ended by an escaped newline.
func numberedLines(size int) []byte {
	var b []byte
	for i := 1; len(b) < size; i++ {
		b = fmt.Appendf(b, `%6d|log line %d of the big file, with some text to make it longer\n`, i, i)
	}
	return b
}

type discardRuns struct{ n int }

func (d *discardRuns) WriteRun(text []byte, nl bool) error { d.n += len(text); return nil }
func (d *discardRuns) EndRuns() error                      { return nil }

// BenchmarkStringStreamLines decodes 4 MiB of numbered lines in 64 KiB
// chunks, as a streamed read result is.
func BenchmarkStringStreamLines(b *testing.B) {
	in := numberedLines(4 << 20)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		var d StringStream
		w := &discardRuns{}
		for p := in; len(p) > 0; {
			n := min(len(p), 64<<10)
			if _, _, _, err := d.Feed(p[:n], w); err != nil {
				b.Fatal(err)
			}
			p = p[n:]
		}
	}
}

// BenchmarkAppendStringContentLines encodes the decoded lines one by one
// (--output json of a streamed text result).
func BenchmarkAppendStringContentLines(b *testing.B) {
	lines := bytes.Split(numberedLines(4<<20), []byte(`\n`))
	b.SetBytes(4 << 20)
	var buf []byte
	for b.Loop() {
		for _, l := range lines {
			buf = AppendStringContent(buf[:0], l, EscapeTerminal)
		}
	}
}

// BenchmarkPlainPrefix checks 1 MiB of numbered lines for plain ASCII,
// as the decoder checks each chunk of a streamed string.
func BenchmarkPlainPrefix(b *testing.B) {
	in := numberedLines(1 << 20)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if plainPrefix(in) != len(in) {
			b.Fatal("not plain")
		}
	}
}

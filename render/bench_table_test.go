package render

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// The table benchmarks, on render's exported API only (Write, FromResult,
// Value, Options), so that scripts/bench-table.sh can run this file alone
// against any older commit.

// tableInput builds a JSON array of rows×8 objects.
func tableInput(rows int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","status":"active","owner":"user%d@example.com","score":%d.5,"tags":["a","b"],"region":"eu-west-%d","note":"row %d of the benchmark table"}`,
			i, i, i%97, i%1000, i%3, i)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// BenchmarkTable10k renders a 10,000-row × 8-column table (target: under
// 100 ms, memory proportional to the input).
func BenchmarkTable10k(b *testing.B) {
	in := tableInput(10000)
	v := Value{JSON: in, IsJSON: true}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, io.Discard, v, Options{Width: 120}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTable100k renders a 100,000-row × 8-column table at 120 columns on
// a terminal: Write of a value as FromResult gives it.
// BenchmarkTable100kFromResult adds FromResult. scripts/bench-table.sh
// compares both with an older commit in one run.
func BenchmarkTable100k(b *testing.B) {
	in := tableInput(100000)
	v := FromResult(in)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, io.Discard, v, Options{Width: 120, TTY: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTable100kFromResult(b *testing.B) {
	in := tableInput(100000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(io.Discard, io.Discard, FromResult(in), Options{Width: 120, TTY: true}); err != nil {
			b.Fatal(err)
		}
	}
}

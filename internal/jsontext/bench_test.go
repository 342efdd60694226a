package jsontext

import (
	"bytes"
	"fmt"
	"testing"
)

// tableArray is a JSON array of rows objects of eight members, the rows of
// scripts/bench-large.sh's table100k.
func tableArray(rows int) []byte {
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

// BenchmarkValueEnd100k checks a 100,000-row array (catalog's answer
// splice does this to a table result).
func BenchmarkValueEnd100k(b *testing.B) {
	in := tableArray(100000)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if end, ok := ValueEnd(in, 0, 9000); !ok || end != len(in) {
			b.Fatal(end, ok)
		}
	}
}

// BenchmarkIndexArray100k checks and indexes the same array.
func BenchmarkIndexArray100k(b *testing.B) {
	in := tableArray(100000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if end, _, rows, ok := IndexArray(in, 0, 9000, 0); !ok || end != len(in) || len(rows.Ends) != 100000 {
			b.Fatal(end, ok)
		}
	}
}

package jsontext

import (
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

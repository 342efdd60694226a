package render

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

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

// BenchmarkIndex2000 renders an `agsh help` index of 2,000 tools in 20
// groups (target: under 50 ms).
func BenchmarkIndex2000(b *testing.B) {
	p := IndexPage{Name: "agent", Description: "An agent with **many** tools."}
	for i := 0; i < 100; i++ {
		p.Commands = append(p.Commands, IndexRow{fmt.Sprintf("tool_%04d", i), "Does thing number " + fmt.Sprint(i)})
	}
	for g := 0; g < 19; g++ {
		grp := IndexGroup{Name: fmt.Sprintf("connector%02d", g)}
		for i := 0; i < 100; i++ {
			grp.Rows = append(grp.Rows, IndexRow{fmt.Sprintf("connector%02d_tool_%04d", g, i), strings.Repeat("A long title ", 8)})
		}
		p.Groups = append(p.Groups, grp)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteIndex(io.Discard, p, Options{Width: 80, Color: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHelpLargestCorpus renders the help page of the corpus tool with
// the longest description (target: under 50 ms, glamour included). The
// first iteration pays for building the glamour renderer; see also
// BenchmarkHelpLargestCorpusCold.
func BenchmarkHelpLargestCorpus(b *testing.B) {
	p := largestCorpusPage(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteHelp(io.Discard, p, Options{Width: 80}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHelpLargestCorpusCold is the same with a new glamour renderer
// each time, as in a one-shot `agsh <tool> --help`.
func BenchmarkHelpLargestCorpusCold(b *testing.B) {
	p := largestCorpusPage(b)
	b.ReportAllocs()
	for b.Loop() {
		mdCache.Lock()
		mdCache.r = nil
		mdCache.Unlock()
		if err := WriteHelp(io.Discard, p, Options{Width: 80, Color: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func largestCorpusPage(b *testing.B) HelpPage {
	var best corpusTool
	for _, ct := range loadCorpus(b) {
		if len(ct.Description) > len(best.Description) {
			best = ct
		}
	}
	return HelpPage{Name: best.Name, Title: best.Title, Synopsis: best.Name + " [options...]", Description: best.Description,
		Options: []HelpItem{{Term: "--operation <string>", Description: "The operation.", Facts: "Required."}}}
}

// BenchmarkTable100k renders a 100,000-row × 8-column table at 120 columns
// (the "table of 100k objects" of the streaming issue): Write of a value as
// FromResult gives it. BenchmarkTable100kFromResult adds FromResult.
// scripts/bench-table.sh compares both with an older commit in one run.
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

package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/testcorpus"
)

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
	for _, set := range testcorpus.Available(b) {
		for _, ct := range loadCorpus(b, set.Dir) {
			if len(ct.Description) > len(best.Description) {
				best = ct
			}
		}
	}
	return HelpPage{Name: best.Name, Title: best.Title, Synopsis: best.Name + " [options...]", Description: best.Description,
		Options: []HelpItem{{Term: "--operation <string>", Description: "The operation.", Facts: "Required."}}}
}

// BenchmarkPropertyLongValue wraps one long string value of a property view
// (1 MiB and 4 MiB of words at 80 columns): the cost grows with the value's
// length, not with its length times its lines.
func BenchmarkPropertyLongValue(b *testing.B) {
	for _, n := range []int{1 << 20, 4 << 20} {
		v := jsonValue(`{"k":"` + strings.Repeat("word ", n/5) + `"}`)
		b.Run(strconv.Itoa(n>>20)+"MiB", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := Write(io.Discard, io.Discard, v, Options{Width: 80}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

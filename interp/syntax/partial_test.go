package syntax

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScanPartial(t *testing.T) {
	cases := []struct {
		src  string
		want Partial
	}{
		{"", Partial{}},
		{"  ", Partial{Start: 2}},
		{"re", Partial{Current: "re"}},
		{"read RE", Partial{Words: []string{"read"}, Current: "RE", Start: 5}},
		{"read ", Partial{Words: []string{"read"}, Start: 5}},
		{"read /a ", Partial{Words: []string{"read", "/a"}, Start: 8}},
		// the double quote stays open: \" does not close it
		{`read "a\" b`, Partial{Words: []string{"read"}, Current: `a" b`, Start: 5, Quote: '"'}},
		{`read "a\\" b`, Partial{Words: []string{"read", `a\`}, Current: "b", Start: 11}},
		{"read 'a b", Partial{Words: []string{"read"}, Current: "a b", Start: 5, Quote: '\''}},
		{`read 'a\`, Partial{Words: []string{"read"}, Current: `a\`, Start: 5, Quote: '\''}},
		{`read a"b c`, Partial{Words: []string{"read"}, Current: "ab c", Start: 5, Quote: '"'}},
		{`grep -i a\ b`, Partial{Words: []string{"grep", "-i"}, Current: "a b", Start: 8}},
		{`read a\`, Partial{Words: []string{"read"}, Current: "a", Start: 5}},
		{`read \`, Partial{Words: []string{"read"}, Start: 5}},
		{"ls | he", Partial{Current: "he", Start: 5, AfterPipe: true}},
		{"ls|", Partial{Start: 3, AfterPipe: true}},
		{"ls | head -n 5 ", Partial{Words: []string{"head", "-n", "5"}, Start: 15, AfterPipe: true}},
		{"ls |\n he", Partial{Current: "he", Start: 6, AfterPipe: true}},
		{"ls || gr", Partial{Current: "gr", Start: 6}},
		{"ls && gr", Partial{Current: "gr", Start: 6}},
		{"ls; gr x", Partial{Words: []string{"gr"}, Current: "x", Start: 7}},
		{"ls\nre", Partial{Current: "re", Start: 3}},
		{"ls | head\nre", Partial{Current: "re", Start: 10}},
		{"read é", Partial{Words: []string{"read"}, Current: "é", Start: 5}},
		{"é 日本 x", Partial{Words: []string{"é", "日本"}, Current: "x", Start: 10}},
		{"ls # a comment", Partial{Words: []string{"ls"}, Start: 14}},
		{"ls > re", Partial{Current: "re", Start: 5}},
		{"ls & re", Partial{Current: "re", Start: 5}},
		{"ls $(x) y", Partial{Current: "y", Start: 8}},
		{"(ls", Partial{Current: "ls", Start: 1}},
	}
	for _, tc := range cases {
		got := ScanPartial(tc.src)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ScanPartial(%q) = %+v, want %+v", tc.src, got, tc.want)
		}
	}
}

// FuzzScanPartial: any text scans without a panic, Start lies within it, and
// where the text parses, the word it ends with is the current word.
func FuzzScanPartial(f *testing.F) {
	for _, s := range []string{"read RE", `read "a\" b`, "ls | he", "a 'b", "é x", "ls >", "a\\\n", "a\r\nb"} {
		f.Add(s)
	}
	for _, tc := range validCases {
		for _, s := range tc.srcs {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		p := ScanPartial(src)
		if p.Start < 0 || p.Start > len(src) {
			t.Fatalf("ScanPartial(%q).Start = %d out of range", src, p.Start)
		}
		if p.Current != "" && p.Quote == 0 && utf8.ValidString(src) && !strings.ContainsAny(src[p.Start:], "\\'\"") && src[p.Start:] != p.Current {
			t.Fatalf("ScanPartial(%q): current %q is not the text from %d", src, p.Current, p.Start)
		}
		s, err := Parse(src)
		if err != nil || len(s.Lists) == 0 {
			return
		}
		l := s.Lists[len(s.Lists)-1]
		pl := l.Pipelines[len(l.Pipelines)-1]
		c := pl.Commands[len(pl.Commands)-1]
		w := c.Words[len(c.Words)-1]
		if w.End == len(src) && (p.Current != w.Value || p.Start != w.Pos.Offset || len(p.Words) != len(c.Words)-1) {
			t.Fatalf("ScanPartial(%q) = %+v; the parse ends with word %+v of %q", src, p, *w, c.Args())
		}
	})
}

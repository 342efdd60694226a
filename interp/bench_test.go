package interp

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

var (
	bigOnce  sync.Once
	bigText  Value
	bigArray Value
)

// bigValues builds a 50 MB text (about 800,000 log lines) and a 50 MB array of
// objects, once.
func bigValues() (Value, Value) {
	bigOnce.Do(func() {
		var b strings.Builder
		for i := 0; b.Len() < 50<<20; i++ {
			fmt.Fprintf(&b, "2026-11-30T01:%02d:%02d level=info svc=api-%d msg=\"request served\" id=%d\n", i%60, i%60, i%7, i)
		}
		bigText = Value{Text: b.String()}
		var a strings.Builder
		a.WriteByte('[')
		for i := 0; a.Len() < 50<<20; i++ {
			if i > 0 {
				a.WriteString(", ")
			}
			fmt.Fprintf(&a, `{"id": %d, "name": "monitor-%d", "tags": ["team:core", "env:prod"], "status": "OK"}`, i, i)
		}
		a.WriteByte(']')
		bigArray = Value{JSON: []byte(a.String()), IsJSON: true}
	})
	return bigText, bigArray
}

func benchFilter(b *testing.B, args string, array bool) {
	text, arr := bigValues()
	in := text
	if array {
		in = arr
	}
	f, err := newFilter(strings.Fields(args))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in.Text) + len(in.JSON)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := f.run(context.Background(), fakeRenderer{}, in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGrepText(b *testing.B)       { benchFilter(b, "grep id=12345", false) }
func BenchmarkGrepTextRegexp(b *testing.B) { benchFilter(b, "grep -E svc=api-[35].*id=9", false) }
func BenchmarkGrepTextRegexpSelective(b *testing.B) {
	benchFilter(b, "grep -E msg=.*id=12345[0-9]$", false)
}
func BenchmarkGrepTextIgnoreCase(b *testing.B) { benchFilter(b, "grep -i REQUEST", false) }
func BenchmarkGrepFixedText(b *testing.B)      { benchFilter(b, "grep -F id=12345", false) }
func BenchmarkGrepArray(b *testing.B)          { benchFilter(b, "grep monitor-12345", true) }
func BenchmarkWCText(b *testing.B)             { benchFilter(b, "wc", false) }
func BenchmarkWCArray(b *testing.B)            { benchFilter(b, "wc", true) }
func BenchmarkHeadText(b *testing.B)           { benchFilter(b, "head -n 10", false) }
func BenchmarkHeadArray(b *testing.B)          { benchFilter(b, "head -n 10", true) }
func BenchmarkTailText(b *testing.B)           { benchFilter(b, "tail -n 10", false) }
func BenchmarkTailArray(b *testing.B)          { benchFilter(b, "tail -n 10", true) }

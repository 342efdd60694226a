package curated

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/testtier"
)

// runStream writes text to a Stream in random chunks.
func runStream(t *testing.T, command, text string, opts ReformatOptions, seed int64) (string, StreamEnd) {
	t.Helper()
	var out bytes.Buffer
	s := NewStream(&out, mustSpec(command), opts)
	rng := rand.New(rand.NewSource(seed))
	for p := []byte(text); len(p) > 0; {
		n := 1 + rng.Intn(min(len(p), 1<<20))
		if _, err := s.Write(p[:n]); err != nil {
			t.Fatal(err)
		}
		p = p[n:]
	}
	end, err := s.Close()
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), end
}

func bigRead(size int, notice string) string {
	var b strings.Builder
	for i := 1; b.Len() < size; i++ {
		if i > 1 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%6d|line %d of a big file", i, i)
	}
	if notice != "" {
		b.WriteString("\n\n" + notice)
	}
	return b.String()
}

func bigGrep(size int) string {
	var b strings.Builder
	b.WriteString("Found 123 matching lines\n")
	for f := 0; b.Len() < size; f++ {
		if f > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "dir/file%d.go\n", f)
		for n := 1; n < 40; n += 3 {
			fmt.Fprintf(&b, "%d-context\n%d:match here\n", n, n+1)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestStreamMatchesWhole: held, a text in the format is reformatted
// exactly as the whole-text reformatter does (line by line past HoldLimit:
// TestStreamMatchesWholeBig).
func TestStreamMatchesWhole(t *testing.T) {
	testStreamMatchesWhole(t, []streamCase{
		{"read", bigRead(1000, ""), ReformatOptions{}, 0},
		{"read", "File is empty.", ReformatOptions{}, 1},
		{"read", "not numbered", ReformatOptions{}, 2},
		{"grep", "No matches found", ReformatOptions{}, 3},
		{"read", bigRead(1000, ""), ReformatOptions{Numbers: true}, 8},
		// Held in several chunks (the first is 64 KiB), lines cut at
		// their ends; the second is not in the format from its last line.
		{"read", bigRead(1<<20, "[Showing lines 1-9 of 99. Use offset=10 to continue.]"), ReformatOptions{}, 12},
		{"read", bigRead(300<<10, "") + "\nnot numbered", ReformatOptions{}, 13},
		{"grep", bigGrep(200 << 10), ReformatOptions{}, 14},
	})
}

// TestStreamMatchesWholeBig: past HoldLimit, reformatted line by line, a
// text in the format comes out exactly as the whole-text reformatter makes
// it (a big test: docs/testing.md#tiers).
func TestStreamMatchesWholeBig(t *testing.T) {
	testtier.Big(t)
	testStreamMatchesWhole(t, []streamCase{
		{"read", bigRead(HoldLimit+3<<20, ""), ReformatOptions{}, 4},
		{"read", bigRead(HoldLimit+3<<20, "[Showing lines 1-9 of 99. Use offset=10 to continue.]"), ReformatOptions{}, 5},
		{"grep", bigGrep(HoldLimit + 2<<20), ReformatOptions{Context: true}, 6},
		{"grep", bigGrep(HoldLimit+2<<20) + "\n", ReformatOptions{}, 7},
		{"read", bigRead(HoldLimit+3<<20, ""), ReformatOptions{Numbers: true}, 9},
		{"read", bigRead(HoldLimit+3<<20, "") + "\n999999|", ReformatOptions{Numbers: true}, 10},
		{"read", bigRead(HoldLimit+3<<20, "[Showing lines 1-9 of 99. Use offset=10 to continue.]"), ReformatOptions{Numbers: true}, 11},
	})
}

// streamCase is one text through a Stream, written in chunks cut by the
// random source of seed (which also numbers the case in failures).
type streamCase struct {
	command, text string
	opts          ReformatOptions
	seed          int64
}

func testStreamMatchesWhole(t *testing.T, cases []streamCase) {
	t.Helper()
	for _, c := range cases {
		want, ok := Reformat(c.command, c.text, c.opts)
		got, end := runStream(t, c.command, c.text, c.opts, c.seed)
		if !ok {
			if got != c.text || !end.Verbatim {
				t.Errorf("case %d: not in the format, got %.80q verbatim=%v", c.seed, got, end.Verbatim)
			}
			continue
		}
		if got != want.Stdout {
			t.Errorf("case %d (%s, %d bytes): output differs at %d", c.seed, c.command, len(c.text), firstDiff(got, want.Stdout))
		}
		if !reflect.DeepEqual(end.Notes, want.Notes) || end.Status != want.Status || end.Verbatim {
			t.Errorf("case %d: end %+v, want notes %q status %d", c.seed, end, want.Notes, want.Status)
		}
	}
}

// TestStreamVerbatimFromBadLineBig: past HoldLimit, from the first line not
// in the format the rest prints as received, with one note.
func TestStreamVerbatimFromBadLineBig(t *testing.T) {
	testtier.Big(t)
	good := bigRead(HoldLimit+1<<20, "")
	text := good + "\nnot a numbered line\n     7|numbered again\n\n[Showing lines 1-9 of 99. Use offset=10 to continue.]"
	whole, _ := ReformatRead(good, false)
	got, end := runStream(t, "read", text, ReformatOptions{}, 7)
	want := whole.Stdout + "\nnot a numbered line\n     7|numbered again\n\n[Showing lines 1-9 of 99. Use offset=10 to continue.]"
	if got != want {
		t.Fatalf("output differs at %d", firstDiff(got, want))
	}
	if len(end.Notes) != 1 || !strings.Contains(end.Notes[0], "not in its usual format") || !end.Verbatim {
		t.Fatalf("end %+v", end)
	}
	// The same in the middle of the text.
	text = good + "\nbad line\n" + good
	got, end = runStream(t, "read", text, ReformatOptions{}, 8)
	if want := whole.Stdout + "\nbad line\n" + good; got != want {
		t.Fatalf("middle: output differs at %d", firstDiff(got, want))
	}
	if len(end.Notes) != 1 {
		t.Fatalf("notes %q", end.Notes)
	}
	// A final newline is a last line that is not numbered.
	got, end = runStream(t, "read", good+"\n", ReformatOptions{}, 9)
	if want := whole.Stdout + "\n"; got != want || len(end.Notes) != 1 || !end.Verbatim {
		t.Fatalf("final newline: differs at %d, end %+v", firstDiff(got, want), end)
	}
}

func firstDiff(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestStreamHoldFlatBig: holding the first HoldLimit bytes allocates less
// than one and a half times them in all (the held chunks are written once, none copied
// into a larger one: growing one buffer would allocate twice the text in
// fresh pages), and once the text is reformatted line by line the held
// chunks are let go.
func TestStreamHoldFlatBig(t *testing.T) {
	testtier.Big(t)
	text := []byte(bigRead(2*HoldLimit, ""))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := NewStream(io.Discard, mustSpec("read"), ReformatOptions{})
	for p := text; len(p) > 0; {
		n := min(len(p), 64<<10)
		if _, err := s.Write(p[:n]); err != nil {
			t.Fatal(err)
		}
		p = p[n:]
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 3*HoldLimit/2 {
		t.Errorf("%d MiB allocated to hold %d MiB", alloc>>20, HoldLimit>>20)
	}
	if kept := cap(s.own[0]) + cap(s.own[1]) + cap(s.part) + heldCap(s); !s.lines || kept > 1<<20 {
		t.Errorf("line by line %v, keeping buffers of %d KiB", s.lines, kept>>10)
	}
	if _, err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// heldCap is the capacity of the chunks s holds.
func heldCap(s *Stream) int {
	n := 0
	for _, c := range s.held {
		n += cap(c)
	}
	return n
}

// BenchmarkReadStream50MB reformats a 50 MB read result line by line as it
// streams (64 KiB writes).
func BenchmarkReadStream50MB(b *testing.B) {
	text := []byte(bigRead(50<<20, ""))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewStream(io.Discard, mustSpec("read"), ReformatOptions{})
		for p := text; len(p) > 0; {
			n := min(len(p), 64<<10)
			s.Write(p[:n])
			p = p[n:]
		}
		s.Close()
	}
}

// TestStreamLongLineBig: past HoldLimit, a line longer than HoldLimit is not
// held until its newline (a deployment could send one that never ends):
// the lines before it are reformatted, and from it on the rest prints as
// received, with one note; the stream holds no more than about HoldLimit
// whatever the line's length: memory stays bounded.
func TestStreamLongLineBig(t *testing.T) {
	testtier.Big(t)
	for _, command := range []string{"read", "grep"} {
		good := bigRead(HoldLimit+1<<20, "")
		if command == "grep" {
			good = bigGrep(HoldLimit + 1<<20)
		}
		whole, _ := Reformat(command, good, ReformatOptions{})
		long, after := "     9|"+strings.Repeat("x", 3*HoldLimit), "    10|after"
		if command == "grep" {
			long, after = "9:"+strings.Repeat("x", 3*HoldLimit), "10:after"
		}
		text := good + "\n" + long + "\n" + after
		var out bytes.Buffer
		s := NewStream(&out, mustSpec(command), ReformatOptions{})
		held := 0
		for p := []byte(text); len(p) > 0; {
			n := min(len(p), 64<<10)
			if _, err := s.Write(p[:n]); err != nil {
				t.Fatal(err)
			}
			held = max(held, cap(s.part)+cap(s.own[0])+cap(s.own[1]), heldCap(s))
			p = p[n:]
		}
		end, err := s.Close()
		if err != nil {
			t.Fatal(err)
		}
		sep := "\n"
		if command == "grep" {
			sep = ""
		}
		if want := whole.Stdout + sep + long + "\n" + after; out.String() != want {
			t.Errorf("%s: output differs at %d of %d", command, firstDiff(out.String(), want), len(want))
		}
		if len(end.Notes) != 1 || !strings.Contains(end.Notes[0], "longer than 8 MiB") || !end.Verbatim {
			t.Errorf("%s: end %+v", command, end)
		}
		if held > 3*HoldLimit {
			t.Errorf("%s: the stream held %d MiB for a line of %d MiB", command, held>>20, len(long)>>20)
		}
	}
}

// TestStreamSmallWritesBig: past HoldLimit, lines cut by writes of any size
// (a byte, a few lines) are reformatted as the whole text is, and a line
// not in the format turns the rest verbatim wherever the cut falls (the
// lines waiting from the last write, or those of this one).
func TestStreamSmallWritesBig(t *testing.T) {
	testtier.Big(t)
	good := bigRead(HoldLimit+4<<10, "")
	whole, _ := ReformatRead(good, false)
	notice := "\n\n[Showing lines 1-9 of 99. Use offset=10 to continue.]"
	wholeNoticed, _ := ReformatRead(good+notice, false)
	tail := "\nnot a numbered line\n     7|numbered again\n\n[Showing lines 1-9 of 99. Use offset=10 to continue.]"
	for seed := int64(0); seed < 12; seed++ {
		for _, c := range []struct{ text, want string }{
			{good, whole.Stdout},
			{good + notice, wholeNoticed.Stdout},
			{good + tail, whole.Stdout + tail},
		} {
			var out bytes.Buffer
			s := NewStream(&out, mustSpec("read"), ReformatOptions{})
			rng := rand.New(rand.NewSource(seed))
			if _, err := s.Write([]byte(c.text[:HoldLimit-1000])); err != nil {
				t.Fatal(err)
			}
			for p := []byte(c.text[HoldLimit-1000:]); len(p) > 0; {
				n := 1 + rng.Intn(min(len(p), 1+int(seed)*20))
				if _, err := s.Write(p[:n]); err != nil {
					t.Fatal(err)
				}
				p = p[n:]
			}
			if _, err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != c.want {
				t.Fatalf("seed %d, %d bytes: output differs at %d", seed, len(c.text), firstDiff(got, c.want))
			}
		}
	}
}

// TestStreamDeclared: told that the answer is declared longer than
// HoldLimit from the text on, the stream holds DeclaredHold at most: a
// text in the format comes out as the whole-text reformatter makes it
// (held whole when it is that short, else line by line), and a longer one
// that is not prints as received from its first bad line, with the note of
// the line-by-line rule. Told HoldLimit or less, it holds as before.
func TestStreamDeclared(t *testing.T) {
	for i, c := range []streamCase{
		{"read", bigRead(300<<10, ""), ReformatOptions{}, 1},
		{"read", bigRead(300<<10, "[Showing lines 1-9 of 99. Use offset=10 to continue.]"), ReformatOptions{Numbers: true}, 2},
		{"read", "File is empty.", ReformatOptions{}, 3},
		{"grep", bigGrep(200 << 10), ReformatOptions{}, 4},
		{"grep", "No matches found", ReformatOptions{}, 5},
	} {
		want, ok := Reformat(c.command, c.text, c.opts)
		if !ok {
			t.Fatalf("case %d: not in the format", i)
		}
		var out bytes.Buffer
		s := NewStream(&out, mustSpec(c.command), c.opts)
		s.Declared(HoldLimit + 1)
		for p := []byte(c.text); len(p) > 0; {
			n := min(len(p), 64<<10)
			if _, err := s.Write(p[:n]); err != nil {
				t.Fatal(err)
			}
			if held := heldCap(s); held > DeclaredHold {
				t.Fatalf("case %d: holding %d bytes", i, held)
			}
			p = p[n:]
		}
		end, err := s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := out.String(); got != want.Stdout {
			t.Errorf("case %d: output differs at %d", i, firstDiff(got, want.Stdout))
		}
		if !reflect.DeepEqual(end.Notes, want.Notes) || end.Status != want.Status || end.Verbatim {
			t.Errorf("case %d: end %+v, want notes %q status %d", i, end, want.Notes, want.Status)
		}
	}
	text := bigRead(DeclaredHold, "") + "\nnot numbered\n     3|three"
	good, _ := ReformatRead(bigRead(DeclaredHold, ""), false)
	for _, declared := range []int64{HoldLimit + 1, HoldLimit, 0} {
		var out bytes.Buffer
		s := NewStream(&out, mustSpec("read"), ReformatOptions{})
		s.Declared(declared)
		for p := []byte(text); len(p) > 0; {
			n := min(len(p), 16<<10)
			if _, err := s.Write(p[:n]); err != nil {
				t.Fatal(err)
			}
			p = p[n:]
		}
		end, err := s.Close()
		if err != nil {
			t.Fatal(err)
		}
		want, notes := text, 0 // held: verbatim whole, no note
		if declared > HoldLimit {
			want, notes = good.Stdout+"\nnot numbered\n     3|three", 1
		}
		if got := out.String(); got != want || len(end.Notes) != notes || !end.Verbatim {
			t.Errorf("declared %d: output differs at %d, end %+v", declared, firstDiff(got, want), end)
		}
	}
}

// countWriter counts the writes it takes.
type countWriter struct {
	bytes.Buffer
	writes int
}

func (c *countWriter) Write(p []byte) (int, error) { c.writes++; return c.Buffer.Write(p) }

// TestStreamWritesGathered: past the hold, reformatted output is written
// in pieces of 256 KiB (a write at the end of each chunk read besides),
// not one write a line or a small buffer's worth.
func TestStreamWritesGathered(t *testing.T) {
	text := bigRead(4<<20, "")
	var out countWriter
	s := NewStream(&out, mustSpec("read"), ReformatOptions{})
	s.Declared(HoldLimit + 1)
	chunks := 0
	for p := []byte(text); len(p) > 0; chunks++ {
		n := min(len(p), 1<<20)
		if _, err := s.Write(p[:n]); err != nil {
			t.Fatal(err)
		}
		p = p[n:]
	}
	if _, err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if most := out.Len()/(256<<10) + chunks + 1; out.writes > most {
		t.Fatalf("%d writes for %d bytes in %d chunks, want %d at most", out.writes, out.Len(), chunks, most)
	}
}

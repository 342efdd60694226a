package jsontext

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// runsOf joins what a StringStream hands on: runs, '\n' where a line
// breaks; each run copied at once (it is valid until EndRuns only).
type runsOf struct {
	out  bytes.Buffer
	runs []string // this chunk's runs, checked unchanged at EndRuns
	held [][]byte
}

func (r *runsOf) WriteRun(text []byte, nl bool) error {
	r.out.Write(text)
	if nl {
		r.out.WriteByte('\n')
	}
	r.runs = append(r.runs, string(text))
	r.held = append(r.held, text)
	return nil
}

func (r *runsOf) EndRuns() error {
	for i, h := range r.held {
		if string(h) != r.runs[i] {
			panic("a run changed before EndRuns: " + r.runs[i])
		}
	}
	r.runs, r.held = r.runs[:0], r.held[:0]
	return nil
}

// plainRunsOf is runsOf told the plain runs apart: each must be plain.
type plainRunsOf struct {
	runsOf
	bad string // a run said to be plain that is not
}

func (r *plainRunsOf) WritePlainRun(text []byte, nl bool) error {
	for _, c := range text {
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			r.bad = string(text)
		}
	}
	return r.WriteRun(text, nl)
}

// streamChunks feeds content (a token without its opening quote, and what
// follows it) in chunks cut picks: the decoded text, the closing quote's
// offset in content (-1: none or a bad string).
func streamChunks(content []byte, cut func(int) int) (string, int) {
	return streamChunksTo(content, cut, &runsOf{}, func() *bytes.Buffer { return nil })
}

// streamChunksTo is streamChunks into w; out is w's text.
func streamChunksTo(content []byte, cut func(int) int, w RunWriter, out func() *bytes.Buffer) (string, int) {
	var d StringStream
	if r, ok := w.(*runsOf); ok {
		out = func() *bytes.Buffer { return &r.out }
	}
	for off := 0; off < len(content); {
		n := cut(len(content) - off)
		k, done, _, err := d.Feed(content[off:off+n], w)
		if err != nil {
			return "", -1
		}
		if done {
			if err := d.End(w); err != nil {
				return "", -1
			}
			return out().String(), off + k
		}
		off += n
	}
	return "", -1
}

// checkStream: however content is cut, StringStream ends where StringEnd
// does, accepts what it accepts, and decodes what Unquote decodes.
func checkStream(t *testing.T, content []byte, step int) {
	t.Helper()
	tok := append([]byte{'"'}, content...)
	end, ok := StringEnd(tok, 0)
	wantAt, want := -1, ""
	if ok {
		wantAt = end - 2
		want = Unquote(tok[:end])
	}
	for _, cut := range []func(int) int{
		func(n int) int { return n },
		func(n int) int { return min(n, step%7+1) },
		func(n int) int { return min(n, step+1) },
	} {
		got, at := streamChunks(content, cut)
		if at != wantAt || got != want {
			t.Fatalf("%q (step %d): decoded %q, quote at %d; want %q at %d", content, step, got, at, want, wantAt)
		}
		// Told the plain runs apart: the same text, and those runs plain.
		pw := &plainRunsOf{}
		got, at = streamChunksTo(content, cut, pw, func() *bytes.Buffer { return &pw.out })
		if at != wantAt || got != want || pw.bad != "" {
			t.Fatalf("%q (step %d), plain runs told apart: decoded %q, quote at %d, a run not plain %q; want %q at %d",
				content, step, got, at, pw.bad, want, wantAt)
		}
	}
}

func TestStringStream(t *testing.T) {
	for _, s := range []string{
		`abc"`, `a\nb\"c\\"x`, `\u00e9\ud83d\ude00"`, "a\x01b\"", `a\qb"`, `\u12g4"`,
		`long run with no escape at all, more than sixteen bytes"`, "tab\there\"", `ends in backslash\`,
		`"`, `\"`, `\n\n\n"`, `x\u000ay"`, `\ud83d"`, `\ud83d\n"`, `\ud83dx"`, `\ud83d\u0041"`, `\udc00\ud83d"`,
		"caf\xc3\xa9\"", "bad \xff utf8\"", "bad \xff then \\n escape\"", "\\n then bad \xff\"",
		"cut \xe2\x82", "cut \xe2\x82\xac euro\"", "bad \xe2\x82 seq\"", "\xff\xfe\\t\"", "\xff only\"",
		`\/\b\f\r\t"`, `\u"`, `\u12`, "x\x7f\"",
	} {
		for step := 0; step < 14; step++ {
			checkStream(t, []byte(s), step)
		}
	}
	// Random tokens of the pieces a text result is made of.
	pieces := []string{"a", "line text ", `\n`, `\"`, `\\`, `\t`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, "é", "\xe2\x82\xac",
		"\xff", `\u000a`, strings.Repeat("x", 40), "     7|", `\/`}
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 2000; n++ {
		var b strings.Builder
		for k := rng.Intn(30); k > 0; k-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		b.WriteString(`"rest`)
		checkStream(t, []byte(b.String()), rng.Intn(20))
	}
}

// FuzzStringStream: StringStream, however the answer is cut, accepts
// exactly the string tokens encoding/json accepts, ends at their closing
// quote and decodes them as Unquote does.
func FuzzStringStream(f *testing.F) {
	for _, s := range []string{`abc"`, `a\nb\"c\\"x`, `\u00e9\ud83d\ude00"`, `a` + "\x01" + `b"`, `a\qb"`, `\u12g4"`,
		`long run with no escape at all, more than sixteen bytes"`, "tab\there\"", `ends in backslash\`, `"`, `\"`,
		"bad \xff then \\n escape\"", `\ud83d\n"`} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, content []byte, step uint8) {
		checkStream(t, content, int(step))
	})
}

type nopRuns struct{}

func (nopRuns) WriteRun([]byte, bool) error { return nil }
func (nopRuns) EndRuns() error              { return nil }

// BenchmarkStringStream reads 50 MB of read-style content (a numbered line
// of about 70 bytes, then an escaped newline) in 1 MiB chunks.
func BenchmarkStringStream(b *testing.B) {
	var t bytes.Buffer
	for i := 1; t.Len() < 50<<20; i++ {
		t.WriteString(`  1234|log line of the big file, with some text to make it longer\n`)
	}
	t.WriteByte('"')
	content := t.Bytes()
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		var d StringStream
		for p := content; len(p) > 0; {
			n := min(len(p), 1<<20)
			if _, done, _, err := d.Feed(p[:n], nopRuns{}); err != nil || done {
				break
			}
			p = p[n:]
		}
	}
}

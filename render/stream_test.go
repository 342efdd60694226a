package render

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// streamCases are string results (JSON tokens, quotes included).
var streamCases = []string{
	`""`, `"a"`, `"   "`, `" \n\t "`, `"hello\nworld"`, `"no newline at end"`, `"ends\n"`,
	`"     1|package main\n     2|\n     3|func main() {}"`,
	`"crlf\r\nline\r\n"`, `"lone\rcr"`, `"ctl \u001b[31m red \u0007 bel"`, `"del \u007f c1 \u0085 \u009b"`,
	`"c1 raw ` + "\u0085\u009b" + ` end"`, `"del raw ` + "\x7f" + `"`,
	`"pair \ud83d\ude00 ok"`, `"lone high \ud83d end"`, `"lone low \ude00 end"`, `"high then high \ud83d\ud83d\ude00"`,
	`"high at end \ud83d"`, `"escapes \" \\ \/ \b \f"`, `"ls \u2028 ps \u2029 raw ` + "\u2028" + `"`,
	`"html <>&"`, `"` + "bad \xff utf8 no escape" + `"`, `"` + "bad \xff utf8 then escape \\n" + `"`,
	`"` + "\\n escape then bad \xff utf8" + `"`, `"` + "cut \xe2\x82 rune" + `"`, `"` + "ok \xe2\x82\xac euro" + `"`,
	`"{\"a\":1}"`, `"  [1,2,3]  "`, `"[not json"`, `"{\"x\": [1, {\"y\": \"z\"}]}"`, `"[Showing lines 1-2]"`,
	`"\u00a0{\"a\":1}"`, `"\u00a0 text after nbsp"`, `"\u0085[1]"`, `"\t\n"`,
	`"caf\u00e9 \u4e16\u754c ` + "世界" + `"`,
}

// streamed feeds a string token's content to a ResultStream in random
// chunks; held text goes the usual way, as the caller does.
func streamed(t *testing.T, token string, rng *rand.Rand, sink func(*bytes.Buffer) TextSink, whole func(*bytes.Buffer, Value)) []byte {
	t.Helper()
	var out bytes.Buffer
	s := NewResultStream(sink(&out))
	content := []byte(token[1 : len(token)-1])
	for len(content) > 0 {
		n := 1 + rng.Intn(min(len(content), 9))
		if _, err := s.Write(append([]byte(nil), content[:n]...)); err != nil {
			t.Fatal(err)
		}
		content = content[n:]
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if v, ok := s.Held(); ok {
		if out.Len() != 0 {
			t.Fatalf("%q: held, but %q was written", token, out.String())
		}
		whole(&out, v)
	}
	return out.Bytes()
}

// TestResultStreamIdentical: a streamed string result writes the bytes the
// whole value writes, in the text view (piped and on a terminal) and as
// --output json, however the token is cut.
func TestResultStreamIdentical(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	cases := append([]string(nil), streamCases...)
	// Random tokens from pieces.
	pieces := []string{"a", " ", "\\n", "\\r\\n", "\\u001b", "\\ud83d", "\\ude00", "\\ud83d\\ude00", "\xff", "\xe2\x82", "\xe2\x82\xac",
		"\\\"", "\\\\", "\\/", "\\u00e9", "\u0085", "\x7f", "{", "[", "\\t", "\\u2028", "é", "\\b"}
	for i := 0; i < 400; i++ {
		var b strings.Builder
		b.WriteByte('"')
		for j := rng.Intn(12); j >= 0; j-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		b.WriteByte('"')
		cases = append(cases, b.String())
	}
	for _, tok := range cases {
		if !wholeToken(tok) {
			t.Fatalf("bad case %q", tok)
		}
		for _, tty := range []bool{false, true} {
			o := Options{TTY: tty}
			var want bytes.Buffer
			if err := Write(&want, &want, FromResult(json.RawMessage(tok)), o); err != nil {
				t.Fatal(err)
			}
			for k := 0; k < 3; k++ {
				got := streamed(t, tok, rng, func(b *bytes.Buffer) TextSink { return TextStreamSink(b, o) },
					func(b *bytes.Buffer, v Value) { _ = Write(b, b, v, o) })
				if !bytes.Equal(got, want.Bytes()) {
					t.Fatalf("%q tty=%v:\n got %q\nwant %q", tok, tty, got, want.Bytes())
				}
			}
		}
		want := encodedJSON(t, FromResult(json.RawMessage(tok)))
		for k := 0; k < 3; k++ {
			got := streamed(t, tok, rng, func(b *bytes.Buffer) TextSink { return JSONStringSink(b) },
				func(b *bytes.Buffer, v Value) { _ = WriteJSON(b, v) })
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("%q json:\n got %q\nwant %q", tok, got, want.Bytes())
			}
			var whole bytes.Buffer
			if err := WriteJSON(&whole, FromResult(json.RawMessage(tok))); err != nil || !bytes.Equal(whole.Bytes(), want.Bytes()) {
				t.Fatalf("%q WriteJSON:\n got %q\nwant %q", tok, whole.Bytes(), want.Bytes())
			}
		}
	}
}

func FuzzResultStream(f *testing.F) {
	for _, c := range streamCases {
		f.Add([]byte(c[1:len(c)-1]), int64(1))
	}
	f.Fuzz(func(t *testing.T, content []byte, seed int64) {
		tok := "\"" + string(content) + "\""
		if !wholeToken(tok) {
			return
		}
		rng := rand.New(rand.NewSource(seed))
		for _, tty := range []bool{false, true} {
			o := Options{TTY: tty}
			var want bytes.Buffer
			_ = Write(&want, &want, FromResult(json.RawMessage(tok)), o)
			got := streamed(t, tok, rng, func(b *bytes.Buffer) TextSink { return TextStreamSink(b, o) },
				func(b *bytes.Buffer, v Value) { _ = Write(b, b, v, o) })
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("tty=%v:\n got %q\nwant %q", tty, got, want.Bytes())
			}
		}
		want := encodedJSON(t, FromResult(json.RawMessage(tok)))
		got := streamed(t, tok, rng, func(b *bytes.Buffer) TextSink { return JSONStringSink(b) },
			func(b *bytes.Buffer, v Value) { _ = WriteJSON(b, v) })
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("json:\n got %q\nwant %q", got, want.Bytes())
		}
	})
}

// wholeToken: tok is one valid JSON string token.
func wholeToken(tok string) bool {
	end, ok := jsontext.StringEnd([]byte(tok), 0)
	return ok && end == len(tok)
}

// encodedJSON is --output json of v as encoding/json encodes a text (then
// made safe), the reference of the streamed and piecewise encodings.
func encodedJSON(t *testing.T, v Value) *bytes.Buffer {
	t.Helper()
	var out bytes.Buffer
	if v.IsJSON {
		if err := WriteJSON(&out, v); err != nil {
			t.Fatal(err)
		}
		return &out
	}
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v.Text); err != nil {
		t.Fatal(err)
	}
	res := append(appendIndented(nil, bytes.TrimSpace(out.Bytes())), '\n')
	return bytes.NewBuffer(res)
}

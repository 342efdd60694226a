package iostreams

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// chunks is a reader that answers one chunk per Read, then err.
type chunks struct {
	parts []string
	err   error
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, c.err
	}
	n := copy(p, c.parts[0])
	c.parts[0] = c.parts[0][n:]
	if c.parts[0] == "" {
		c.parts = c.parts[1:]
	}
	return n, nil
}

func TestRedactReader(t *testing.T) {
	cases := []struct {
		name  string
		parts []string
		want  string
	}{
		{"whole", []string{`{"text":"key s3cr3t-value end"}`}, `{"text":"key *** end"}`},
		{"split", []string{"key s3cr", "3t-value end"}, "key *** end"},
		{"split thrice", []string{"s3", "cr3t-val", "ue"}, "***"},
		{"prefix only", []string{"s3cr3", "x"}, "s3cr3x"},
		{"prefix at end", []string{"abc s3cr"}, "abc s3cr"},
		{"twice", []string{"s3cr3t-values3cr3t-value"}, "******"},
		{"other secret", []string{"a other-key b"}, "a *** b"},
		{"no secret", []string{"plain ", "text"}, "plain text"},
		{"empty", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewRedactReader(&chunks{parts: append([]string(nil), c.parts...), err: io.EOF}, "s3cr3t-value", "other-key", "ab")
			b, err := io.ReadAll(r)
			if err != nil || string(b) != c.want {
				t.Errorf("got %q, %v; want %q", b, err, c.want)
			}
			// One byte at a time reads the same.
			r = NewRedactReader(iotest.OneByteReader(strings.NewReader(strings.Join(c.parts, ""))), "s3cr3t-value", "other-key")
			if b, err := io.ReadAll(iotest.OneByteReader(r)); err != nil || string(b) != c.want {
				t.Errorf("byte by byte: got %q, %v; want %q", b, err, c.want)
			}
		})
	}
}

// The underlying error comes after every byte before it, unchanged.
func TestRedactReaderError(t *testing.T) {
	boom := errors.New("boom")
	r := NewRedactReader(&chunks{parts: []string{"x s3cr3t-value y s3cr"}, err: boom}, "s3cr3t-value")
	b, err := io.ReadAll(r)
	if string(b) != "x *** y s3cr" || err != boom {
		t.Errorf("got %q, %v", b, err)
	}
	if n, err := r.Read(make([]byte, 4)); n != 0 || err != boom {
		t.Errorf("after the end: %d, %v", n, err)
	}
}

// A secret that begins a longer one is masked after it: the longer one
// leaves no tail in the clear, whatever the order they are given in.
func TestRedactLongestFirst(t *testing.T) {
	for _, secrets := range [][]string{{"abcd", "abcdef-long"}, {"abcdef-long", "abcd"}} {
		var out strings.Builder
		w := NewRedactor(&out, secrets...)
		w.Write([]byte("x abcdef-long y abcd z"))
		w.Flush()
		r, _ := io.ReadAll(NewRedactReader(strings.NewReader("x abcdef-long y abcd z"), secrets...))
		for what, got := range map[string]string{"Redactor": out.String(), "RedactReader": string(r),
			"Redact": Redact("x abcdef-long y abcd z", secrets...)} {
			if got != "x *** y *** z" {
				t.Errorf("%s with %q: got %q", what, secrets, got)
			}
		}
	}
}

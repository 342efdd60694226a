package iostreams

import (
	"bytes"
	"strings"
	"testing"
)

func TestRedactor(t *testing.T) {
	cases := []struct {
		name   string
		writes []string
		want   string
	}{
		{"whole", []string{"token=s3cr3t-value end"}, "token=*** end"},
		{"split", []string{"token=s3cr", "3t-value end"}, "token=*** end"},
		{"split thrice", []string{"s3", "cr3t-val", "ue"}, "***"},
		{"prefix only", []string{"s3cr3", "x"}, "s3cr3x"},
		{"held at end", []string{"abc s3cr"}, "abc s3cr"},
		{"twice", []string{"s3cr3t-values3cr3t-value"}, "******"},
		{"no secret", []string{"plain ", "text"}, "plain text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			r := NewRedactor(&out, "s3cr3t-value")
			for _, w := range c.writes {
				if n, err := r.Write([]byte(w)); err != nil || n != len(w) {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if err := r.Flush(); err != nil {
				t.Fatal(err)
			}
			if out.String() != c.want {
				t.Errorf("got %q, want %q", out.String(), c.want)
			}
		})
	}
}

func TestRedactorShortSecretIgnored(t *testing.T) {
	var out bytes.Buffer
	r := NewRedactor(&out, "ab", "")
	r.Write([]byte("abc"))
	if out.String() != "abc" {
		t.Errorf("got %q", out.String())
	}
	if got := Redact("x s3cr3t-value y", "s3cr3t-value"); strings.Contains(got, "s3cr3t") {
		t.Errorf("Redact left the secret: %q", got)
	}
}

func TestColorPolicy(t *testing.T) {
	env := func(m map[string]string) Getenv { return func(k string) string { return m[k] } }
	cases := []struct {
		env  map[string]string
		tty  bool
		want bool
	}{
		{nil, true, true},
		{nil, false, false},
		{map[string]string{"NO_COLOR": "1"}, true, false},
		{map[string]string{"NO_COLOR": ""}, true, true},
		{map[string]string{"CLICOLOR_FORCE": "1"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "0"}, false, false},
		{map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, true, false},
		{map[string]string{"TERM": "dumb"}, true, false},
		{map[string]string{"TERM": "dumb", "CLICOLOR_FORCE": "1"}, false, true},
		// FORCE_COLOR is CLICOLOR_FORCE's peer; CLICOLOR=0 comes after both.
		{map[string]string{"FORCE_COLOR": "1"}, false, true},
		{map[string]string{"FORCE_COLOR": "3"}, false, true},
		{map[string]string{"FORCE_COLOR": "0"}, false, false},
		{map[string]string{"FORCE_COLOR": "0"}, true, true},
		{map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, true, false},
		{map[string]string{"FORCE_COLOR": "1", "CLICOLOR": "0"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "1", "CLICOLOR": "0"}, false, true},
		{map[string]string{"CLICOLOR": "0"}, true, false},
		{map[string]string{"CLICOLOR": "1"}, true, true},
		{map[string]string{"CLICOLOR": "1"}, false, false},
		{map[string]string{"CLICOLOR": ""}, true, true},
		{map[string]string{"FORCE_COLOR": "1", "TERM": "dumb"}, false, true},
		{map[string]string{"CLICOLOR": "0", "TERM": "xterm-256color"}, true, false},
	}
	for _, c := range cases {
		if got := ColorPolicy(env(c.env), c.tty); got != c.want {
			t.Errorf("ColorPolicy(%v, tty=%v) = %v, want %v", c.env, c.tty, got, c.want)
		}
	}
}

// A big write is redacted in pieces: a secret across a piece boundary is
// still masked, and nothing is lost.
func TestRedactorBigWrite(t *testing.T) {
	const secret = "s3cr3t-value"
	for _, at := range []int{0, redactChunk - 5, redactChunk - 1, redactChunk, 3*redactChunk - 7} {
		b := bytes.Repeat([]byte("x"), 4*redactChunk)
		copy(b[at:], secret)
		var out bytes.Buffer
		r := NewRedactor(&out, secret)
		if n, err := r.Write(b); n != len(b) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
		r.Flush()
		want := string(b[:at]) + "***" + string(b[at+len(secret):])
		if out.String() != want {
			t.Errorf("secret at %d: got %d bytes, masked %v", at, out.Len(), !strings.Contains(out.String(), secret))
		}
	}
}

// TestRedactorCopiesOnlyToReplace: a write without a secret and without a
// held tail is passed on where it is (a streamed answer's 64 KiB pieces
// are not copied once more each).
func TestRedactorCopiesOnlyToReplace(t *testing.T) {
	r := NewRedactor(discard{}, "s3cr3t-value")
	p := bytes.Repeat([]byte("plain text, no secret in it\n"), 2300) // under redactChunk
	if allocs := testing.AllocsPerRun(20, func() {
		if _, err := r.Write(p); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("%v allocations per write", allocs)
	}
	var out bytes.Buffer
	r = NewRedactor(&out, "s3cr3t-value")
	in := []byte("a s3cr3t-value b s3cr")
	_, _ = r.Write(in)
	_, _ = r.Write([]byte("3t-value c"))
	_ = r.Flush()
	if out.String() != "a *** b *** c" || string(in) != "a s3cr3t-value b s3cr" {
		t.Errorf("got %q, the write's bytes %q", out.String(), in)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

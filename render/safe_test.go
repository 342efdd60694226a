package render

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"unicode/utf8"
)

func TestSafe(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\twith tab\n", "plain text\twith tab\n"},
		{"héllo 東京 🎉", "héllo 東京 🎉"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"lone\rcr", `lone\x0dcr`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"bell\a", `bell\x07`},
		{"del\x7f", `del\x7f`},
		{"nul\x00", `nul\x00`},
		{"osc\x1b]52;c;aGk=\x07", `osc\x1b]52;c;aGk=\x07`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"c1 \u0085 nel", `c1 \u0085 nel`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"cut \xe6\x9d", `cut \xe6\x9d`},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Safe(tt.in); got != tt.want {
			t.Errorf("Safe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTerminalWriter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"crlf split across writes", []string{"a\r", "\nb"}, "a\nb"},
		{"lone cr at the end is flushed", []string{"a\r"}, `a\x0d`},
		{"cr then text", []string{"a\r", "b"}, `a\x0db`},
		{"utf8 split across writes", []string{"x\xe6\x9d", "\xb1y"}, "x東y"},
		{"truncated utf8 flushed", []string{"x\xe6\x9d"}, `x\xe6\x9d`},
		{"escape", []string{"\x1b[2J", "ok\n"}, `\x1b[2Jok` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := NewTerminalWriter(&buf, true)
			for _, s := range tt.writes {
				n, err := w.Write([]byte(s))
				if err != nil || n != len(s) {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if err := w.(*TerminalWriter).Flush(); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tt.want {
				t.Errorf("got %q, want %q", buf.String(), tt.want)
			}
		})
	}
	var buf bytes.Buffer
	w := NewTerminalWriter(&buf, false)
	w.Write([]byte("\x1b[31mraw\r\n"))
	if buf.String() != "\x1b[31mraw\r\n" {
		t.Errorf("piped output changed: %q", buf.String())
	}
}

// FuzzSafe: what Safe writes is safe (a second pass leaves it), holds no
// control character but newline and tab, and SafeLabel is the same
// escaping.
func FuzzSafe(f *testing.F) {
	for _, s := range []string{"tool_1", "a\tb\nc", "a\x1bb", "del\x7f", "caf\u00e9", "rtl \u202e x", "zw\u200bsp", "\xff", "a\r\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Safe(s)
		if again := Safe(got); again != got {
			t.Fatalf("Safe(%q) = %q is not safe: %q", s, got, again)
		}
		if SafeLabel(s) != got {
			t.Fatalf("SafeLabel(%q) differs from Safe", s)
		}
		for _, r := range got {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || !utf8.ValidString(got) {
				t.Fatalf("Safe(%q) = %q holds %U", s, got, r)
			}
		}
	})
}

// TestIndexAllocs: the help index of 10,000 tools is written into one
// buffer, not a string per row and per line (it was 30,000 allocations).
func TestIndexAllocs(t *testing.T) {
	p := IndexPage{Name: "agent"}
	g := IndexGroup{Name: "conn"}
	for i := 0; i < 10000; i++ {
		row := IndexRow{Name: fmt.Sprintf("tool_%05d", i), Title: fmt.Sprintf("Does thing number %d", i)}
		if i%2 == 0 {
			p.Commands = append(p.Commands, row)
		} else {
			g.Rows = append(g.Rows, row)
		}
	}
	p.Groups = []IndexGroup{g}
	if n := testing.AllocsPerRun(3, func() { _ = WriteIndex(io.Discard, p, Options{Width: 100}) }); n > 1000 {
		t.Errorf("%v allocations for 10,000 rows", n)
	}
}

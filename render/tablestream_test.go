package render

import (
	"fmt"
	"strings"
	"testing"
)

func TestTableStream(t *testing.T) {
	cols := []Column{{Header: "#", Right: true}, {Header: "TIME"}, {Header: "ID", Short: 6}, {Header: "WHAT", Flex: true}}
	rows := [][]string{
		{"0", "03:01:02", "call_0123456789", "read /repo/README.md"},
		{"1", "03:01:02", "", "a message\nwith two lines and \x1b[31mred\x1b[0m and \u202ebidi"},
		{"12", "03:01:03", "call_abcdef0123", strings.Repeat("long ", 30)},
	}
	tests := []struct {
		name string
		o    Options
		hold int
		want string
	}{
		{"wide terminal", Options{TTY: true, Width: 200}, 10,
			" #  TIME      ID               WHAT\n" +
				" 0  03:01:02  call_0123456789  read /repo/README.md\n" +
				" 1  03:01:02                   a message⏎with two lines and \\x1b[31mred\\x1b[0m and \\u202ebidi\n" +
				"12  03:01:03  call_abcdef0123  " + strings.TrimSpace(strings.Repeat("long ", 30)) + "\n"},
		{"narrow terminal", Options{TTY: true, Width: 40}, 10,
			" #  TIME      ID      WHAT\n" +
				" 0  03:01:02  call_0  read /repo/README…\n" +
				" 1  03:01:02          a message⏎with tw…\n" +
				"12  03:01:03  call_a  long long long lo…\n"},
		{"held less than the rows", Options{TTY: true, Width: 200}, 1,
			"#  TIME      ID               WHAT\n" +
				"0  03:01:02  call_0123456789  read /repo/README.md\n" +
				"1  03:01:02                   a message⏎with two lines and \\x1b[31mred\\x1b[0m and \\u202ebidi\n" +
				"12  03:01:03  call_abcdef0123  " + strings.TrimSpace(strings.Repeat("long ", 30)) + "\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		ts := NewTableStream(&b, cols, tt.o, tt.hold, true)
		for _, r := range rows {
			if err := ts.Row(false, r...); err != nil {
				t.Fatal(err)
			}
		}
		if err := ts.Close(); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, b.String(), tt.want)
		}
		for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			if tt.o.TTY && tt.o.Width < 100 && textWidth(l) > tt.o.Width {
				t.Errorf("%s: line wider than %d: %q", tt.name, tt.o.Width, l)
			}
			if strings.ContainsAny(l, "\x1b\u202e") {
				t.Errorf("%s: raw escape in %q", tt.name, l)
			}
		}
	}
}

// Not on a terminal nothing is cut and nothing escaped but line breaks.
func TestTableStreamPiped(t *testing.T) {
	var b strings.Builder
	ts := NewTableStream(&b, []Column{{Header: "A", Short: 2}, {Header: "B", Flex: true}}, Options{Width: 10}, 0, false)
	_ = ts.Row(true, "abcdef", strings.Repeat("x", 30))
	if got, want := b.String(), "abcdef  "+strings.Repeat("x", 30)+"\n"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	_ = ts.Close()
}

func BenchmarkTableStream(b *testing.B) {
	cols := []Column{{Header: "#", Right: true}, {Header: "TIME"}, {Header: "ID", Short: 12}, {Header: "WHAT", Flex: true}}
	for i := 0; i < b.N; i++ {
		ts := NewTableStream(discard{}, cols, Options{TTY: true, Width: 120}, 1000, true)
		for j := 0; j < 10000; j++ {
			_ = ts.Row(false, fmt.Sprint(j), "03:01:02", "call_0123456789abcdef", "read /repo/README.md --limit=10")
		}
		_ = ts.Close()
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

package termsafe

import (
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\twith tab\n", "plain text\twith tab\n"},
		{"héllo 東京 🎉 שלום", "héllo 東京 🎉 שלום"},
		{"a\r\nb\r\n", "a\nb\n"},
		{"lone\rcr", `lone\x0dcr`},
		{"\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`},
		{"del\x7f nul\x00", `del\x7f nul\x00`},
		{"c1 \u009b31m \u0085", `c1 \u009b31m \u0085`},
		{"bad \xff\xfe", `bad \xff\xfe`},
		{"cut \xe6\x9d", `cut \xe6\x9d`},
		{"rlo \u202e lri \u2066 pdi \u2069", `rlo \u202e lri \u2066 pdi \u2069`},
		{"lrm \u200e rlm \u200f alm \u061c", `lrm \u200e rlm \u200f alm \u061c`},
		{"zw\u200bsp wj\u2060 bom\ufeff mvs\u180e", `zw\u200bsp wj\u2060 bom\ufeff mvs\u180e`},
		{"👩\u200d💻 می\u200cخواهم", "👩\u200d💻 می\u200cخواهم"}, // the joiners stay
		// Tag characters draw as nothing but spell text a model reads.
		{"ok󠁉󠁧󠁮󠁿", `ok\U000e0049\U000e0067\U000e006e\U000e007f`},
		{"", ""},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if Clean(tt.in) != (tt.in == tt.want) {
			t.Errorf("Clean(%q) = %v", tt.in, Clean(tt.in))
		}
	}
}

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"GET /x 200":               "GET /x 200",
		"a\nforged line\r\n":       `a\nforged line\r\n`,
		"tab\tstays \x1b[2J\u202e": "tab\tstays \\x1b[2J\\u202e",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlainOneLine(t *testing.T) {
	for s, plain := range map[string]bool{
		"read": true, "No Data": true, "東京": true, "a\tb": false, "a\nb": false, "x\x1b]0;t\x07": false,
		"x\u009b": false, "x\u202ey": false, "x\u200by": false, "\xff": false,
	} {
		if Plain(s) != plain {
			t.Errorf("Plain(%q) = %v", s, !plain)
		}
	}
	if got := OneLine("two\nlines\tand \x1b"); got != `two lines and \x1b` {
		t.Errorf("OneLine = %q", got)
	}
}

// FuzzString: the escaped form is clean (a second pass leaves it) and
// holds no control character but newline and tab, nor an invisible one.
func FuzzString(f *testing.F) {
	for _, s := range []string{"a", "a\r\nb", "\x1b[0m", "\u202e", "\xe2\x80", "\r", "x\u200b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := String(s)
		if !Clean(got) || String(got) != got {
			t.Fatalf("String(%q) = %q is not clean", s, got)
		}
		for _, r := range got {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || Invisible(r) || !utf8.ValidString(got) {
				t.Fatalf("String(%q) = %q holds %U", s, got, r)
			}
		}
		if l := Line(s); !Clean(l) || Line(l) != l {
			t.Fatalf("Line(%q) = %q is not clean", s, l)
		}
	})
}

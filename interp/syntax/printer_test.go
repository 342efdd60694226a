package syntax

import (
	"strings"
	"testing"
)

func TestPrint(t *testing.T) {
	cases := []struct{ src, want string }{
		{"ls", "ls\n"},
		{"read  /a|head -n 5 &&b||c;d;", "read /a | head -n 5 && b || c; d\n"},
		{"x 'a b' \"it's\" '' \\#c d#e", `x 'a b' 'it'\''s' '' '#c' d#e` + "\n"},
		{"'X=1' Y=2 --z=3", "'X=1' Y=2 --z=3\n"},
		{"glob **/*.go $HOME {a,b} é 日本", "glob **/*.go $HOME {a,b} é 日本\n"},
		{"grep 'a|b' '$(x)' '>' '\t'", "grep 'a|b' '$(x)' '>' '\t'\n"},
		{"a\n\nb # c", "a\nb\n"},
	}
	for _, tc := range cases {
		s, err := Parse(tc.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.src, err)
		}
		if got := Print(s); got != tc.want {
			t.Errorf("Print(Parse(%q)) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	seeds := []string{
		"ls", "read /a | head -n 5 && b || c; d", "x 'a b' \"it\\\"s\" '' \\#c d#e",
		"'X=1' Y=2", "X=1 a", "ls 2>f", "ls &", "a $(b)", "a `b`", "(a)", "a |", "a &&\n b",
		"a 'open", "a \"open", "a \\", "x ab\\\ncd", "grep 日本 é", "a;;b", "| a", "# c\nd",
		"a\r\nb", "x \"a\\\nb\"", "&& x", "x \"\\\\\" '\\'",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	for _, tc := range validCases {
		for _, s := range tc.srcs {
			f.Add(s)
		}
	}
	for _, tc := range errorCases {
		for _, s := range tc.srcs {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse(src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Parse(%q) error of type %T", src, err)
			}
			return
		}
		printed := Print(s)
		s2, err := Parse(printed)
		if err != nil {
			t.Fatalf("Parse(Print(Parse(%q))) = %v; printed %q", src, err, printed)
		}
		if a, b := dump(s), dump(s2); a != b {
			t.Fatalf("round trip of %q changed the script:\n%s\n---\n%s\nprinted %q", src, a, b, printed)
		}
		if again := Print(s2); again != printed {
			t.Fatalf("Print is not stable for %q: %q then %q", src, printed, again)
		}
		if strings.Count(printed, "\n") != len(s.Lists) && !strings.ContainsAny(src, "'\"") {
			t.Fatalf("Print(%q) = %q: want one line per list", src, printed)
		}
	})
}

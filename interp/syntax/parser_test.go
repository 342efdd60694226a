package syntax

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// dump writes a script compactly: words Go-quoted, commands joined by " | ",
// operators as written, one list per line.
func dump(s *Script) string {
	var lines []string
	for _, l := range s.Lists {
		var b strings.Builder
		for i, pl := range l.Pipelines {
			if i > 0 {
				b.WriteString(" " + l.Ops[i-1].String() + " ")
			}
			for j, c := range pl.Commands {
				if j > 0 {
					b.WriteString(" | ")
				}
				for k, w := range c.Words {
					if k > 0 {
						b.WriteByte(' ')
					}
					b.WriteString(strconv.Quote(w.Value))
				}
			}
		}
		lines = append(lines, b.String())
	}
	return strings.Join(lines, "\n")
}

// validCases are sources that parse; each spelling must give want.
var validCases = []struct {
	name string
	srcs []string
	want string
}{
	{"empty", []string{"", "\n\n", "  \t ", "# only a comment", "\n# c\n  # d\n"}, ""},
	{"one word", []string{"ls", " ls ", "ls\n", "ls;", "ls ;", "l\\s", "'ls'", `"ls"`, "l's'", "ls # comment"}, `"ls"`},
	{"words", []string{"read /a b", "read\t/a  b", "read '/a' \"b\"", `read \/a b`}, `"read" "/a" "b"`},
	{"pipeline", []string{"read /a | head -n 5", "read /a|head -n 5", "read /a |\nhead -n 5", "read /a | # c\n\nhead -n 5", "read /a \\\n| head -n 5"}, `"read" "/a" | "head" "-n" "5"`},
	{"and or", []string{"a && b || c", "a&&b||c", "a &&\n b ||\n\n c"}, `"a" && "b" || "c"`},
	{"semicolons", []string{"a; b; c", "a;b;c;", "a ; b ; c ;"}, `"a" ; "b" ; "c"`},
	{"lines", []string{"a\nb", "a;\nb", "\na\n\nb\n", "a # x\nb # y"}, "\"a\"\n\"b\""},
	{"no expansion", []string{`glob **/*.go $HOME ~ {a,b} ?`, `glob '**/*.go' '$HOME' '~' '{a,b}' '?'`}, `"glob" "**/*.go" "$HOME" "~" "{a,b}" "?"`},
	{"single quotes literal", []string{`x 'a\"b$(c)'`, `x "a\\\"b$(c)"`}, `"x" "a\\\"b$(c)"`},
	{"double quote escapes", []string{`x "a\"b\\c\d"`, `x 'a"b\c\d'`}, `"x" "a\"b\\c\\d"`},
	{"dollar paren inside quotes", []string{`x "$(id)"`, `x '$(id)'`, `x \$\(id\)`}, `"x" "$(id)"`},
	{"empty words", []string{`x '' ""`, `x "" ''`}, `"x" "" ""`},
	{"hash inside word", []string{"x a#b", "x 'a#b'"}, `"x" "a#b"`},
	{"escaped hash", []string{`x \#a`, `x '#a'`}, `"x" "#a"`},
	{"quoted newline", []string{"x 'a\nb'", "x \"a\nb\""}, `"x" "a\nb"`},
	{"continuation in word", []string{"x ab\\\ncd", "x abcd", "x ab\\\r\ncd"}, `"x" "abcd"`},
	{"crlf continuation", []string{"x \\\r\nab\r\n", "x\\\r\n ab"}, `"x" "ab"`},
	{"backslash newline in double quotes stays", []string{"x \"a\\\nb\""}, `"x" "a\\\nb"`},
	{"crlf", []string{"a\r\nb\r\n"}, "\"a\"\n\"b\""},
	{"quoted assignment is a word", []string{`'X=1' read`, `X'=1' read`, `\X=1 read`}, `"X=1" "read"`},
	{"assignment later is a word", []string{"read --x=1 Y=2"}, `"read" "--x=1" "Y=2"`},
	{"not a name", []string{"1X=2 a", "=x a"}, ""},
	{"digit words without redirection", []string{"tail -n 2"}, `"tail" "-n" "2"`},
	{"quoted operators", []string{`grep 'a|b' "&&" \; \< '>' '(' \)`}, `"grep" "a|b" "&&" ";" "<" ">" "(" ")"`},
	{"unicode", []string{"grep héllo 日本", "grep 'héllo' \"日本\""}, `"grep" "héllo" "日本"`},
}

func TestParseValid(t *testing.T) {
	for _, tc := range validCases {
		for _, src := range tc.srcs {
			s, err := Parse(src)
			if err != nil {
				t.Errorf("%s: Parse(%q): %v", tc.name, src, err)
				continue
			}
			want := tc.want
			if tc.name == "not a name" {
				want = strconv.Quote(strings.Fields(src)[0]) + ` "a"`
			}
			if got := dump(s); got != want {
				t.Errorf("%s: Parse(%q) =\n%s\nwant\n%s", tc.name, src, got, want)
			}
		}
	}
}

// errorCases are sources that fail to parse, with the exact error.
var errorCases = []struct {
	srcs       []string
	want       string
	incomplete bool
}{
	{[]string{"ls >"}, "line 1: col 4: redirection (>) is not supported: agsh has no local files", false},
	{[]string{"ls >> f"}, "line 1: col 4: redirection (>>) is not supported: agsh has no local files", false},
	{[]string{"ls <f"}, "line 1: col 4: redirection (<) is not supported: agsh has no local files", false},
	{[]string{"ls a>f"}, "line 1: col 5: redirection (>) is not supported: agsh has no local files", false},
	{[]string{"ls 2>f", "ls 2> /dev/null"}, "line 1: col 4: redirection (2>) is not supported: agsh has no local files", false},
	{[]string{"ls 2>&1"}, "line 1: col 4: redirection (2>&) is not supported: agsh has no local files", false},
	{[]string{"ls &> f"}, "line 1: col 4: redirection (&>) is not supported: agsh has no local files", false},
	{[]string{"ls &", "ls & b", "ls &x"}, "line 1: col 4: background (&) is not supported: commands run one at a time", false},
	{[]string{"ls $(id)", "ls $("}, "line 1: col 4: command substitution ($(…)) is not supported", false},
	{[]string{"ls a$(id)", "ls&&$(x)"}, "line 1: col 5: command substitution ($(…)) is not supported", false},
	{[]string{"ls `id`"}, "line 1: col 4: command substitution (`…`) is not supported", false},
	{[]string{"(ls)"}, "line 1: col 1: parentheses (() are not supported: quote \"(\" to pass it literally", false},
	{[]string{"ls a)"}, "line 1: col 5: parentheses ()) are not supported: quote \")\" to pass it literally", false},
	{[]string{"X=1 read /a", "X=1"}, "line 1: col 1: assignment (X=…) is not supported: agsh has no variables", false},
	{[]string{"a && X_2=\"v\" b"}, "line 1: col 6: assignment (X_2=…) is not supported: agsh has no variables", false},
	{[]string{"| head", " | head"}, "", false},
	{[]string{"; ls"}, "line 1: col 1: ';' needs a command before it", false},
	{[]string{"&& ls"}, "line 1: col 1: '&&' needs a command before it", false},
	{[]string{"ls ;; b"}, "line 1: col 5: expected a command after ';', found ';'", false},
	{[]string{"ls | | b"}, "line 1: col 6: expected a command after '|', found '|'", false},
	{[]string{"ls && ; b"}, "line 1: col 7: expected a command after '&&', found ';'", false},
	{[]string{"ls |\n; b"}, "line 2: col 1: expected a command after '|', found ';'", false},
	// incomplete input
	{[]string{"ls |", "ls | ", "ls |\n", "ls | # c", "ls |\n\n"}, "line 1: col 4: expected a command after '|'", true},
	{[]string{"ls &&", "ls &&\n"}, "line 1: col 4: expected a command after '&&'", true},
	{[]string{"ls ||", "ls || # x\n"}, "line 1: col 4: expected a command after '||'", true},
	{[]string{"ls \\", "ls a\\"}, "", true},
	// a continuation on the script's last line: nothing follows it
	{[]string{"ls \\\n", "ls \\\r\n", "ls\t\\\n"}, "line 1: col 4: '\\' at end of input", true},
	{[]string{"ls a\\\n", "a |\nb \\\n"}, "", true},
	{[]string{"ls 'abc", "ls 'a\nb"}, "line 1: col 4: unclosed single quote", true},
	{[]string{"ls \"abc", "ls \"a\\\""}, "line 1: col 4: unclosed double quote", true},
	// positions count characters, not bytes; lines count from 1
	{[]string{"grep 日本語 >x"}, "line 1: col 10: redirection (>) is not supported: agsh has no local files", false},
	{[]string{"ls\nread /a\n  grep 'é' & x"}, "line 3: col 12: background (&) is not supported: commands run one at a time", false},
	{[]string{"x 'multi\nline' >"}, "line 2: col 7: redirection (>) is not supported: agsh has no local files", false},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range errorCases {
		for _, src := range tc.srcs {
			_, err := Parse(src)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Errorf("Parse(%q) error = %v, want *Error", src, err)
				continue
			}
			want := tc.want
			switch {
			case src == "| head":
				want = "line 1: col 1: '|' needs a command before it"
			case src == " | head":
				want = "line 1: col 2: '|' needs a command before it"
			case src == "ls \\":
				want = "line 1: col 4: '\\' at end of input"
			case src == "ls a\\", src == "ls a\\\n":
				want = "line 1: col 5: '\\' at end of input"
			case src == "a |\nb \\\n":
				want = "line 2: col 3: '\\' at end of input"
			}
			if pe.Error() != want {
				t.Errorf("Parse(%q) error\n got %q\nwant %q", src, pe.Error(), want)
			}
			if pe.Incomplete() != tc.incomplete {
				t.Errorf("Parse(%q) Incomplete() = %v, want %v", src, pe.Incomplete(), tc.incomplete)
			}
		}
	}
}

func TestPositions(t *testing.T) {
	s, err := Parse("ls /\n\n  é && read 'a b' | head\nx; y")
	if err != nil {
		t.Fatal(err)
	}
	got := []Pos{
		s.Lists[0].Pos,
		s.Lists[1].Pos,
		s.Lists[1].Pipelines[1].Pos,
		s.Lists[1].Pipelines[1].Commands[1].Pos,
		s.Lists[1].Pipelines[1].Commands[0].Words[1].Pos,
		s.Lists[2].Pipelines[1].Pos,
	}
	want := []Pos{{1, 1, 0}, {3, 3, 8}, {3, 8, 14}, {3, 21, 27}, {3, 13, 19}, {4, 4, 35}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("position %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if end := s.Lists[1].Pipelines[1].Commands[0].Words[1].End; end != 24 {
		t.Errorf("End of 'a b' = %d, want 24", end)
	}
	if ops := s.Lists[1].Ops; len(ops) != 1 || ops[0] != OpAnd {
		t.Errorf("ops = %v", ops)
	}
	if args := s.Lists[1].Pipelines[1].Commands[0].Args(); strings.Join(args, ",") != "read,a b" {
		t.Errorf("Args() = %q", args)
	}
}

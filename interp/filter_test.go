package interp

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp/syntax"
	"strings"
	"testing"
	"time"
)

func text(s string) Value  { return Value{Text: s} }
func array(s string) Value { return Value{JSON: json.RawMessage(s), IsJSON: true} }
func show(v Value) string {
	if v.IsJSON {
		return "json " + string(v.JSON)
	}
	return fmt.Sprintf("text %q final=%v", v.Text, v.Final)
}

const lines5 = "l1 a\nl2 B\nl3 a b\nl4\nl5 Ab\n"

// runFilter parses args and runs the filter on in.
func runFilter(args []string, in Value) (Value, int, error) {
	f, err := newFilter(args)
	if err != nil {
		return Value{}, -1, err
	}
	return f.run(context.Background(), fakeRenderer{}, in)
}

func TestFilters(t *testing.T) {
	arr := array(` [ {"n":1, "s":"x y"}, 2 ,"three",[4,"a b"], {"n":5,"s":"A\"b"}, null ] `)
	cases := []struct {
		name   string
		argvs  []string // several spellings, words split on blanks
		in     Value
		want   string
		status int
	}{
		// head
		{"head default 10", []string{"head"}, text(strings.Repeat("x\n", 12)), show(textValue(strings.Repeat("x\n", 10))), 0},
		{"head n", []string{"head -n 2", "head -2", "head -n2", "head -n 9 -n 2", "head -n +2"}, text(lines5), show(textValue("l1 a\nl2 B\n")), 0},
		{"head more than there is", []string{"head -n 9"}, text("a\nb"), show(Value{Text: "a\nb\n", Final: true}), 0},
		{"head zero", []string{"head -n 0", "head -0"}, text(lines5), show(textValue("")), 0},
		{"head array", []string{"head -n 2", "head -2"}, arr, `json [{"n":1, "s":"x y"}, 2]`, 0},
		{"head array zero", []string{"head -0"}, arr, `json []`, 0},
		{"head empty array", []string{"head"}, array(" [ ] "), `json []`, 0},
		{"head object", []string{"head -1"}, array(`{"b":1,"a":2}`), show(textValue("a: 2\n")), 0},
		{"head JSON string", []string{"head -1"}, array(`"x\ny"`), show(textValue("x\n")), 0},
		// tail
		{"tail n", []string{"tail -n 2", "tail -2", "tail -n2", "tail -n -2"}, text(lines5), show(textValue("l4\nl5 Ab\n")), 0},
		{"tail no final newline", []string{"tail -1"}, text("a\nb"), show(Value{Text: "b\n", Final: true}), 0},
		{"tail all", []string{"tail -n 99"}, text("a\nb\n"), show(textValue("a\nb\n")), 0},
		{"tail from", []string{"tail -n +4", "tail -n+4"}, text(lines5), show(textValue("l4\nl5 Ab\n")), 0},
		{"tail from 0 and 1", []string{"tail -n +0", "tail -n +1"}, text("a\nb"), show(Value{Text: "a\nb\n", Final: true}), 0},
		{"tail from past the end", []string{"tail -n +9"}, text("a\nb"), show(textValue("")), 0},
		{"tail array", []string{"tail -2", "tail -n 2"}, arr, `json [{"n":5,"s":"A\"b"}, null]`, 0},
		{"tail array from", []string{"tail -n +5"}, arr, `json [{"n":5,"s":"A\"b"}, null]`, 0},
		{"tail array all", []string{"tail -n 100"}, array(`[1,2]`), `json [1,2]`, 0},
		{"tail array zero", []string{"tail -n 0"}, array(`[1,2]`), `json []`, 0},
		// wc
		{"wc default", []string{"wc", "wc -lwc", "wc -c -l -w", "wc -cwl"}, text(lines5), show(textValue("5 10 26\n")), 0},
		{"wc lines", []string{"wc -l", "wc -ll"}, text(lines5), show(textValue("5\n")), 0},
		{"wc words bytes", []string{"wc -w -c", "wc -cw"}, text("héllo  wörld\n"), show(textValue("2 15\n")), 0},
		{"wc counts a last line without newline", []string{"wc"}, text("a b\nc"), show(textValue("2 3 6\n")), 0},
		{"wc counts final text's bytes as printed", []string{"wc"}, Value{Text: "a b\nc", Final: true}, show(textValue("2 3 5\n")), 0},
		{"wc empty", []string{"wc"}, text(""), show(textValue("0 0 0\n")), 0},
		{"wc array", []string{"wc"}, arr, show(textValue("6 8 62\n")), 0},
		{"wc array lines", []string{"wc -l"}, array(`[]`), show(textValue("0\n")), 0},
		{"wc object", []string{"wc -l"}, array(`{"a":1,"b":{"c":2}}`), show(textValue("2\n")), 0},
		// grep
		{"grep", []string{"grep a", "grep -E a", "grep -- a", "grep -e a", "grep -ea", "grep -F a"}, text(lines5), show(textValue("l1 a\nl3 a b\n")), 0},
		{"grep -i", []string{"grep -i a", "grep -i -F A", "grep -iF A"}, text(lines5), show(textValue("l1 a\nl3 a b\nl5 Ab\n")), 0},
		{"grep -v", []string{"grep -v a"}, text(lines5), show(textValue("l2 B\nl4\nl5 Ab\n")), 0},
		{"grep -n", []string{"grep -n b", "grep -nF b"}, text(lines5), show(textValue("3:l3 a b\n5:l5 Ab\n")), 0},
		{"grep -c", []string{"grep -c a", "grep -ci A -v -v", "grep a -c", "grep -c -- a"}, text(lines5), show(textValue("2\n")), 0},
		{"grep -vc", []string{"grep -vc a", "grep -cv a"}, text(lines5), show(textValue("3\n")), 0},
		{"grep -w", []string{"grep -w b", "grep -wF b"}, text("ab\na b\nb-c\nb_c\n"), show(textValue("a b\nb-c\n")), 0},
		{"grep -x", []string{"grep -x 'l4'", "grep -xF l4", "grep -x 'l[4]'"}, text(lines5), show(textValue("l4\n")), 0},
		{"grep regexp", []string{`grep ^l[13]`, `grep -E 'l1|l3'`}, text(lines5), show(textValue("l1 a\nl3 a b\n")), 0},
		{"grep regexp with a required string", []string{"grep -n 'l[35].*b'", "grep -n '(l)[35]( A?b| a b)'", "grep -n -E 'l(3|5) ?.*b$'"}, text(lines5), show(textValue("3:l3 a b\n5:l5 Ab\n")), 0},
		{"grep -v regexp with a required string", []string{"grep -v 'l[13] '", "grep -v -E '(l)[13] '"}, text(lines5), show(textValue("l2 B\nl4\nl5 Ab\n")), 0},
		{"grep -c regexp with a required string", []string{"grep -c 'a[ ]b'", "grep -c '(?i)L3 A'"}, text(lines5), show(textValue("1\n")), 0},
		{"grep fixed is literal", []string{"grep -F l.", "grep 'l\\.'"}, text("l.x\nlax\n"), show(textValue("l.x\n")), 0},
		{"grep no selection", []string{"grep zzz", "grep -n zzz"}, text(lines5), show(textValue("")), 1},
		{"grep -c no selection", []string{"grep -c zzz"}, text(lines5), show(textValue("0\n")), 1},
		{"grep line without newline", []string{"grep two"}, text("one\ntwo"), show(textValue("two\n")), 0},
		{"grep array", []string{"grep x", "grep -n x", "grep -F '\"x y'"}, arr, `json [{"n":1,"s":"x y"}]`, 0},
		{"grep array compact JSON", []string{`grep '"a b"'`, `grep -F '[4,'`}, arr, `json [[4,"a b"]]`, 0},
		{"grep array -v", []string{"grep -v '[{\"]'", "grep -v -E '\\{|\"'"}, arr, `json [2,null]`, 0},
		{"grep array -c", []string{"grep -c n"}, arr, show(textValue("3\n")), 0},
		{"grep array nothing", []string{"grep zzz"}, arr, `json []`, 1},
		{"grep object", []string{"grep b:"}, array(`{"a":1,"b":2}`), show(textValue("b: 2\n")), 0},
		// jq
		{"jq identity", []string{"jq .", "jq", "jq ' . '"}, array(`{"b":[1,2.50,{}],"a":"é\u0001"}`), show(textValue("{\n  \"a\": \"é\\u0001\",\n  \"b\": [\n    1,\n    2.50,\n    {}\n  ]\n}\n")), 0},
		{"jq compact", []string{"jq -c .", "jq --compact-output ."}, array(`{"b":[1,2.50,[]],"a":null}`), show(textValue(`{"a":null,"b":[1,2.50,[]]}` + "\n")), 0},
		{"jq raw pretty", []string{"jq -r .[]", "jq --raw-output .[]", "jq .[] -r"}, array(`["a\tb", 1, {"x":"y"}]`), show(textValue("a\tb\n1\n{\n  \"x\": \"y\"\n}\n")), 0},
		{"jq raw", []string{"jq -rc .[]", "jq -cr .[]", "jq -r -c .[]", "jq .[] -rc"}, array(`["a\tb", 1, {"x":"y"}]`), show(textValue("a\tb\n1\n{\"x\":\"y\"}\n")), 0},
		{"jq not raw", []string{"jq -c .[]"}, array(`["a\tb", 1]`), show(textValue("\"a\\tb\"\n1\n")), 0},
		{"jq on text", []string{"jq .version"}, Value{Text: `{"version": "1.2.3"}`, Final: true}, show(textValue("\"1.2.3\"\n")), 0},
		{"jq on a text stream", []string{"jq -c '.+1'"}, text("1 2\n3"), show(textValue("2\n3\n4\n")), 0},
		{"jq inputs", []string{"jq -c '[., input]'"}, text("1 2 3 4"), show(textValue("[1,2]\n[3,4]\n")), 0},
		{"jq no output", []string{"jq empty"}, array(`[1]`), show(textValue("")), 0},
		{"jq numbers", []string{"jq -c '[.[0], .[0]+0, .[1], .[1]*1, .[2]/3, 1e1000, 0.0000001, 100000000000000000000000]'"}, array(`[100000000000000000001, 1.10, 1]`), show(textValue("[100000000000000000001,100000000000000000001,1.10,1.1,0.3333333333333333,1.7976931348623157e+308,1e-7,100000000000000000000000]\n")), 0},
		{"jq runtime error keeps earlier output", []string{"jq -c '.[] | .a'"}, array(`[{"a":1}, 2, {"a":3}]`), show(textValue("1\n")), 1},
		{"jq error", []string{"jq 'error(\"boom\")'"}, array(`{}`), show(textValue("")), 1},
		{"jq halt", []string{"jq -c '., halt'"}, array(`[1]`), show(textValue("[1]\n")), 0},
		{"jq env is empty", []string{"jq -c '$ENV'", "jq -c env"}, array(`{}`), show(textValue("{}\n")), 0},
	}
	for _, tc := range cases {
		for _, argv := range tc.argvs {
			args := splitWords(t, argv)
			got, st, _ := runFilter(args, tc.in)
			if show(got) != tc.want || st != tc.status {
				t.Errorf("%s: %s:\n got %s (status %d)\nwant %s (status %d)", tc.name, argv, show(got), st, tc.want, tc.status)
			}
		}
	}
}

func TestFilterErrors(t *testing.T) {
	cases := []struct {
		argvs  []string
		want   string
		status int // -1: a usage error from parsing; else the run status
	}{
		{[]string{"head -n", "tail -n"}, "option -n needs a number", -1},
		{[]string{"head -n x", "head -nx"}, `invalid number of lines: "x"`, -1},
		{[]string{"head -n -3"}, `invalid number of lines: "-3"`, -1},
		{[]string{"tail -n --3", "head -n ++3", "tail -n +-3"}, `invalid number of lines: `, -1},
		{[]string{"head -q", "head --lines", "head --3"}, "unknown option", -1},
		{[]string{"head file.txt", "tail -n 1 file.txt", "head -- file.txt"}, `unexpected operand "file.txt": `, -1},
		{[]string{"wc -m", "wc -lm"}, "wc: unknown option -m; use -l, -w or -c", -1},
		{[]string{"wc x"}, `wc: unexpected operand "x": wc reads only its pipe`, -1},
		{[]string{"grep"}, "grep: missing pattern", -1},
		{[]string{"grep -q x"}, "grep: unknown option -q; use -i, -v, -c, -n, -E, -F, -w, -x or -e PATTERN", -1},
		{[]string{"grep a b"}, `grep: unexpected operand "b": grep reads only its pipe`, -1},
		{[]string{"grep -e"}, "grep: option -e needs a pattern", -1},
		{[]string{"grep '[a'", "grep -E '[a'"}, `grep: invalid regular expression "[a": missing closing ]`, -1},
		{[]string{"grep 'a**'"}, `grep: invalid regular expression "a**": invalid nested repetition operator`, -1},
		{[]string{"jq -x ."}, "jq: unknown option -x; use -r or -c", -1},
		{[]string{"jq . extra"}, `jq: unexpected operand "extra": jq reads only its pipe`, -1},
		{[]string{"jq '.a | nosuch'"}, `jq: invalid filter ".a | nosuch": function not defined: nosuch/0`, -1},
		{[]string{"jq 'input_filename | error'"}, "error: null", 1},
		{[]string{"jq '{'"}, `jq: invalid filter "{": unexpected EOF`, -1},
		{[]string{"jq '.a'"}, "expected an object but got: array ([1])", 1},
		{[]string{"jq 'error(\"boom\")'"}, "boom", 1},
		{[]string{"jq '\"bye\" | halt_error(3)'"}, "bye", 3},
	}
	for _, tc := range cases {
		for _, argv := range tc.argvs {
			_, st, err := runFilter(splitWords(t, argv), array(`[1]`))
			if err == nil || !strings.Contains(err.Error(), tc.want) || st != tc.status {
				t.Errorf("%s: error %v (status %d), want one containing %q (status %d)", argv, err, st, tc.want, tc.status)
			}
		}
	}
}

func TestFilterMalformedJSON(t *testing.T) {
	for _, raw := range []string{`[1,2`, `[1 2]`, `["a]`, `[{"a":1]`, `[,]`, `[1,]`} {
		for _, f := range []string{"head", "tail", "wc", "grep 1"} {
			_, st, err := runFilter(strings.Fields(f), array(raw))
			if err == nil || err.Error() != "malformed JSON value" || st != 1 {
				t.Errorf("%s on %s: %v (status %d), want malformed JSON value (1)", f, raw, err, st)
			}
		}
	}
}

// splitWords splits a test command line with the real parser.
func splitWords(t *testing.T, src string) []string {
	t.Helper()
	l, err := parseOne(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return l.Pipelines[0].Commands[0].Args()
}

func TestJQInterrupted(t *testing.T) {
	for _, prog := range []string{"repeat(1)", "def f: f; f", "last(range(1e12))"} {
		f, err := newFilter([]string{"jq", "-c", prog})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() { time.Sleep(20 * time.Millisecond); cancel() }()
		if _, st, err := f.run(ctx, nil, Value{Text: "1"}); st != StatusInterrupted || err != nil {
			t.Errorf("%s: status %d error %v, want 130 and no error", prog, st, err)
		}
		cancel()
	}
}

func TestRequiredLiterals(t *testing.T) {
	cases := map[string]string{
		"abc": "abc", "a.c": "a,c", "x+yz[0-9]": "yz", "(?i)abc": "", "ab|cd": "", "abc|abd": "ab",
		"svc=api-[35].*id=9": "svc=api-,id=9", "(foo)bar": "foo,bar", "((hello))": "hello", "a\\nb": "",
		"^id=": "id=", "": "", "日本+語": "日,語",
	}
	for pat, want := range cases {
		tree, err := syntax.Parse(pat, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(requiredLiterals(tree), ","); got != want {
			t.Errorf("requiredLiterals(%q) = %q, want %q", pat, got, want)
		}
	}
	g := &grep{required: []string{"svc=", "id=9", "zz"}}
	g.rarestFirst("svc= id=9\nsvc= id=8\nsvc= id=9 zz\n")
	if g.required[0] != "zz" {
		t.Errorf("rarest first: %q", g.required)
	}
}

func TestFilterHelp(t *testing.T) {
	for _, name := range FilterNames() {
		page, ok := FilterHelp(name)
		if !ok || !strings.HasPrefix(page, "NAME\n    "+name+" - ") || !strings.Contains(page, "… | "+name) {
			t.Errorf("FilterHelp(%q) = %q, %v", name, page, ok)
		}
	}
	if _, ok := FilterHelp("read"); ok {
		t.Error("FilterHelp(read) is ok")
	}
}

package interp

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/interp/syntax"
)

// statusCases are lists of status-only tools; want is the final status and the
// tools that ran, in order.
var statusCases = []struct {
	src    string
	status int
	ran    string
}{
	{"true", 0, "true"},
	{"false", 1, "false"},
	{"fail3", 3, "fail3"},
	{"true && false", 1, "true false"},
	{"false && true", 1, "false"},
	{"false || true", 0, "false true"},
	{"true || false", 0, "true"},
	{"false && true || fail3", 3, "false fail3"},
	{"true || false && fail4", 4, "true fail4"},
	{"fail3 || fail4 || true", 0, "fail3 fail4 true"},
	{"fail3 && true && true", 3, "fail3"},
	{"false; true", 0, "false true"},
	{"true; false", 1, "true false"},
	{"fail3; fail4 && true", 4, "fail3 fail4"},
	{"false && true; fail5 || fail4", 4, "false fail5 fail4"},
	{"true\nfail3\nfalse || true", 0, "true fail3 false true"},
	{"fail3\n", 3, "fail3"},
	{"true &&\n  false ||\n  fail5", 5, "true false fail5"},
	{"fail2 || true && fail3 || false", 1, "fail2 true fail3 false"},
	{"true | head -n 1", 0, "true"},
	{"fail3 | wc -l", 3, "fail3"},
	{"fail3 | wc -l || true", 0, "fail3 true"},
}

func TestStatusTable(t *testing.T) {
	for _, tc := range statusCases {
		out, _, st, _ := runScript(tc.src)
		if st != tc.status {
			t.Errorf("%q: status %d, want %d", tc.src, st, tc.status)
		}
		if got := strings.Join(strings.Fields(out), " "); got != tc.ran {
			t.Errorf("%q: ran %q, want %q", tc.src, got, tc.ran)
		}
	}
}

// TestStatusTableAgainstBash checks the same lists against bash, with shell
// functions standing in for the tools.
func TestStatusTableAgainstBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	const prelude = `true() { echo true; return 0; }; false() { echo false; return 1; }
fail2() { echo fail2; return 2; }; fail3() { echo fail3; return 3; }
fail4() { echo fail4; return 4; }; fail5() { echo fail5; return 5; }
`
	for _, tc := range statusCases {
		if strings.Contains(tc.src, "|") && !strings.Contains(tc.src, "||") || strings.Contains(tc.src, "| wc") {
			continue // filters differ from coreutils on purpose (a failing tool passes nothing on)
		}
		cmd := exec.Command(bash, "-c", prelude+tc.src)
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("bash: %v", err)
		}
		if code != tc.status {
			t.Errorf("%q: bash exits %d, table says %d", tc.src, code, tc.status)
		}
		if got := strings.Join(strings.Fields(string(out)), " "); got != tc.ran {
			t.Errorf("%q: bash ran %q, table says %q", tc.src, got, tc.ran)
		}
	}
}

func TestPipelines(t *testing.T) {
	cases := []struct {
		name       string
		srcs       []string
		out, err   string
		status     int
		calledTool bool
	}{
		{"tool value rendered", []string{"lines", "lines;"}, "alpha\nbeta\ngamma\ndelta\n", "", 0, true},
		{"filters chain", []string{"lines | head -n 3 | tail -2", "lines|head -3|tail -n 2"}, "beta\ngamma\n", "", 0, true},
		{"array stays array", []string{"arr | head -2", "arr | tail -n +1 | head -n 2"}, `json: [{"name":"a","n":1},{"name":"b","n":2}]` + "\n", "", 0, true},
		{"grep selects nothing", []string{"lines | grep zzz", "lines | grep -c zzz | grep -v 0"}, "", "", 1, true},
		{"grep count zero prints", []string{"lines | grep -c zzz"}, "0\n", "", 1, true},
		{"status is the last command's", []string{"lines | grep zzz | wc -l"}, "0\n", "", 0, true},
		{"failing tool fails the pipeline", []string{"fail3 | head", "fail3 | grep x | wc"}, "fail3\n", "agsh: line 1: Error: fail3 failed\n", 3, true},
		{"tool after pipe", []string{"lines | datadog_list_monitors", "lines | head | datadog_list_monitors"}, "", "agsh: line 1: datadog_list_monitors does not read a pipe; after | use head, tail, wc, grep or jq\n", 2, false},
		{"shell word after pipe", []string{"lines | help"}, "", "agsh: line 1: help does not read a pipe; after | use head, tail, wc, grep or jq\n", 2, false},
		{"filter first", []string{"head -n 2", "head | tail"}, "", "agsh: line 1: head reads a pipe: put it after |\n", 2, false},
		{"unknown command", []string{"lnes", "lnes | head"}, "", "agsh: line 1: unknown command \"lnes\"; did you mean lines?\n", 2, false},
		{"unknown filter", []string{"lines | hed -n 1"}, "", "agsh: line 1: unknown command \"hed\"; did you mean head?\n", 2, false},
		{"unknown without suggestion", []string{"zzzzzz"}, "", "agsh: line 1: unknown command \"zzzzzz\"; run help for the list of commands\n", 2, false},
		{"bad grep regexp before the tool", []string{"lines | grep '(a'", "lines | head | grep '(a'"}, "", "agsh: line 1: grep: invalid regular expression \"(a\": missing closing )\n", 2, false},
		{"bad jq filter before the tool", []string{"lines | jq '.a['"}, "", "agsh: line 1: jq: invalid filter \".a[\": unexpected EOF\n", 2, false},
		{"bad head option before the tool", []string{"lines | head -q"}, "", "agsh: line 1: head: unknown option -q; use -n N or -N\n", 2, false},
		{"help", []string{"help", "help  "}, "HELP \ncommands: true false\n", "", 0, false},
		{"help into filters", []string{"help | grep commands"}, "commands: true false\n", "", 0, false},
		{"help error", []string{"help nosuch | grep x"}, "", "agsh: line 1: no tool nosuch\n", 2, false},
		{"read into jq", []string{"read | jq .version", "read | jq -r .deps[0] | head -1 | grep y || read | jq .version"}, "\"1.2.3\"\n", "", 0, true},
		{"jq on object", []string{"obj | jq -c ."}, `{"count":2,"status":"ok"}` + "\n", "", 0, true},
		{"object as property lines", []string{"obj | grep status", "obj | tail -1"}, "status: ok\n", "", 0, true},
		{"jq on text that is not JSON", []string{"lines | jq ."}, "", "agsh: line 1: jq: input is not valid JSON: invalid character 'a' looking for beginning of value\n", 1, true},
		{"text that is a JSON array counts as one", []string{"jsontext | head -2", "jsontext | tail -n +1 | grep -v 3"}, "json: [1,2]\n", "", 0, true},
		{"final text is never JSON", []string{"read | head -1", "read | grep version"}, "{\"version\": \"1.2.3\", \"deps\": [\"x\", \"y\"]}\n", "", 0, true},
		{"empty value", []string{"empty | wc", "empty | head | wc"}, "0 0 0\n", "", 0, true},
		{"jq debug and stderr", []string{"obj | jq -c '.count | debug | stderr'", "obj | jq -c '.count | debug | stderr' | head"}, "2\n", "[\"DEBUG:\",2]\n2", 0, true},
		{"last jq: an array of objects is a table", []string{"arr | jq 'map({n, name})'", "arr | jq '[.[] | {name, n}]' ", "arr | head -3 | jq 'map({n, name})'"},
			`json: [{"name":"a","n":1},{"name":"b","n":2},{"name":"c","n":3}]` + "\n", "", 0, true},
		{"last jq: new keys after the input's, sorted", []string{"arr | jq 'map({z: 1, name, a: 2})'"},
			`json: [{"name":"a","a":2,"z":1},{"name":"b","a":2,"z":1},{"name":"c","a":2,"z":1}]` + "\n", "", 0, true},
		{"jq not last stays text", []string{"arr | jq 'map({name})' | head -2"}, "[\n  {\n", "", 0, true},
		{"jq -c or -r stays text", []string{"arr | jq -c 'map({name})'", "arr | jq -r 'map({name})' | jq -c ."}, `[{"name":"a"},{"name":"b"},{"name":"c"}]` + "\n", "", 0, true},
		{"jq: several results stay text", []string{"arr | jq '.[0:1], .[1:2]'"}, "[\n  {\n    \"n\": 1,\n    \"name\": \"a\"\n  }\n]\n[\n  {\n    \"n\": 2,\n    \"name\": \"b\"\n  }\n]\n", "", 0, true},
		{"jq: an array of scalars stays text", []string{"arr | jq 'map(.n)'"}, "[\n  1,\n  2,\n  3\n]\n", "", 0, true},
		{"jq: an empty array stays text", []string{"arr | jq '[]'"}, "[]\n", "", 0, true},
		{"jq: an array of empty objects stays text (a table without columns)", []string{"arr | jq '.[0:2] | map({})'"}, "[\n  {},\n  {}\n]\n", "", 0, true},
		{"jq: a mixed array stays text", []string{"arr | jq -c '[.[0], 1]' | jq '.'"}, "[\n  {\n    \"n\": 1,\n    \"name\": \"a\"\n  },\n  1\n]\n", "", 0, true},
		{"exit in a pipe", []string{"exit | head"}, "", "agsh: line 1: exit does not write to a pipe\n", 2, false},
	}
	for _, tc := range cases {
		for _, src := range tc.srcs {
			out, errs, st, h := runScript(src)
			if out != tc.out || errs != tc.err || st != tc.status {
				t.Errorf("%s: %q:\nstdout %q\nstderr %q\nstatus %d\nwant\nstdout %q\nstderr %q\nstatus %d",
					tc.name, src, out, errs, st, tc.out, tc.err, tc.status)
			}
			if called := len(h.calls) > 0; called != tc.calledTool {
				t.Errorf("%s: %q: tool called = %v (%q), want %v", tc.name, src, called, h.calls, tc.calledTool)
			}
		}
	}
}

func TestScriptMode(t *testing.T) {
	cases := []struct {
		name, src, out, err string
		status              int
		calls               string
	}{
		{"parse error on the last line runs nothing", "true\nlines | head\nls >out", "", "agsh: line 3: col 4: redirection (>) is not supported: agsh has no local files\n", 2, ""},
		{"incomplete at end is a parse error", "true\nlines |", "", "agsh: line 2: col 7: expected a command after '|'\n", 2, ""},
		{"open quote at end", "true\ngrep 'abc", "", "agsh: line 2: col 6: unclosed single quote\n", 2, ""},
		{"keeps going after a failure", "fail3\ntrue\nfalse", "fail3\ntrue\nfalse\n", "agsh: line 1: Error: fail3 failed\nagsh: line 3: Error: false failed\n", 1, "fail3,true,false"},
		{"grep with no match then success", "lines | grep zzz\ntrue", "true\n", "", 0, "lines,true"},
		{"grep with no match last", "true\nlines | grep zzz", "true\n", "", 1, "true,lines"},
		{"errors name their line", "true\n\nnosuch\n", "true\n", "agsh: line 3: unknown command \"nosuch\"; run help for the list of commands\n", 2, "true"},
		{"line of a continued list", "true &&\n\n  lines | grep -E '('", "true\n", "agsh: line 3: grep: invalid regular expression \"(\": missing closing )\n", 2, "true"},
		{"exit stops with its status", "true\nexit 4\nfalse", "true\n", "", 4, "true"},
		{"exit without status uses the last", "fail3\nexit\ntrue", "fail3\n", "agsh: line 1: Error: fail3 failed\n", 3, "fail3"},
		{"exit in a list", "true && exit 7 || false; fail2", "true\n", "", 7, "true"},
		{"exit status wraps like sh", "exit 300", "", "", 44, ""},
		{"exit with a bad status", "exit abc\ntrue", "", "agsh: line 1: exit: abc: numeric argument required\n", 2, ""},
		{"exit with two operands does not exit", "exit 1 2\ntrue", "true\n", "agsh: line 1: exit: too many arguments\n", 0, "true"},
		{"interrupted tool stops the script", "true\ninterrupted\ntrue", "true\ninterrupted\n", "agsh: line 2: Error: interrupted failed\n", 130, "true,interrupted"},
		{"empty script", "\n# nothing\n", "", "", 0, ""},
	}
	for _, tc := range cases {
		out, errs, st, h := runScript(tc.src)
		if out != tc.out || errs != tc.err || st != tc.status {
			t.Errorf("%s:\nstdout %q\nstderr %q\nstatus %d\nwant\nstdout %q\nstderr %q\nstatus %d",
				tc.name, out, errs, st, tc.out, tc.err, tc.status)
		}
		if got := strings.Join(h.calls, ","); got != tc.calls {
			t.Errorf("%s: calls %q, want %q", tc.name, got, tc.calls)
		}
	}
}

func TestCancelledContext(t *testing.T) {
	h := newFake()
	var out strings.Builder
	r := &Runner{Handler: h, Renderer: fakeRenderer{}, Stdout: &out, Prefix: "agsh: "}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st := r.RunScript(ctx, "true\ntrue"); st != 130 {
		t.Errorf("status %d, want 130", st)
	}
	if len(h.calls) != 0 {
		t.Errorf("calls %q after cancellation", h.calls)
	}
}

func TestRunListREPL(t *testing.T) {
	h := newFake()
	h.renderSelf = true
	var out, errb strings.Builder
	r := &Runner{Handler: h, Renderer: fakeRenderer{}, Stdout: &out, Stderr: &errb, Prefix: "agsh: "}
	run := func(line string) (int, bool) {
		t.Helper()
		s, err := parseOne(line)
		if err != nil {
			t.Fatal(err)
		}
		return r.RunList(context.Background(), s)
	}
	if st, exit := run("lines"); st != 0 || exit {
		t.Errorf("lines: %d %v", st, exit)
	}
	if st, exit := run("nosuch"); st != 2 || exit {
		t.Errorf("nosuch: %d %v", st, exit)
	}
	if st, exit := run("exit"); st != 2 || !exit {
		t.Errorf("exit: %d %v, want 2 true", st, exit)
	}
	wantOut := "self: alpha\nbeta\ngamma\ndelta\n\n"
	wantErr := "agsh: unknown command \"nosuch\"; run help for the list of commands\n"
	if out.String() != wantOut || errb.String() != wantErr {
		t.Errorf("stdout %q stderr %q, want %q %q", out.String(), errb.String(), wantOut, wantErr)
	}
}

func TestHandBuiltTrees(t *testing.T) {
	h := newFake()
	var errb strings.Builder
	r := &Runner{Handler: h, Stderr: &errb}
	cases := []*syntax.List{
		{Pipelines: []*syntax.Pipeline{{}}},
		{Pipelines: []*syntax.Pipeline{{Commands: []*syntax.Command{{}}}}},
		{},
	}
	for i, l := range cases {
		if st, exit := r.RunList(context.Background(), l); exit || (i < 2 && st != 2) {
			t.Errorf("case %d: status %d exit %v", i, st, exit)
		}
	}
	if errb.String() != "empty command\nempty command\n" {
		t.Errorf("stderr %q", errb.String())
	}
}

// FuzzRunScript runs arbitrary scripts against the fake catalog: whatever the
// input, the runner must answer with a status and never panic. jq programs are
// left out (a fuzzed program may legitimately loop for ever).
func FuzzRunScript(f *testing.F) {
	for _, tc := range statusCases {
		f.Add(tc.src)
	}
	for _, s := range []string{"lines | head -n 2 | tail -1", "arr | grep -c -v x", "obj | wc -lw", "exit 3",
		"help | grep -n e", "arr | tail -n +2 | head -0", "lines | grep -wix 'beta'", "lnes"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Contains(src, "jq") {
			t.Skip()
		}
		_, _, st, _ := runScript(src)
		if st < 0 || st > 255 {
			t.Fatalf("%q: status %d", src, st)
		}
	})
}

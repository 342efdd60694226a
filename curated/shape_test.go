package curated

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/generated"
)

const readSchema = `{"type":"object","required":["path"],"properties":{
 "path":{"type":"string","description":"Absolute path."},
 "offset":{"type":"integer"},"limit":{"type":"integer"}}}`

const grepSchema = `{"type":"object","required":["pattern"],"properties":{
 "pattern":{"type":"string"},"path":{"type":"string"},"glob":{"type":"string"},
 "output_mode":{"type":"string","enum":["content","files_with_matches","count"]},
 "-A":{"type":"integer"},"-B":{"type":"integer"},"-C":{"type":"integer"},"-i":{"type":"boolean"},
 "type":{"type":"string"},"head_limit":{"type":"integer"},"offset":{"type":"integer"},"multiline":{"type":"boolean"}}}`

func mustBind(t *testing.T, name, schema string) *Shape {
	t.Helper()
	s, err := Bind(name, json.RawMessage(schema))
	if err != nil || s == nil {
		t.Fatalf("Bind(%s) = %v, %v", name, s, err)
	}
	return s
}

func flagNames(s *Shape) string {
	var n []string
	for _, f := range s.Flags.Flags {
		n = append(n, f.Name)
	}
	return strings.Join(n, " ")
}

func TestBindShapes(t *testing.T) {
	cases := []struct {
		name, schema string
		bound        bool
		synopsis     string
		flags        string
		note         string
	}{
		{"read", readSchema, true, "read [options...] <path>", "--offset --limit", ""},
		{"read", `{"type":"object","properties":{"target_file":{"type":"string"},"limit":{"type":"integer"}}}`, true,
			"read [options...] <path>", "--limit", ""},
		{"read", `{"type":"object","required":["file"],"properties":{"file":{"type":"string"},"offset":{"type":"integer"}}}`, false,
			"", "--file --offset", "Generic flags: this deployment's read has no path field (fields: file, offset)."},
		{"read", `{"type":"object","properties":{"path":{"type":"integer"}}}`, false,
			"", "--path", "Generic flags: this deployment's read has no path field (fields: path)."},
		{"grep", grepSchema, true, "grep [options...] <pattern> [path]",
			"--glob --output-mode -A -B -C -i --type --head-limit --offset --multiline", ""},
		{"grep", `{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"},"-i":{"type":"boolean"}}}`, true,
			"grep [options...] <pattern> [path]", "-i", ""},
		{"ls", `{"type":"object","properties":{"target_directory":{"type":"string"},"ignore_globs":{"type":"array","items":{"type":"string"}}}}`, true,
			"ls [options...] [path]", "--ignore-globs", ""},
		{"ls", `{"type":"object","properties":{"dir":{"type":"string"},"ignore":{"type":"array","items":{"type":"string"}},"all":{"type":"boolean"}}}`, true,
			"ls [options...] [path]", "--ignore-globs --all", ""},
		{"glob", `{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"}}}`, true,
			"glob <pattern> [path]", "", ""},
		{"diff", `{"type":"object","properties":{}}`, false, "", "",
			"Generic flags: this deployment's diff has no path field (fields: none)."},
		{"diff", `{"type":"object","properties":{"path":{"type":["string","null"]}}}`, true, "diff [path]", "", ""},
	}
	for _, c := range cases {
		s := mustBind(t, c.name, c.schema)
		if s.Bound != c.bound {
			t.Errorf("%s %s: bound = %v", c.name, c.schema, s.Bound)
			continue
		}
		if c.bound && s.Synopsis() != c.synopsis {
			t.Errorf("%s: synopsis %q, want %q", c.name, s.Synopsis(), c.synopsis)
		}
		if got := flagNames(s); got != c.flags {
			t.Errorf("%s %s: flags %q, want %q", c.name, c.schema, got, c.flags)
		}
		if s.Note() != c.note {
			t.Errorf("%s: note %q, want %q", c.name, s.Note(), c.note)
		}
	}
	if s, err := Bind("cat", json.RawMessage(readSchema)); s != nil || err != nil {
		t.Errorf("Bind(cat) = %v, %v; want nil, nil", s, err)
	}
}

func TestParseCurated(t *testing.T) {
	cases := []struct {
		name, schema string
		args         []string
		input        string
		context      bool
		err          string
	}{
		{"read", readSchema, []string{"/repo/a", "--limit", "2"}, `{"limit":2,"path":"/repo/a"}`, false, ""},
		{"read", readSchema, []string{"--offset", "-5", "a.go"}, `{"offset":-5,"path":"a.go"}`, false, ""},
		{"read", readSchema, nil, "", false, "read: missing <path> operand\nusage: read [options...] <path>"},
		{"read", readSchema, []string{"a", "b"}, "", false, "read: unexpected operand \"b\"\nusage: read [options...] <path>"},
		{"grep", grepSchema, []string{"-i", "-A", "2", "toolEffect", "/repo/src"},
			`{"-A":2,"-i":true,"path":"/repo/src","pattern":"toolEffect"}`, true, ""},
		{"grep", grepSchema, []string{"-A2", "x"}, `{"-A":2,"pattern":"x"}`, true, ""},
		{"grep", grepSchema, []string{"--", "-h", "/repo"}, `{"path":"/repo","pattern":"-h"}`, false, ""},
		{"grep", grepSchema, []string{"-v", "x"}, "", false, "grep: -v is not an option of the deployment's grep"},
		{"grep", grepSchema, []string{"-in", "x"}, `{"-i":true,"pattern":"x"}`, false, ""},
		{"grep", grepSchema, []string{"-vi", "x"}, "", false, "grep: -v is not an option of the deployment's grep; local filters go after |"},
		{"grep", grepSchema, []string{"-ivn", "x"}, "", false, "grep: -v is not an option of the deployment's grep"},
		{"grep", grepSchema, []string{"-rn", "x"}, `{"pattern":"x"}`, false, ""},
		{"grep", grepSchema, []string{"-n", "-r", "x", "/repo/src"}, `{"path":"/repo/src","pattern":"x"}`, false, ""},
		{"grep", grepSchema, []string{"-l", "x"}, `{"output_mode":"files_with_matches","pattern":"x"}`, false, ""},
		{"grep", grepSchema, []string{"-rli", "x"}, `{"-i":true,"output_mode":"files_with_matches","pattern":"x"}`, false, ""},
		{"grep", grepSchema, []string{"x", "-c"}, `{"output_mode":"count","pattern":"x"}`, false, ""},
		{"grep", grepSchema, []string{"-c", "-c", "x"}, `{"output_mode":"count","pattern":"x"}`, false, ""},
		{"grep", grepSchema, []string{"-l", "--output-mode", "count", "x"}, "", false, "grep: -l and --output-mode both set the output mode; give one"},
		{"grep", grepSchema, []string{"--output-mode=content", "-c", "x"}, "", false, "grep: -c and --output-mode both set the output mode; give one"},
		{"grep", grepSchema, []string{"-l", "-c", "x"}, "", false, "grep: -c and -l both set the output mode; give one"},
		{"grep", grepSchema, []string{"-e", "--target", "/repo"}, `{"path":"/repo","pattern":"--target"}`, false, ""},
		{"grep", grepSchema, []string{"-i", "-e", "-x", "/repo"}, `{"-i":true,"path":"/repo","pattern":"-x"}`, false, ""},
		{"grep", grepSchema, []string{"-e-n"}, `{"pattern":"-n"}`, false, ""},
		{"grep", grepSchema, []string{"--glob=-n", "x"}, `{"glob":"-n","pattern":"x"}`, false, ""},
		{"grep", grepSchema, []string{"-e"}, "", false, "grep: -e needs a pattern"},
		{"grep", grepSchema, []string{"-e", "a", "-e", "b"}, "", false, "grep: give one -e pattern"},
		{"grep", grepSchema, []string{"-e", "a", "b", "c"}, "", false, "grep: unexpected operand \"c\""},
		{"grep", grepSchema, []string{"-i", "--", "-vn"}, `{"-i":true,"pattern":"-vn"}`, false, ""},
		{"ls", `{"type":"object","properties":{"target_directory":{"type":"string"},"ignore_globs":{"type":"array","items":{"type":"string"}}}}`,
			[]string{"--ignore-globs", "*.go", "--ignore-globs", "x/**"}, `{"ignore_globs":["*.go","x/**"],"target_directory":"/repo"}`, false, ""},
		{"read", `{"type":"object","properties":{"file":{"type":"string"}}}`, []string{"--file", "a"}, `{"file":"a"}`, false, ""},
		{"read", `{"type":"object","properties":{"file":{"type":"string"}}}`, []string{"a"}, "", false, "a"},
	}
	for _, c := range cases {
		s := mustBind(t, c.name, c.schema)
		call, err := s.Parse(c.args)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %v: error %v, want %q", c.name, c.args, err, c.err)
			}
			var ec interface{ ExitCode() int }
			if err != nil && (!errors.As(err, &ec) || ec.ExitCode() != 2) {
				t.Errorf("%s %v: error %T is not a usage error", c.name, c.args, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", c.name, c.args, err)
			continue
		}
		if string(call.Input) != c.input || call.Reformat.Context != c.context {
			t.Errorf("%s %v: input %s context %v, want %s %v", c.name, c.args, call.Input, call.Reformat.Context, c.input, c.context)
		}
	}
}

func TestParseHelpWins(t *testing.T) {
	s := mustBind(t, "read", readSchema)
	call, err := s.Parse([]string{"--bogus", "--help"})
	if err != nil || !call.Parsed.Help {
		t.Errorf("Parse(--bogus --help) = %v, %v; want help", call, err)
	}
}

// A curated flag whose field has another type than the shape expects is not
// offered; a field without a type keeps its generated flag.
func TestBindFlagOfAnotherType(t *testing.T) {
	s := mustBind(t, "read", `{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"string"},"offset":{"type":"integer"}}}`)
	if got := flagNames(s); got != "--offset" {
		t.Errorf("read flags = %q, want --offset", got)
	}
	if _, err := s.Parse([]string{"--limit", "2", "a"}); err == nil {
		t.Errorf("read --limit with a string limit field: no error")
	}
	s = mustBind(t, "grep", `{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"},"-A":{"type":"string"},"-i":{"type":"boolean"},"output_mode":{"enum":["content","count"]}}}`)
	if got := flagNames(s); got != "-i --output-mode" {
		t.Errorf("grep flags = %q, want -i --output-mode", got)
	}
}

func TestOperandFieldAsFlag(t *testing.T) {
	s := mustBind(t, "ls", `{"type":"object","properties":{"target_directory":{"type":"string"},"ignore_globs":{"type":"array","items":{"type":"string"}}}}`)
	for _, args := range [][]string{{"--target-directory", "/repo"}, {"--target-directory=/repo"}, {"--path", "/repo"}} {
		_, err := s.Parse(args)
		want := "ls: the path is an operand, not a flag"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ls %v: %v; want %q", args, err, want)
		}
	}
}

// TestGrepHabitsReadTheOptionTable: grep's habits skip a global option's
// value by generated.GlobalOptions, the one table of agsh's options
// (docs/cli.md#global-options): a new option taking a value (a --watch
// <seconds>) needs no second list here, and its dash-led value is refused as
// --session's is, not read as -l.
func TestGrepHabitsReadTheOptionTable(t *testing.T) {
	saved := generated.GlobalOptions
	defer func() { generated.GlobalOptions = saved }()
	generated.GlobalOptions = append(slices.Clone(saved), generated.GlobalOption{Name: "--watch", Placeholder: "<seconds>", Help: "watch"})
	s := mustBind(t, "grep", grepSchema)
	for _, opt := range []string{"--session", "--watch"} {
		_, err := s.Parse([]string{opt, "-l", "x"})
		if want := opt + "=-l"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("grep %s -l x: %v; want the error naming %s", opt, err, want)
		}
	}
	call, err := s.Parse([]string{"--watch", "5", "-l", "x"})
	if err != nil || string(call.Input) != `{"output_mode":"files_with_matches","pattern":"x"}` ||
		len(call.Parsed.Globals) != 1 || call.Parsed.Globals[0].Value != "5" {
		t.Errorf("grep --watch 5 -l x: %v, %+v", err, call)
	}
}

const lsSchema = `{"type":"object","required":["target_directory"],"properties":{
 "target_directory":{"type":"string"},"ignore_globs":{"type":"array","items":{"type":"string"}}}}`

// The habits the shapes accept beyond their flags: grep's -E, -F and -w
// rewrite the pattern sent, read's -n numbers the lines, ls's -a shows
// hidden entries when the live schema has a field for them.
func TestUnixHabits(t *testing.T) {
	grep := mustBind(t, "grep", grepSchema)
	input := func(s *Shape, args ...string) (map[string]any, ReformatOptions, error) {
		c, err := s.Parse(args)
		if err != nil {
			return nil, ReformatOptions{}, err
		}
		var m map[string]any
		if err := json.Unmarshal(c.Input, &m); err != nil {
			t.Fatal(err)
		}
		return m, c.Reformat, nil
	}
	for _, c := range []struct {
		args    []string
		pattern string
	}{
		{[]string{"-E", "a|b"}, "a|b"},
		{[]string{"-F", "a.b(c"}, `a\.b\(c`},
		{[]string{"-w", "err"}, `\b(?:err)\b`},
		{[]string{"-Fw", "a.b"}, `\b(?:a\.b)\b`},
		{[]string{"-iwn", "x", "/repo"}, `\b(?:x)\b`},
		{[]string{"-F", "-e", "-x"}, `-x`},
	} {
		m, _, err := input(grep, c.args...)
		if err != nil || m["pattern"] != c.pattern {
			t.Errorf("grep %q: pattern %q, %v; want %q", c.args, m["pattern"], err, c.pattern)
		}
	}
	if _, _, err := input(grep, "-E", "-F", "x"); err == nil || err.Error() != "grep: -E and -F both say how the pattern reads; give one" {
		t.Errorf("grep -E -F: %v", err)
	}
	if _, _, err := input(grep, "-v", "x"); err == nil || !strings.Contains(err.Error(), "local filters go after |") {
		t.Errorf("grep -v: %v", err)
	}

	read := mustBind(t, "read", readSchema)
	if _, o, err := input(read, "-n", "/repo/a"); err != nil || !o.Numbers {
		t.Errorf("read -n: %+v %v", o, err)
	}
	c, err := read.Parse([]string{"/repo/a.go:12", "--limit", "3"})
	if err != nil {
		t.Fatal(err)
	}
	next, ok := read.RetryCall(c, "No such file or directory: /repo/a.go:12")
	if !ok || string(next.Input) != `{"limit":3,"offset":12,"path":"/repo/a.go"}` || !next.Reformat.Numbers {
		t.Errorf("read PATH:N retry: %v %s %+v", ok, next.Input, next)
	}
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"/repo/a.go:12"}, "Is a directory: /repo/a.go:12"},
		{[]string{"/repo/a.go"}, "No such file or directory: /repo/a.go"},
		{[]string{"/repo/a.go:0"}, "No such file or directory: /repo/a.go:0"},
		{[]string{"/repo/a.go:12", "--offset", "3"}, "No such file or directory: /repo/a.go:12"},
	} {
		c, err := read.Parse(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := read.RetryCall(c, tc.err); ok {
			t.Errorf("read %q after %q retried", tc.args, tc.err)
		}
	}

	ls := mustBind(t, "ls", lsSchema)
	if _, err := ls.Parse([]string{"-a"}); err == nil || !strings.HasPrefix(err.Error(), "ls: -a: this deployment's ls always leaves out dot-files") {
		t.Errorf("ls -a without a field: %v", err)
	}
	hidden := mustBind(t, "ls", strings.Replace(lsSchema, `"ignore_globs"`, `"include_hidden":{"type":"boolean"},"ignore_globs"`, 1))
	if m, _, err := input(hidden, "-a", "/repo/x"); err != nil || m["include_hidden"] != true || m["target_directory"] != "/repo/x" {
		t.Errorf("ls -a with include_hidden: %v %v", m, err)
	}
	if sh := hidden.Shorthands(); len(sh) != 1 || sh[0].Term != "-a" {
		t.Errorf("ls shorthands: %+v", sh)
	}
}

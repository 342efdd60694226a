package generated

import (
	"errors"
	"strings"
	"testing"
)

type exitCoder interface{ ExitCode() int }

func TestParseErrors(t *testing.T) {
	c := mustBuild(t, parseSchema, BuildOptions{})
	const all = "--name, --count, --ratio, --force, --sort, --level, --kind, --tags, --ids, --bits, --modes, --objs, --loose, --pair, --labels, --opt, --flag, --num, --any, --shape, --strict, --telemetry-context, --telemetry-deep-x, -i, -v, -A, --output-2"
	tests := []struct {
		name      string
		spellings [][]string
		want      string
	}{
		{"unknown flag with suggestion", [][]string{{"--nme", "x"}, {"--nme=x"}},
			"unknown flag --nme (did you mean --name or --num?); flags: " + all},
		{"unknown flag several suggestions", [][]string{{"--telemetry"}},
			"unknown flag --telemetry (did you mean --telemetry-context or --telemetry-deep-x?); flags: " + all},
		{"unknown flag prefix suggestion", [][]string{{"--lab"}},
			"unknown flag --lab (did you mean --flag or --labels?); flags: " + all},
		{"unknown flag no suggestion", [][]string{{"--zzzzzz"}},
			"unknown flag --zzzzzz; flags: " + all},
		{"unknown single-dash word", [][]string{{"-name"}, {"-name=x"}},
			"unknown flag -name (did you mean --name or --num?); flags: " + all},
		{"suggestions include reserved globals", [][]string{{"--output-3", "x"}},
			"unknown flag --output-3 (did you mean --output-2 or --output?); flags: " + all},
		{"misspelled global", [][]string{{"--sesion", "s"}},
			"unknown flag --sesion (did you mean --session?); flags: " + all},
		{"agsh's valueless option given a value", [][]string{{"--yes=no"}},
			`invalid value "no" for --yes: expected no value (--yes alone)`},
		{"integer not a number", [][]string{{"--count", "abc"}, {"--count=abc"}},
			`invalid value "abc" for --count: expected an integer`},
		{"integer decimal", [][]string{{"--count", "1.5"}},
			`invalid value "1.5" for --count: expected an integer`},
		{"integer out of range", [][]string{{"--count", "9223372036854775808"}},
			`invalid value "9223372036854775808" for --count: expected an integer`},
		{"number syntax", [][]string{{"--ratio", "1."}, {"--ratio=1."}},
			`invalid value "1." for --ratio: expected a number`},
		{"number NaN", [][]string{{"--ratio", "NaN"}},
			`invalid value "NaN" for --ratio: expected a number`},
		{"boolean value", [][]string{{"--force=yes"}},
			`invalid value "yes" for --force: expected true or false (or the bare flag)`},
		{"boolean empty", [][]string{{"--force="}},
			`invalid value "" for --force: expected true or false (or the bare flag)`},
		{"enum", [][]string{{"--sort", "up"}, {"--sort=up"}},
			`invalid value "up" for --sort: expected one of asc, desc, -asc`},
		{"const", [][]string{{"--kind", "first"}},
			`invalid value "first" for --kind: expected latest`},
		{"enum compared as text", [][]string{{"--level", "2.5"}},
			`invalid value "2.5" for --level: expected one of 1, two, true, 2.50`},
		{"array element checked", [][]string{{"--ids", "1", "--ids", "x"}},
			`invalid value "x" for --ids: expected an integer`},
		{"enum items checked", [][]string{{"--modes", "x"}},
			`invalid value "x" for --modes: expected one of r, w`},
		{"boolean array element", [][]string{{"--bits", "1"}},
			`invalid value "1" for --bits: expected true or false`},
		{"object array needs json", [][]string{{"--objs", "nope"}},
			`invalid value "nope" for --objs: expected JSON (an object)`},
		{"map needs object", [][]string{{"--labels", "[1]"}, {"--labels=[1]"}},
			`invalid value "[1]" for --labels: expected a JSON object`},
		{"map needs json", [][]string{{"--labels", "x"}},
			`invalid value "x" for --labels: expected a JSON object`},
		{"strict union", [][]string{{"--strict", "word"}},
			`invalid value "word" for --strict: expected JSON (an object or an array)`},
		{"tuple position without string", [][]string{{"--pair", "a", "--pair", "b"}},
			`invalid value "b" for --pair: expected JSON (an integer)`},
		{"duplicate", [][]string{{"--name", "a", "--name", "b"}, {"--name=a", "--name=a"}},
			"flag --name given more than once (it takes a single value)"},
		{"duplicate boolean", [][]string{{"--force", "--force"}},
			"flag --force given more than once (it takes a single value)"},
		{"duplicate short", [][]string{{"-A1", "-A", "2"}},
			"flag -A given more than once (it takes a single value)"},
		{"missing value at end", [][]string{{"--name"}},
			"flag --name needs a value"},
		{"missing value before flag", [][]string{{"--name", "--count", "1"}},
			"flag --name needs a value before --count"},
		{"missing value before short flag", [][]string{{"--name", "-A2"}},
			"flag --name needs a value before -A2"},
		{"missing value before global", [][]string{{"--name", "--output", "json"}},
			"flag --name needs a value before --output"},
		{"missing value before help-like global", [][]string{{"--output", "--name", "x"}},
			"flag --output needs a value before --name"},
		{"missing integer before a word it cannot take", [][]string{{"--count", "-x"}},
			"flag --count needs a value before -x"},
		{"dash value needs equals", [][]string{{"--name", "-x"}},
			`flag --name needs a value; to pass a value that begins with "-", write --name=-x`},
		{"negative number only for numeric flags", [][]string{{"--name", "-5"}},
			`flag --name needs a value; to pass a value that begins with "-", write --name=-5`},
		{"global missing value", [][]string{{"--output"}},
			"flag --output needs a value"},
		{"short missing value", [][]string{{"-A"}},
			"flag -A needs a value"},
		{"bundle with valued flag", [][]string{{"-iA"}},
			`invalid value "A" for -i: expected true or false (or the bare flag)`},
		{"first error wins", [][]string{{"--count", "x", "--nope"}},
			`invalid value "x" for --count: expected an integer`},
	}
	for _, tt := range tests {
		for _, args := range tt.spellings {
			p, err := c.Parse(args)
			if err == nil {
				t.Errorf("%s: Parse(%q) = %s, want error", tt.name, args, p.JSON())
				continue
			}
			if err.Error() != tt.want {
				t.Errorf("%s: Parse(%q) error:\n got %s\nwant %s", tt.name, args, err, tt.want)
			}
			var ec exitCoder
			if !errors.As(err, &ec) || ec.ExitCode() != 2 {
				t.Errorf("%s: error %T has no exit code 2", tt.name, err)
			}
		}
	}
}

func TestUnknownFlagNoFlags(t *testing.T) {
	c := mustBuild(t, `{}`, BuildOptions{})
	_, err := c.Parse([]string{"--x"})
	if err == nil || err.Error() != "unknown flag --x; this command takes no flags" {
		t.Fatalf("error = %v", err)
	}
	if err := c.RejectOperands(&Parsed{Operands: []string{"foo"}}); err == nil || err.Error() != `unexpected operand "foo": this command takes no operands and no flags` {
		t.Errorf("operand error = %v", err)
	}
	free := mustBuild(t, `{"type":"object","additionalProperties":{"type":"string"}}`, BuildOptions{})
	if _, err := free.Parse([]string{"--x=1"}); err == nil || err.Error() != "unknown flag --x; this command takes no flags (its input is a free-form object, which agsh cannot fill from flags: it is called with {})" {
		t.Errorf("free-form error = %v", err)
	}
	var u *UnknownFlagError
	if !errors.As(err, &u) || u.Flag != "--x" || len(u.Flags) != 0 {
		t.Fatalf("error = %#v", err)
	}
}

func TestValidate(t *testing.T) {
	c := mustBuild(t, `{"properties":{"owner":{"type":"string"},"repo":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},
		"t":{"properties":{"c":{"type":"string"}},"required":["c"]},"o":{"type":"string"}},"required":["owner","repo","tags","t"]}`, BuildOptions{})
	tests := []struct {
		args []string
		want string
	}{
		{[]string{}, "missing required flags --owner, --repo, --tags, --t-c"},
		{[]string{"--owner", "a", "--repo", "b", "--tags", "x"}, "missing required flag --t-c"},
		{[]string{"--owner", "a", "--repo", "b", "--tags", "x", "--t-c", "y"}, ""},
	}
	for _, tt := range tests {
		p, err := c.Parse(tt.args)
		if err != nil {
			t.Fatal(err)
		}
		err = c.Validate(p)
		got := ""
		if err != nil {
			got = err.Error()
			if err.(exitCoder).ExitCode() != 2 {
				t.Errorf("exit code of %T", err)
			}
		}
		if got != tt.want {
			t.Errorf("Validate(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// TestValidateRequiredBoolean: a required boolean's missing-flag error
// says how to send false (a spreadsheet server's newSheet), which the bare
// flag does not show.
func TestValidateRequiredBoolean(t *testing.T) {
	c := mustBuild(t, `{"properties":{"title":{"type":"string"},"newSheet":{"type":"boolean"}},"required":["title","newSheet"]}`, BuildOptions{})
	for args, want := range map[string]string{
		"--title=x":         "missing required flag --new-sheet (--new-sheet sends true, --new-sheet=false sends false)",
		"":                  "missing required flags --title, --new-sheet (--new-sheet sends true, --new-sheet=false sends false)",
		"--new-sheet=false": "missing required flag --title",
	} {
		p, err := c.Parse(strings.Fields(args))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(p); err == nil || err.Error() != want {
			t.Errorf("Validate(%s) = %v, want %s", args, err, want)
		}
	}
}

func TestRejectOperands(t *testing.T) {
	c := mustBuild(t, `{"properties":{"owner":{"type":"string"},"issue_number":{"type":"integer"},"state":{"enum":["open","closed"]},"draft":{"type":"boolean"},"page":{"type":"integer"}},"required":["owner","issue_number"]}`, BuildOptions{})
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--owner", "o", "--issue-number", "1"}, ""},
		{[]string{"--owner", "o", "42"}, `unexpected operand "42": this command takes flags only; did you mean --issue-number 42?`},
		{[]string{"42"}, `unexpected operand "42": this command takes flags only; did you mean --owner 42?`},
		{[]string{"--owner", "o", "--issue-number", "1", "7"}, `unexpected operand "7": this command takes flags only; did you mean --page 7?`},
		{[]string{"--owner", "o", "--issue-number", "1", "closed"}, `unexpected operand "closed": this command takes flags only; did you mean --state closed?`},
		{[]string{"owner=me"}, `unexpected operand "owner=me": this command takes flags only; did you mean --owner=me?`},
		{[]string{"issue_number=3"}, `unexpected operand "issue_number=3": this command takes flags only; did you mean --issue-number=3?`},
		{[]string{"draft"}, `unexpected operand "draft": this command takes flags only; did you mean --draft?`},
		{[]string{"ownr"}, `unexpected operand "ownr": this command takes flags only; did you mean --owner <string>?`},
		{[]string{"--owner", "o", "--issue-number", "1", "words"}, `unexpected operand "words": this command takes flags only`},
		{[]string{"--owner", "o", "--issue-number", "1", "--", "-3"}, `unexpected operand "-3": this command takes flags only; did you mean --page=-3?`},
	}
	for _, tt := range tests {
		p, err := c.Parse(tt.args)
		if err != nil {
			t.Fatal(err)
		}
		err = c.RejectOperands(p)
		got := ""
		if err != nil {
			got = err.Error()
			if err.(exitCoder).ExitCode() != 2 {
				t.Errorf("exit code of %T", err)
			}
		}
		if got != tt.want {
			t.Errorf("RejectOperands(%q):\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}

// TestRejectOperandsHints: a "true"/"false" after a bare boolean flag means
// that flag's value, and a JSON-valued flag (which takes almost any word)
// is suggested only when no typed flag takes the operand.
func TestRejectOperandsHints(t *testing.T) {
	c := mustBuild(t, `{"properties":{"filter":{"anyOf":[{"type":"object"},{"type":"array"}]},"limit":{"type":"integer"},"dry_run":{"type":"boolean"},"-v":{"type":"boolean"},"owner":{"type":"string"}},"required":["owner"]}`, BuildOptions{})
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--owner", "o", "42"}, `unexpected operand "42": this command takes flags only; did you mean --limit 42?`},
		{[]string{"--owner", "o", "--dry-run", "false"}, `unexpected operand "false": this command takes flags only; did you mean --dry-run=false?`},
		{[]string{"--dry-run", "true", "--owner", "o"}, `unexpected operand "true": this command takes flags only; did you mean --dry-run=true?`},
		{[]string{"--owner", "o", "-v", "false"}, `unexpected operand "false": this command takes flags only; did you mean -v=false?`},
		{[]string{"--owner", "o", `{"a":1}`}, `unexpected operand "{\"a\":1}": this command takes flags only; did you mean --filter {"a":1}?`},
		{[]string{"--owner", "o", "--limit", "1", "[7]"}, `unexpected operand "[7]": this command takes flags only; did you mean --filter [7]?`},
		// An object-or-array flag does not take 7 (docs/mapping.md#values).
		{[]string{"--owner", "o", "--limit", "1", "7"}, `unexpected operand "7": this command takes flags only`},
	}
	for _, tt := range tests {
		p, err := c.Parse(tt.args)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := c.RejectOperands(p); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("RejectOperands(%q):\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}

// TestUnknownFlagProperty: a flag spelled as its schema property suggests
// the flag that stands for it first, also when a collision renamed it.
func TestUnknownFlagProperty(t *testing.T) {
	c := mustBuild(t, `{"properties":{"perPage":{"type":"integer"},"per_page":{"type":"integer"},"telemetry":{"properties":{"context":{"type":"string"}}}}}`, BuildOptions{})
	tests := []struct{ arg, want string }{
		{"--per_page", "unknown flag --per_page (did you mean --per-page-2 or --per-page?); flags: --per-page, --per-page-2, --telemetry-context"},
		{"--perPage", "unknown flag --perPage (did you mean --per-page?); flags: --per-page, --per-page-2, --telemetry-context"},
		{"--telemetry.context", "unknown flag --telemetry.context (did you mean --telemetry-context?); flags: --per-page, --per-page-2, --telemetry-context"},
	}
	for _, tt := range tests {
		_, err := c.Parse([]string{tt.arg, "1"})
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) error:\n got %v\nwant %s", tt.arg, err, tt.want)
		}
	}
}

// TestBadValueNamesJSONShapes: a JSON-valued flag's bad value names the
// values its schema allows.
func TestBadValueNamesJSONShapes(t *testing.T) {
	c := mustBuild(t, `{"properties":{
		"mixed":{"anyOf":[{"type":"object"},{"type":"integer"},{"type":"null"}]},
		"multi":{"type":["array","boolean"]},
		"rows":{"type":"array","items":{"oneOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"array"}]}},
		"free":{"anyOf":[{"type":"object"},{}]}}}`, BuildOptions{})
	tests := []struct{ flag, want string }{
		{"--mixed", `invalid value "nope" for --mixed: expected JSON (an object or an integer or null)`},
		{"--multi", `invalid value "nope" for --multi: expected JSON (an array or true or false)`},
		{"--rows", `invalid value "nope" for --rows: expected JSON (an object or an array)`},
		{"--free", ``},
	}
	for _, tt := range tests {
		_, err := c.Parse([]string{tt.flag, "nope"})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Parse(%s nope):\n got %q\nwant %q", tt.flag, got, tt.want)
		}
	}
}

// TestEnumLabels: an enum value that a bare list would hide or blur (empty,
// with a space, "|" or ",") is shown as JSON in the placeholder and the
// error; it is still given as plain text.
func TestEnumLabels(t *testing.T) {
	c := mustBuild(t, `{"properties":{"c":{"enum":["","x y","a|b","plain",1]}}}`, BuildOptions{})
	f := c.Lookup("--c")
	if want := `<""|"x y"|"a|b"|plain|1>`; f.Placeholder != want {
		t.Errorf("placeholder %s, want %s", f.Placeholder, want)
	}
	_, err := c.Parse([]string{"--c", "nope"})
	if want := `invalid value "nope" for --c: expected one of "", "x y", "a|b", plain, 1`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	for _, v := range []string{"", "x y", "a|b"} {
		p, err := c.Parse([]string{"--c=" + v})
		if err != nil {
			t.Fatalf("--c=%s: %v", v, err)
		}
		if got := p.Input["c"]; got != v {
			t.Errorf("--c=%s sent %#v", v, got)
		}
	}
}

package command

import (
	"slices"
	"testing"
)

// TestTakenWordsNeedNoSecondWalk: when Scan took every one of agsh's
// options from the command's words (Taken), ScanWords and OptionValue find
// none in them, so ScannedWords may stand for ScanWords; a word after -e
// spelled like one of agsh's options, a command after "--", or a mistake
// makes the line not Taken.
func TestTakenWordsNeedNoSecondWalk(t *testing.T) {
	lines := []struct {
		args  []string
		taken bool
	}{
		{[]string{"read", "/repo/a", "--output", "json"}, true},
		{[]string{"--output", "json", ":trace", "--last", "3", "--yes"}, true},
		{[]string{"read", "--input-json", "{}", "--timeout", "5s"}, true},
		{[]string{"grep", "-e", "Demo", "/repo", "--output=json"}, true},
		{[]string{"read", "/repo/a", "--", "--output", "json", "--input-json", "{}"}, true},
		{[]string{"read", "--help=x", "--version"}, true},
		{[]string{"grep", "-e", "--output", "json", "/repo"}, false},
		{[]string{"grep", "-e", "--input-json={}", "/repo"}, false},
		{[]string{":curl", "grep", "-e", "--help"}, false},
		{[]string{"--", "read", "--output", "json"}, false},
		{[]string{"read", "--output"}, false},
		{[]string{"read", "--output", "yaml"}, false},
		{[]string{}, false},
	}
	for _, c := range lines {
		l := Scan(c.args)
		if l.Taken() != c.taken {
			t.Errorf("Scan(%q).Taken() = %v, want %v", c.args, l.Taken(), c.taken)
		}
		if !l.Taken() {
			continue
		}
		again, scanned := ScanWords(l.Args), ScannedWords(l.Args)
		if len(again.Given) != 0 || !slices.Equal(again.Args, scanned.Args) || len(scanned.Given) != 0 {
			t.Errorf("%q: ScanWords(Args) = %+v, ScannedWords = %+v", c.args, again, scanned)
		}
		if tool := ScanToolWords(l.Args); len(tool.Given) != 0 || !slices.Equal(tool.Args, scanned.Args) {
			t.Errorf("%q: ScanToolWords(Args) = %+v, ScannedWords = %+v", c.args, tool, scanned)
		}
		if _, present := OptionValue(l.Args, "--input-json"); present {
			t.Errorf("%q: an --input-json is left among the command's words %q", c.args, l.Args)
		}
	}
}

// TestWordAfterEIsTheCommands: the word after grep's -e is the command's
// whatever its spelling (TakesWord) in a tool's words before a pipe
// (ScanToolWords) and in the command line :curl wraps (ScanMetaWords), as
// on a one-shot line; a meta command's own words (ScanWords) have no -e,
// and agsh's options before the wrapped command's name are agsh's.
func TestWordAfterEIsTheCommands(t *testing.T) {
	for _, c := range []struct {
		name   string
		l      Line
		output string // the --output taken as agsh's ("": none)
		args   []string
	}{
		{"tool", ScanToolWords([]string{"-e", "--output", "json", "/repo"}), "", []string{"-e", "--output", "json", "/repo"}},
		{"tool, after", ScanToolWords([]string{"-e", "x", "/repo", "--output", "json"}), "json", []string{"-e", "x", "/repo"}},
		{"tool, last", ScanToolWords([]string{"/repo", "-e"}), "", []string{"/repo", "-e"}},
		{":curl", ScanMetaWords(":curl", []string{"grep", "-e", "--output", "json", "/repo"}), "", []string{"grep", "-e", "--output", "json", "/repo"}},
		{":curl, before the name", ScanMetaWords(":curl", []string{"--output", "yaml", "grep", "-e", "--output", "/repo"}),
			"yaml", []string{"grep", "-e", "--output", "/repo"}},
		{":trace", ScanMetaWords(":trace", []string{"-e", "--output", "json"}), "json", []string{"-e"}},
		{"meta", ScanWords([]string{"-e", "--output", "json"}), "json", []string{"-e"}},
	} {
		out, _ := c.l.Output()
		if out != c.output || !slices.Equal(c.l.Args, c.args) {
			t.Errorf("%s: --output %q, words %q; want %q, %q", c.name, out, c.l.Args, c.output, c.args)
		}
	}
	// Before a pipe, -e --help searches for "--help": no help is asked for.
	if got := ScanToolWords([]string{"-e", "--help", "/repo"}).ValueArgs(); !slices.Equal(got, []string{"--output", "text", "-e", "--help", "/repo"}) {
		t.Errorf("ValueArgs of -e --help: %q", got)
	}
	if got := ScanToolWords([]string{"/repo", "--help"}).ValueArgs(); !slices.Equal(got, []string{"/repo", "--help"}) {
		t.Errorf("ValueArgs of --help: %q", got)
	}
}

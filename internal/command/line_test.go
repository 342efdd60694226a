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
		if _, present := OptionValue(l.Args, "--input-json"); present {
			t.Errorf("%q: an --input-json is left among the command's words %q", c.args, l.Args)
		}
	}
}

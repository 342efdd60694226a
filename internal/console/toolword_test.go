package console

import (
	"strings"
	"testing"
)

// A recorded tool name gets a command line only when it is a plain command
// word: a meta command's spelling, an option of agsh's, the shell's own
// words, metacharacters and control, bidi or zero-width characters get none.
func TestToolWordProblem(t *testing.T) {
	for _, name := range []string{"read", "report_change_issue", "datadog_list-monitors", "A1", "_x", strings.Repeat("a", 64)} {
		if why := ToolWordProblem(name); why != "" {
			t.Errorf("%q: %s", name, why)
		}
	}
	for name, want := range map[string]string{
		"":                      "names no tool",
		":stop":                 "like a meta command",
		"--session=ses_x":       "like an option",
		"--target=http://x":     "like an option",
		"--yes":                 "like an option",
		"-h":                    "like an option",
		"help":                  "the shell's own words",
		"exit":                  "the shell's own words",
		"read;rm":               "other than letters",
		"a b":                   "other than letters",
		"read|head":             "other than letters",
		"x'y":                   "other than letters",
		"read\x1b[31m":          `"read\x1b[31m"`,
		"gnp\u202eexe":          `\u202e`,
		"re\u200bad":            `\u200b`,
		"read\n:stop":           `\n`,
		"d.read":                "other than letters",
		strings.Repeat("a", 65): "longer than 64",
	} {
		why := ToolWordProblem(name)
		if why == "" || !strings.Contains(why, want) {
			t.Errorf("%q: %q, want it to say %q", name, why, want)
		}
		for _, r := range why {
			if r < 0x20 || r > 0x7e {
				t.Errorf("%q: the message holds %U: %q", name, r, why)
			}
		}
	}
}

package interp

import (
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	names := []string{"read", "ls", "glob", "grep", "diff", "head", "tail", "wc", "jq", "help", "exit",
		"datadog_list_monitors", "datadog_mute_monitor", "datadog_get_monitor", "report_change_issue"}
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"raed", "rad", "reed", "reads"}, "read"},
		{[]string{"hed", "haed", "heal"}, "head"},
		{[]string{"heap"}, "head,help"},
		{[]string{"hel"}, "help"},
		{[]string{"gerp", "grpe"}, "grep"},
		{[]string{"lss", "sl"}, "ls"},
		{[]string{"datadog_list_monitor", "datadog_list_monitros"}, "datadog_list_monitors"},
		{[]string{"datadog"}, "datadog_get_monitor,datadog_list_monitors,datadog_mute_monitor"},
		{[]string{"datadog_mute"}, "datadog_mute_monitor"},
		{[]string{"datadog_unmute"}, "datadog_get_monitor,datadog_list_monitors,datadog_mute_monitor"},
		{[]string{"report"}, "report_change_issue"},
		{[]string{"qq", "jqq"}, "jq"},
		{[]string{"zzzzzz", "x", "kubectl"}, ""},
	}
	for _, tc := range cases {
		for _, in := range tc.in {
			if got := strings.Join(Suggest(in, names), ","); got != tc.want {
				t.Errorf("Suggest(%q) = %q, want %q", in, got, tc.want)
			}
		}
	}
}

func TestUnknownCommandMessage(t *testing.T) {
	cases := []struct{ name, want string }{
		{"rea", `unknown command "rea"; did you mean read?`},
		{"hea", `unknown command "hea"; did you mean head?`},
		{"heap", `unknown command "heap"; did you mean head or help?`},
		{"ex", `unknown command "ex"; did you mean exit?`},
		{"tial", `unknown command "tial"; did you mean tail?`},
		{"kubectl", `unknown command "kubectl"; run help for the list of commands`},
	}
	for _, tc := range cases {
		if got := unknownCommand(tc.name, []string{"read", "head", "help", "tail", "exit"}); got != tc.want {
			t.Errorf("unknownCommand(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"ab", "ba", 1}, {"abc", "acb", 1}, {"ca", "abc", 3},
		{"kitten", "sitting", 3}, {"héad", "haéd", 1}, {"grep", "gerp", 1},
	}
	for _, tc := range cases {
		if got := distance([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

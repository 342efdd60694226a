package names

import (
	"strings"
	"testing"
)

func TestKebab(t *testing.T) {
	tests := []struct{ in, want string }{
		{"perPage", "per-page"},
		{"HTTPServer", "http-server"},
		{"URLs", "urls"},
		{"IDs", "ids"},
		{"redactPII", "redact-pii"},
		{"commitID", "commit-id"},
		{"endRfc3339", "end-rfc3339"},
		{"dryRun", "dry-run"},
		{"deduplicateSimilarURLs", "deduplicate-similar-urls"},
		{"XMLHttpRequest", "xml-http-request"},
		{"$filter", "filter"},
		{"", "arg"},
		{"---", "arg"},
		{"org_slug", "org-slug"},
		{"org__slug", "org-slug"},
		{"_private_", "private"},
		{"telemetry.context", "telemetry-context"},
		{"already-kebab", "already-kebab"},
		{"v2Api", "v2-api"},
		{"a1B", "a1-b"},
		{"ABc", "abc"},
		{"AServer", "a-server"},
		{"UPPER", "upper"},
		{"with space", "with-space"},
		{"ünïcode", "n-code"},
		{"日本", "arg"},
		{"-X", "x"},
		{"--Verbose", "verbose"},
	}
	for _, tt := range tests {
		if got := Kebab(tt.in); got != tt.want {
			t.Errorf("Kebab(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOrList(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "a", "a b": "a or b", "a b c": "a, b or c"} {
		if got := OrList(strings.Fields(in)); got != want {
			t.Errorf("OrList(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSuggest: one ranking for flags and for commands.
func TestSuggest(t *testing.T) {
	flags := []string{"--owner", "--repo", "--org-slug", "--per-page", "--page", "--perf", "-i"}
	tools := []string{"list_issues", "get_issue", "create_issue", "list_pull_requests", "search_code"}
	shell := []string{"read", "ls", "glob", "grep", "diff", "head", "tail", "wc", "jq", "help", "exit",
		"datadog_list_monitors", "datadog_mute_monitor", "datadog_get_monitor", "report_change_issue"}
	cases := []struct {
		cands []string
		in    []string
		want  string
	}{
		{flags, []string{"--ownr", "--onwer", "--OWNER"}, "--owner"},
		{flags, []string{"--rep"}, "--repo"},
		{flags, []string{"--per"}, "--perf"}, // SuggestFlag: --perf,--per-page
		{flags, []string{"--org"}, "--org-slug"},
		{flags, []string{"--page", "--zzzz", "", "--", "ls"}, ""},
		{flags, []string{"-I"}, "-i"},
		{tools, []string{"list_issue"}, "list_issues"},
		{tools, []string{"get_isue"}, "get_issue"},
		{tools, []string{"list"}, "list_issues,list_pull_requests"},
		{tools, []string{"serach_code"}, "search_code"},
		{tools, []string{"delete"}, ""},
		{shell, []string{"raed", "rad", "reed", "reads", "READ"}, "read"},
		{shell, []string{"hed", "haed", "heal"}, "head"},
		{shell, []string{"heap"}, "head,help"},
		{shell, []string{"hel"}, "help"},
		{shell, []string{"gerp", "grpe"}, "grep"},
		{shell, []string{"lss", "sl"}, "ls"},
		{shell, []string{"datadog_list_monitor", "datadog_list_monitros"}, "datadog_list_monitors"},
		{shell, []string{"datadog", "datadog_unmute", "datadog_foo"}, "datadog_get_monitor,datadog_list_monitors,datadog_mute_monitor"},
		{shell, []string{"datadog_mute"}, "datadog_mute_monitor"},
		{shell, []string{"report"}, "report_change_issue"},
		{shell, []string{"qq", "jqq"}, "jq"},
		{shell, []string{"zzzzzz", "x", "kubectl"}, ""},
	}
	for _, tc := range cases {
		for _, in := range tc.in {
			if got := strings.Join(Suggest(in, tc.cands), ","); got != tc.want {
				t.Errorf("Suggest(%q) = %q, want %q", in, got, tc.want)
			}
		}
	}
}

// TestSuggestFlag: for flags, near misspellings then prefixes, in the
// flags' order.
func TestSuggestFlag(t *testing.T) {
	flags := []string{"--owner", "--repo", "--org-slug", "--per-page", "--page", "--perf", "-i", "--data-source"}
	for in, want := range map[string]string{
		"--ownr": "--owner", "--onwer": "--owner", "--OWNER": "--owner", "--rep": "--repo",
		"--per": "--perf,--per-page", "--org": "--org-slug", "--page": "", "--zzzz": "",
		"": "", "--": "", "-I": "-i", "ls": "", "--data-sink": "",
	} {
		if got := strings.Join(SuggestFlag(in, flags), ","); got != want {
			t.Errorf("SuggestFlag(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"ab", "ba", 1}, {"abc", "acb", 1}, {"ca", "abc", 3},
		{"kitten", "sitting", 3}, {"héllo", "hello", 1},
	}
	for _, tc := range cases {
		if got := distance([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func FuzzSuggest(f *testing.F) {
	f.Add("raed", "read")
	f.Add("--per", "--perf")
	f.Fuzz(func(t *testing.T, name, cand string) {
		for _, s := range Suggest(name, []string{cand, "read", "--limit"}) {
			if s == name {
				t.Fatalf("Suggest(%q) offered the name itself", name)
			}
		}
	})
}

func TestSuggestPrefersTheGroupsTool(t *testing.T) {
	tools := []string{"list_changes", "datadog_list_monitors", "datadog_get_monitor", "github_list_issues", "read"}
	for name, want := range map[string]string{
		"list_monitors":        "datadog_list_monitors",
		"list_monitor":         "datadog_list_monitors",
		"get_monitor":          "datadog_get_monitor",
		"datadog_list_monitor": "datadog_list_monitors",
		"list_chnages":         "list_changes",
		"datadog_lst_monitors": "datadog_list_monitors",
		"github_list_isues":    "github_list_issues",
	} {
		if got := Suggest(name, tools); len(got) == 0 || got[0] != want {
			t.Errorf("Suggest(%q) = %v, want %s first", name, got, want)
		}
	}
	// Within a rank, the names of the typed name's group come first.
	if got := Suggest("datadog_lst", []string{"datadot_lst", "datadog_list"}); len(got) != 2 || got[0] != "datadog_list" {
		t.Errorf("Suggest(datadog_lst) = %v, want datadog_list first", got)
	}
}

package generated

import (
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	cands := []string{"--owner", "--repo", "--org-slug", "--per-page", "--page", "--perf", "-i"}
	tests := []struct{ name, want string }{
		{"--ownr", "--owner"},
		{"--onwer", "--owner"}, // transposition: distance 1
		{"--OWNER", "--owner"}, // case ignored
		{"--rep", "--repo"},    // distance 1
		{"--per", "--perf,--per-page"},
		{"--org", "--org-slug"}, // shared prefix
		{"--page", ""},          // itself excluded
		{"--zzzz", ""},
		{"", ""},
		{"--", ""},
		{"-I", "-i"},
		{"ls", ""},
	}
	for _, tt := range tests {
		got := strings.Join(Suggest(tt.name, cands), ",")
		if got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSuggestTools(t *testing.T) {
	tools := []string{"list_issues", "get_issue", "create_issue", "list_pull_requests", "search_code"}
	tests := []struct{ name, want string }{
		{"list_issue", "list_issues"},
		{"get_isue", "get_issue"},
		{"list", "list_issues,list_pull_requests"},
		{"serach_code", "search_code"},
		{"delete", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(Suggest(tt.name, tools), ","); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"abc", "abc", 0}, {"abc", "acb", 1},
		{"kitten", "sitting", 3}, {"ca", "abc", 3}, {"héllo", "hello", 1},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q,%q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

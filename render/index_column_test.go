package render

import (
	"bytes"
	"strings"
	"testing"
)

// TestIndexColumnCapped: every title starts at the longest name on the page
// plus four, the column capped at 32 cells (docs/rendering.md#agsh-help): a
// longer name (the github connector has a 50-character one) takes its own
// line and its title goes on the next line, at the column, uncut when it
// fits.
func TestIndexColumnCapped(t *testing.T) {
	long := "github_manage_repository_notification_subscription" // 50
	for _, tc := range []struct {
		width, col int
		rows       []IndexRow
	}{
		{80, 32, []IndexRow{{"github_get_me", "Get my user profile"}, {long, "Manage repository notification subscriptions"}}},
		{100, 32, []IndexRow{{"github_get_me", "Get my user profile"}, {long, "Manage repository notification subscriptions"}}},
		{66, 32, []IndexRow{{"github_get_me", "Get my user profile"}, {long, "Manage repository notification subscriptions"}}},
		{80, 17, []IndexRow{{"github_get_me", "Get my user profile"}}},
		{80, 32, []IndexRow{{"github_get_me", "Get my user profile"}, {"github_list_pull_request_files", "List files"}}}, // 30 cells: fits
	} {
		var b bytes.Buffer
		err := WriteIndex(&b, IndexPage{Name: "planner", Commands: []IndexRow{{"ls", "List files"}},
			Groups: []IndexGroup{{Name: "github", Rows: tc.rows}}}, Options{Width: tc.width})
		if err != nil {
			t.Fatal(err)
		}
		out := b.String()
		lines := strings.Split(out, "\n")
		for _, r := range append([]IndexRow{{"ls", "List files"}}, tc.rows...) {
			at := -1
			for i, l := range lines {
				if l == "    "+r.Name || strings.HasPrefix(l, "    "+r.Name+" ") {
					at = i
				}
			}
			if at < 0 {
				t.Fatalf("width %d: no row for %s:\n%s", tc.width, r.Name, out)
			}
			line := lines[at]
			if textWidth(r.Name)+2 > tc.col {
				if line != "    "+r.Name {
					t.Errorf("width %d: %s should take its own line: %q", tc.width, r.Name, line)
				}
				line = lines[at+1]
			}
			if got := strings.Index(line, strings.Fields(r.Title)[0]); got != 4+tc.col {
				t.Errorf("width %d: the title of %s starts at column %d, want %d:\n%s", tc.width, r.Name, got, 4+tc.col, out)
			}
			if w := textWidth(line); w > min(tc.width, 100) {
				t.Errorf("width %d: row %q is %d wide", tc.width, line, w)
			}
		}
	}
}

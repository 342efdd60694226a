package render

import (
	"bytes"
	"strings"
	"testing"
)

// TestIndexColumnLongestPlusFour: every title starts at the longest name on
// the page plus four (render.md, "agsh help"), also when that name is long
// (the github connector has a 50-character one), as long as titles keep
// some room.
func TestIndexColumnLongestPlusFour(t *testing.T) {
	long := "github_manage_repository_notification_subscription" // 50
	for _, tc := range []struct {
		width, col int
	}{{80, 54}, {100, 54}, {66, 54}} {
		var b bytes.Buffer
		err := WriteIndex(&b, IndexPage{Name: "planner", Commands: []IndexRow{{"ls", "List files"}},
			Groups: []IndexGroup{{Name: "github", Rows: []IndexRow{{"github_get_me", "Get my user profile"}, {long, "Manage repository notification subscriptions"}}}}},
			Options{Width: tc.width})
		if err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, r := range []IndexRow{{"ls", "List"}, {"github_get_me", "Get my"}, {long, "Manage"}} {
			var line string
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "    "+r.Name+" ") {
					line = l
				}
			}
			if got := strings.Index(line, r.Title); got != 4+tc.col {
				t.Errorf("width %d: the title of %s starts at column %d, want %d:\n%s", tc.width, r.Name, got, 4+tc.col, out)
			}
			if w := textWidth(line); w > min(tc.width, 100) {
				t.Errorf("width %d: row %q is %d wide", tc.width, line, w)
			}
		}
	}
}

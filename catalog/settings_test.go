package catalog

import "testing"

func TestSpellSettings(t *testing.T) {
	text := "is " + SettingTarget.mark() + " right? pass " + SettingTeam.mark() + "; " + markerStart + "open"
	spell := func(s Setting) string {
		if s == SettingTarget {
			return "--target"
		}
		return ""
	}
	if got, want := spellSettings(text, spell), "is --target right? pass the team; "+markerStart+"open"; got != want {
		t.Errorf("spelled %q, want %q", got, want)
	}
	if got, want := spellSettings(text, nil), "is the target right? pass the team; "+markerStart+"open"; got != want {
		t.Errorf("neutral %q, want %q", got, want)
	}
	e := &Error{ErrCode: CodeUnreachable, Message: "connection refused; is it running, and is " + SettingTarget.mark() + " right?"}
	if got := e.Text(spell); got != "connection refused; is it running, and is --target right?" {
		t.Errorf("Text = %q", got)
	}
	for s := range neutralWords {
		if spellSettings(s.mark(), nil) == "" {
			t.Errorf("no neutral word for %q", s)
		}
	}
}

// TestDefaultIssueFlag: an issue path is named as generated names the flag
// (one kebab-caser: names.Kebab).
func TestDefaultIssueFlag(t *testing.T) {
	for _, tc := range []struct {
		path []any
		want string
	}{
		{[]any{"HTTPServer"}, "--http-server"},
		{[]any{"perPage"}, "--per-page"},
		{[]any{"items", 2.0, "commitID"}, "--items[2]-commit-id"},
		{nil, "input"},
	} {
		if got := DefaultIssueFlag(tc.path); got != tc.want {
			t.Errorf("DefaultIssueFlag(%v) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

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

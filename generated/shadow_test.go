package generated

import (
	"errors"
	"testing"
)

// TestConnectionOptionShadowedByProperty: after the command name, a
// connection option whose spelling a property of the tool was renamed away
// from is a usage error naming both spellings
// (docs/cli.md#options-after-the-command-name); --output and --help keep
// working; a tool without such a property keeps the option as agsh's.
func TestConnectionOptionShadowedByProperty(t *testing.T) {
	c := mustBuild(t, `{"type":"object","required":["target"],"properties":{"target":{"type":"string"},"session":{"type":"integer"},"output":{"type":"string"}}}`, BuildOptions{})
	if f := c.Lookup("--target-2"); f == nil || f.Property() != "target" {
		t.Fatalf("target property: flags %v", c.FlagNames())
	}
	for _, args := range [][]string{
		{"--target", "main"},
		{"--target=main"},
		{"--target-2", "x", "--target", "main"},
	} {
		_, err := c.Parse(args)
		var se *ShadowedOptionError
		if !errors.As(err, &se) {
			t.Errorf("%q: err = %v, want a ShadowedOptionError", args, err)
			continue
		}
		want := "--target is agsh's deployment option; this tool's target property is --target-2 (give --target before the command name to choose the deployment)"
		if err.Error() != want || se.ExitCode() != 2 {
			t.Errorf("%q:\n got %q\nwant %q", args, err.Error(), want)
		}
	}
	if _, err := c.Parse([]string{"--target-2", "x", "--session", "7"}); err == nil || err.Error() != "--session is agsh's session option; this tool's session property is --session-2 (give --session before the command name to choose the session)" {
		t.Errorf("--session: %v", err)
	}
	p, err := c.Parse([]string{"--target-2", "main", "--output", "json"})
	if err != nil || len(p.Globals) != 1 || p.Globals[0] != (Global{"--output", "json"}) || string(p.JSON()) != `{"target":"main"}` {
		t.Errorf("--output keeps working: %+v, %v", p, err)
	}
	if p, err := c.Parse([]string{"--target", "main", "--help"}); err != nil || !p.Help {
		t.Errorf("--help keeps working: %+v, %v", p, err)
	}
	plain := mustBuild(t, `{"type":"object","properties":{"branch":{"type":"string"}}}`, BuildOptions{})
	if p, err := plain.Parse([]string{"--target", "main"}); err != nil || len(p.Globals) != 1 {
		t.Errorf("a tool without a target property: %+v, %v", p, err)
	}
	if got := ShadowHint("--target"); got != "--target after the command name is agsh's deployment option; if you meant the tool's target property, its flag is --target-2" {
		t.Errorf("ShadowHint = %q", got)
	}
}

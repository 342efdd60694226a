package command

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/render"
)

// TestLateOptions: connection options after the command name are found; one
// also given before the name keeps the earlier value; --output is not one.
func TestLateOptions(t *testing.T) {
	args := []string{"--target", "http://h/a", "git_checkout", "--target", "main", "--output", "json", "--session=s1", "--", "--team", "x"}
	line := Scan(args)
	if line.Err != nil {
		t.Fatal(line.Err)
	}
	g, late := line.Globals(), line.Late()
	if len(late) != 2 || late[0] != (LateOption{"--target", "http://h/a"}) || late[1] != (LateOption{"--session", ""}) {
		t.Errorf("late = %+v", late)
	}
	if g.Get("--target") != "http://h/a" || g.Get("--session") != "s1" {
		t.Errorf("globals = %v", g.Values)
	}
	if LateTarget(late) {
		t.Error("LateTarget with a --target before the name")
	}
	if l := Scan([]string{"git_checkout", "--target=main"}).Late(); !LateTarget(l) {
		t.Errorf("LateTarget(%+v) = false", l)
	}
	if l := Scan([]string{"--target", "x", "--output", "json", "tool"}).Late(); len(l) != 0 {
		t.Errorf("options before the name: %+v", l)
	}

	cmd, err := New(&catalog.ToolDetail{Name: "git_checkout", Source: catalog.Source{Kind: "connection", Connection: "git"},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"target":{"type":"string"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	var se *generated.ShadowedOptionError
	if err := CheckLate([]LateOption{{Name: "--target"}}, cmd); !errors.As(err, &se) || se.Flag != "--target-2" {
		t.Errorf("CheckLate: %v", err)
	}
	if err := CheckLate([]LateOption{{Name: "--session", Early: "s0"}}, cmd); err == nil || err.Error() != "--session is given both before and after the command name; give it once" {
		t.Errorf("CheckLate twice: %v", err)
	}
	if err := CheckLate([]LateOption{{Name: "--session"}}, cmd); err != nil {
		t.Errorf("CheckLate: %v", err)
	}
}

// TestCheckLateTarget: with a target in the environment, a --target after
// the command name is checked against the environment's tool first.
func TestCheckLateTarget(t *testing.T) {
	shadowing := &catalog.ToolDetail{Name: "git_checkout", InputSchema: json.RawMessage(`{"type":"object","properties":{"target":{"type":"string"}}}`)}
	plain := &catalog.ToolDetail{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)}
	late := []LateOption{{Name: "--target"}}
	probe := func(d *catalog.ToolDetail) func() (*catalog.ToolDetail, error) {
		return func() (*catalog.ToolDetail, error) { return d, nil }
	}
	var se *generated.ShadowedOptionError
	g := func() *Globals { return &Globals{Values: map[string]string{"--target": "main"}} }
	if gl := g(); !errors.As(checkLateTarget(late, gl, "http://env/a", "git_checkout", probe(shadowing)), &se) || gl.Get("--target") != "main" {
		t.Errorf("shadowing tool: globals %v", gl.Values)
	}
	if gl := g(); func() bool {
		gl.Help = true
		return checkLateTarget(late, gl, "http://env/a", "git_checkout", probe(shadowing)) != nil
	}() || gl.Get("--target") != "" {
		t.Errorf("with --help: the environment's target is kept: %v", gl.Values)
	}
	if gl := g(); checkLateTarget(late, gl, "http://env/a", "echo", probe(plain)) != nil || gl.Get("--target") != "main" {
		t.Errorf("other tool: %v", gl.Values)
	}
	called := false
	spy := func() (*catalog.ToolDetail, error) { called = true; return shadowing, nil }
	if err := checkLateTarget(late, g(), "", "git_checkout", spy); err != nil || called {
		t.Errorf("no environment target: probed %v, err %v", called, err)
	}
	if err := checkLateTarget([]LateOption{{Name: "--target", Early: "x"}}, g(), "http://env/a", "git_checkout", spy); err != nil || called {
		t.Errorf("a --target before the name: probed %v, err %v", called, err)
	}
	base := errors.New("no deployment named main")
	if got := WithShadowHint(late, base); !errors.Is(got, base) || got.Error() != "no deployment named main (--target after the command name is agsh's deployment option; if you meant the tool's target property, its flag is --target-2)" {
		t.Errorf("WithShadowHint = %v", got)
	}
	if got := WithShadowHint(nil, base); got != base {
		t.Errorf("WithShadowHint without a late target = %v", got)
	}
}

// TestCheckLateSession: every connection option after the command name is
// checked against the tool before it is used, not only --target: a
// --session, --team or --continuation-token that a property was renamed away
// from is the usage error, the probe made without it; any other is given
// back.
func TestCheckLateSession(t *testing.T) {
	attach := &catalog.ToolDetail{Name: "attach", InputSchema: json.RawMessage(`{"type":"object","properties":{"session":{"type":"string"},"team":{"type":"string"},"continuation_token":{"type":"string"}}}`)}
	plain := &catalog.ToolDetail{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)}
	for _, opt := range []string{"--session", "--team", "--continuation-token"} {
		g := &Globals{Values: map[string]string{"--target": "http://h/a", opt: "v1"}}
		late := []LateOption{{Name: opt}}
		seen := "unset"
		probe := func(d *catalog.ToolDetail) func() (*catalog.ToolDetail, error) {
			return func() (*catalog.ToolDetail, error) { seen = g.Values[opt]; return d, nil }
		}
		var se *generated.ShadowedOptionError
		if err := checkLateTarget(late, g, "", "attach", probe(attach)); !errors.As(err, &se) || se.Option != opt || seen != "" {
			t.Errorf("%s: err %v, probed with %q", opt, err, seen)
		}
		if g.Get(opt) != "v1" {
			t.Errorf("%s: not given back: %v", opt, g.Values)
		}
		if err := checkLateTarget(late, g, "", "echo", probe(plain)); err != nil || g.Get(opt) != "v1" {
			t.Errorf("%s, a tool without the property: %v, %v", opt, err, g.Values)
		}
		if err := checkLateTarget(late, g, "", "attach", func() (*catalog.ToolDetail, error) { return nil, errors.New("down") }); err != nil || g.Get(opt) != "v1" {
			t.Errorf("%s, the probe failing: %v, %v", opt, err, g.Values)
		}
		g.Help = true
		if err := checkLateTarget(late, g, "", "attach", probe(attach)); err != nil || g.Get(opt) != "" {
			t.Errorf("%s with --help: %v, %v", opt, err, g.Values)
		}
	}
}

// TestNextPage: the next-page line names the command for the next page
// when a flag takes the cursor, else the cursor.
func TestNextPage(t *testing.T) {
	cmd, err := New(&catalog.ToolDetail{Name: "list", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"},"page":{"type":"object","properties":{"cursor":{"type":"string"}}}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	v := render.FromResult(json.RawMessage(`{"content":[{"type":"text","text":"[{\"id\":1}]"}],"_meta":{"nextCursor":"c 2"}}`))
	if got := cmd.NextPage([]string{"--q", "x", "--page-cursor", "c 1"}, v); got != "next page: list --q x --page-cursor 'c 2'" {
		t.Errorf("NextPage = %q", got)
	}
	plain, _ := New(&catalog.ToolDetail{Name: "other", InputSchema: json.RawMessage(`{"type":"object"}`)})
	if got := plain.NextPage(nil, v); got != "next page cursor: 'c 2'" {
		t.Errorf("NextPage without a cursor flag = %q", got)
	}
	if got := cmd.NextPage(nil, render.FromResult(json.RawMessage(`[1]`))); got != "" {
		t.Errorf("NextPage without a cursor = %q", got)
	}
}

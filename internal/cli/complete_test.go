package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/internal/replcomp"
	"github.com/agsh-dev/agsh/render"
)

// Tab completes remote paths only where a curated path operand goes (not
// grep's or glob's pattern, not a flag's value), and tool names after help.
func TestCompleteOperandsAndHelp(t *testing.T) {
	t.Parallel()
	_, target := startCompareDeployment(t)
	ios, _, _ := iostreams.Test("")
	a := newApp(ios, osEnv{}, command.Globals{Values: map[string]string{"--target": target}})
	ctx := context.Background()
	if err := a.connect(ctx); err != nil {
		t.Fatal(err)
	}
	h := &shellHandler{a: a}
	if err := a.launch(ctx, h); err != nil {
		t.Fatal(err)
	}
	c := replcomp.NewCompleter(a.run, h.table)
	cases := []struct{ line, want string }{
		{"read RE", "README.md"},
		{"ls sr", "src/"},
		{"grep RE", ""},
		{"grep -i RE", ""},
		{"grep RE sr", "src/"},
		{"grep -C 2 x sr", "src/"},
		{"grep -- -x sr", "src/"},
		{"glob RE", ""},
		{"glob '*.go' sr", "src/"},
		{"read --limit RE", ""},
		{"read --limit 2 RE", "README.md"},
		{"help rea", "read"},
		{"ls --output ", strings.Join(render.FormatNames(), " ")},
		{"read --output j", "json"},
		{"read --output json RE", "README.md"},
		{"help gr", "grep"},
		{`read "RE`, `"README.md"`},
		{`grep 'a b' RE`, "README.md"},
		{`grep 'a b' 'RE`, `'README.md'`},
		{`read "sr`, `"src/`},
		{"read ADME", "README.md"}, // no prefix match: substring
		{"help onitor", "datadog_get_monitor datadog_list_monitors datadog_mute_monitor"},
		{`read "a\" RE`, ""}, // one open quoted word: a" RE
		{"ls | he", "head"},
	}
	for _, tc := range cases {
		comp, err := c.Complete(ctx, tc.line, len(tc.line))
		if err != nil {
			t.Errorf("Complete(%q): %v", tc.line, err)
			continue
		}
		var got []string
		for _, cand := range comp.Candidates {
			got = append(got, cand.Text)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("Complete(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

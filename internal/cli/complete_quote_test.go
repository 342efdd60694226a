package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/internal/replcomp"
)

var quoteTree = map[string]string{
	"my dir/file one.txt":   "first file\n",
	"my dir/it's.txt":       "quoted\n",
	"plain/a.txt":           "a\n",
	`odd/back\slash "q".md`: "odd\n",
}

// Tab inserts words the shell reads back: escaped without a quote, inside
// the user's open quote (closed after a file, open after a directory).
func TestCompleteQuotes(t *testing.T) {
	t.Parallel()
	srv, _ := startRepoDeployment(t, quoteTree)
	ios, _, _ := iostreams.Test("")
	a := newApp(ios, osEnv{}, command.Globals{Values: map[string]string{"--target": srv.AgentURL("executor")}})
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
		{"read my", `my\ dir/`},
		{`read "my`, `"my dir/`},
		{`read 'my`, `'my dir/`},
		{`read "my dir/f`, `"my dir/file one.txt"`},
		{`read my\ dir/f`, `my\ dir/file\ one.txt`},
		{`read 'my dir/it`, `'my dir/it'\''s.txt'`},
		{`read "my dir/it`, `"my dir/it's.txt"`},
		{`read my\ dir/it`, `my\ dir/it\'s.txt`},
		{"read odd/b", `odd/back\\slash\ \"q\".md`},
		{`read "odd/b`, `"odd/back\\slash \"q\".md"`},
		// an escaped quote inside the open double quote does not close it
		// (the shell's own lexer scans the line, `read "a\" b`)
		{`read "odd/back\\slash \"q`, `"odd/back\\slash \"q\".md"`},
		{`read "my dir/file\" o`, ""},
		{"read one", ""}, // substring is for names in one directory: none at the root
		{"read my\\ dir/one", `my\ dir/file\ one.txt`},
		{"grep --output-m", "--output-mode"},
		{"grep --mode", "--output-mode"}, // no flag starts with it: one contains it
	}
	for _, tc := range cases {
		comp, err := c.Complete(ctx, tc.line, len(tc.line))
		if err != nil {
			t.Fatalf("Complete(%q): %v", tc.line, err)
		}
		var got []string
		for _, cand := range comp.Candidates {
			got = append(got, tc.line[:comp.Start]+cand.Text)
		}
		want := ""
		if tc.want != "" {
			want = tc.line[:comp.Start] + tc.want
		}
		if strings.Join(got, " | ") != want {
			t.Errorf("Complete(%q) = %q, want %q", tc.line, got, want)
		}
	}
}

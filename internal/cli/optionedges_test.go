package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/interp/syntax"
)

// optionEdgeLines are command lines at the edges of how a line's words are
// read (docs/cli.md#where-options-may-stand): which mistake is reported
// first, the word after grep's -e, -h and --help anywhere, the connection
// options a tool's property was renamed away from, --input-json with flags.
// Each runs against executor ("E") or planner ("P"), whose echo tool
// metrics_get_panel has timeout, yes, target, session and output
// properties.
var optionEdgeLines = []struct {
	target string
	words  []string
}{
	{"E", []string{"read", "/repo/README.md"}},
	{"E", []string{"read", "/repo/README.md", "--output", "json"}},
	{"E", []string{"read", "--output", "json", "/repo/README.md"}},
	{"E", []string{"read", "/repo/README.md", "--output"}},
	{"E", []string{"read", "/repo/README.md", "--output", "yaml"}},
	{"E", []string{"read", "/repo/README.md", "--output="}},
	{"E", []string{"read", "/repo/README.md", "--output", "-x"}},
	{"E", []string{"read", "/repo/README.md", "--help"}},
	{"E", []string{"read", "--help", "--output", "json"}},
	{"E", []string{"read", "--output", "yaml", "--help"}},
	{"E", []string{"read", "/repo/README.md", "-h"}},
	{"E", []string{"read", "-h", "--bogus"}},
	{"E", []string{"read", "--bogus", "--help"}},
	{"E", []string{"read", "/repo/README.md", "--", "--help"}},
	{"E", []string{"read", "/repo/README.md", "--", "--output", "json"}},
	{"E", []string{"read", "--bogus", "--output", "yaml"}},
	{"E", []string{"read", "--output", "yaml", "--bogus"}},
	{"E", []string{"read", "/repo/README.md", "--timeout", "abc", "--output", "yaml"}},
	{"E", []string{"read", "/repo/README.md", "--output", "yaml", "--timeout", "abc"}},
	{"E", []string{"read", "/repo/README.md", "--timeout", "30s"}},
	{"E", []string{"read", "/repo/README.md", "--timeout"}},
	{"E", []string{"read", "/repo/README.md", "--offset", "--output", "json"}},
	{"E", []string{"read", "/repo/README.md", "--output", "json", "--offset"}},
	{"E", []string{"read", "/repo/README.md", "--yes"}},
	{"E", []string{"read", "/repo/README.md", "--yes=1"}},
	{"E", []string{"read", "/repo/README.md", "--session", "nope"}},
	{"E", []string{"read", "/repo/README.md", "--bearer-token", "x"}},
	{"E", []string{"grep", "-e", "--output", "/repo"}},
	{"E", []string{"grep", "-e", "--help", "/repo"}},
	{"E", []string{"grep", "-e", "-h", "/repo"}},
	{"E", []string{"grep", "-e", "--target", "/repo"}},
	{"E", []string{"grep", "-e", "--input-json", "/repo"}},
	{"E", []string{"grep", "-e", "Demo", "/repo", "--output", "json"}},
	{"E", []string{"grep", "-e"}},
	{"E", []string{"grep", "Demo", "/repo", "-e"}},
	{"E", []string{"read", "--input-json", `{"path":"/repo/README.md"}`}},
	{"E", []string{"read", "--input-json", `{"path":"/repo/README.md"}`, "--output", "json"}},
	{"E", []string{"read", "/repo/README.md", "--input-json", `{}`}},
	{"E", []string{"read", "--input-json", `{"path":"/repo/x"}`, "/repo/README.md"}},
	{"E", []string{"read", "--input-json", `{"path":"/repo/README.md"}`, "--offset", "1"}},
	{"E", []string{"read", "--input-json", "nope"}},
	{"E", []string{"read", "--input-json"}},
	{"E", []string{"read", "--input-json", "--output", "json"}},
	{"E", []string{"read", "--output", "--input-json", "{}"}},
	{"E", []string{"read", "--input-json", `{"path":"/repo/README.md"}`, "--help"}},
	{"E", []string{"read", "--input-json", `{"path":"/repo/README.md"}`, "--bogus"}},
	{"E", []string{"read", "--bogus", "--input-json", "nope"}},
	{"E", []string{"report_change_issue", "--title", "x"}},
	{"E", []string{"report_change_issue", "--title", "x", "--output", "yaml"}},
	{"E", []string{"report_change_issue", "--title"}},
	{"E", []string{"help", "read", "--output", "json"}},
	{"E", []string{"help", "--output", "yaml", "read"}},
	{"E", []string{"ls", "/repo", "--output", "json"}},
	{"E", []string{":trace", "--help"}},
	{"E", []string{":trace", "--output", "yaml"}},
	{"E", []string{":sessions", "--output", "json", "--bogus"}},
	{"E", []string{":curl", "read", "/repo/README.md", "--output", "json"}},
	{"E", []string{":curl", "read", "--bogus"}},
	{"E", []string{":trace", "-e", "--output", "json"}},
	{"E", []string{":sessions", "-e", "--output", "json"}},
	{"E", []string{":sessions", "--output", "json", "-e", "--output", "text"}},
	{"E", []string{":sessions", "-h", "--output", "json"}},
	{"E", []string{":sessions", "--", "--help"}},
	{"E", []string{":sessions", "--yes", "--output", "json"}},
	{"E", []string{":wait", "--timeout", "abc"}},
	{"E", []string{":wait", "-e", "--output"}},
	{"E", []string{":wait", "--bogus", "--timeout", "1s"}},
	{"E", []string{":wait", "--timeout", "1s", "--output"}},
	{"E", []string{"--", ":sessions", "--output", "json"}},
	{"E", []string{"--", "read", "/repo/README.md", "--input-json", "{}"}},
	{"E", []string{":curl", "grep", "-e", "--output", "json", "/repo"}},
	{"E", []string{":curl", "read", "--input-json", `{"path":"/repo/README.md"}`}},
	{"E", []string{"grep", "-e", "--input-json", "/repo", "--output", "json"}},
	{"E", []string{"grep", "-e", "--output", "json", "/repo"}},
	{"E", []string{":help"}},
	{"E", []string{":help", "--output", "json"}},
	{"P", []string{"metrics_get_panel", "--uid", "u", "--panel-id", "2", "--timeout-2", "30s", "--output", "json"}},
	{"P", []string{"metrics_get_panel", "--uid", "u", "--panel-id", "2", "--timeout", "30s", "--output", "json"}},
	{"P", []string{"metrics_get_panel", "--uid", "u", "--panel-id", "2", "--yes-2", "--output", "json"}},
	{"P", []string{"metrics_get_panel", "--uid", "u", "--panel-id", "2", "--yes", "--output", "json"}},
	{"P", []string{"metrics_get_panel", "--uid", "u", "--panel-id", "2", "--target-2", "x", "--output", "json"}},
	{"P", []string{"metrics_get_panel", "--uid", "u", "--panel-id", "2", "--target", "x"}},
	{"P", []string{"metrics_get_panel", "--target", "x", "--help"}},
	{"P", []string{"metrics_get_panel", "--uid", "u", "--session", "abc"}},
	{"P", []string{"metrics_get_panel", "--session", "abc", "--bogus"}},
	{"P", []string{"metrics_get_panel", "--bogus", "--session", "abc"}},
	{"P", []string{"metrics_get_panel", "--uid", "u", "--panel-id", "2", "--output-2", "png", "--output", "json"}},
	{"P", []string{"metrics_get_panel", "--uid", "--output", "json"}},
	{"P", []string{"metrics_get_panel", "--uid", "u", "--panel-id", "2", "--input-json", `{"timeout":"1s"}`, "--output", "json"}},
	{"P", []string{"metrics_get_panel", "--input-json", `{"uid":"u","panelId":2}`, "--timeout-2", "5s", "--output", "json"}},
}

// TestOptionEdgesPinned runs every optionEdgeLines line one-shot, as a
// script from standard input, and through the REPL's line runner (each of
// the shell's with and without a filter after it) and compares what each
// wrote and its status with testdata/optionedges.golden
// (UPDATE_GOLDEN=1 rewrites it): how a line's words are read stays as it
// was whoever reads them.
func TestOptionEdgesPinned(t *testing.T) {
	requireGit(t)
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "README.md"), []byte("# Demo\nline two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := gitInit(repo); err != nil {
		t.Fatal(err)
	}
	echo := filepath.Join(t.TempDir(), "metrics")
	if err := os.MkdirAll(echo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(echo, "get_panel.json"), []byte(panelSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, stop, err := devserver.Build(ctx, devserver.Options{Addr: "127.0.0.1:0", Root: repo, EchoTools: []string{echo}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Close(); stop() }()
	targets := map[string]string{"E": srv.AgentURL("executor"), "P": srv.AgentURL("planner")}
	clean := func(s string) string {
		s = strings.ReplaceAll(s, targets["E"], "$EXECUTOR")
		return strings.ReplaceAll(s, targets["P"], "$PLANNER")
	}

	var got strings.Builder
	for _, c := range optionEdgeLines {
		target := targets[c.target]
		quoted := make([]string, len(c.words))
		for i, w := range c.words {
			quoted[i] = syntax.Quote(w, i == 0)
		}
		line := strings.Join(quoted, " ")
		record := func(mode string, status int, out, errOut string) {
			fmt.Fprintf(&got, "=== %s %s: %s\nexit %d\n--- stdout\n%s--- stderr\n%s", c.target, mode, line, status, clean(out), clean(errOut))
		}
		ios, out, errOut := iostreams.Test("")
		status := Main(append([]string{"--target", target}, c.words...), ios, ttySafeEnv{})
		record("one-shot", status, out.String(), errOut.String())
		for _, pipe := range []string{"", " | head -n 3"} {
			ios, out, errOut := iostreams.Test(line + pipe + "\n")
			status := Main([]string{"--target", target}, ios, ttySafeEnv{})
			record("script"+pipe, status, out.String(), errOut.String())
			status, o, e := runREPLLine(t, target, line+pipe)
			record("repl"+pipe, status, o, e)
		}
	}
	golden := filepath.Join("testdata", "optionedges.golden")
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		g, w := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(g) || i < len(w); i++ {
			var gl, wl string
			if i < len(g) {
				gl = g[i]
			}
			if i < len(w) {
				wl = w[i]
			}
			if gl != wl {
				t.Fatalf("line %d of %s differs:\n got  %q\n want %q", i+1, golden, gl, wl)
			}
		}
	}
}

// runREPLLine runs src through the REPL's line runner (interpRunner), as
// the REPL and the line shell run what is typed, on a shell launched with
// --target target.
func runREPLLine(t *testing.T, target, src string) (int, string, string) {
	t.Helper()
	ios, out, errOut := iostreams.Test("")
	a := newApp(ios, ttySafeEnv{}, command.Scan([]string{"--target", target}).Globals())
	ctx := context.Background()
	if err := a.connect(ctx); err != nil {
		t.Fatal(err)
	}
	h := &shellHandler{a: a, table: command.NewTable(nil)}
	if err := a.launch(ctx, h); err != nil {
		t.Fatal(err)
	}
	runner := a.shellRunner(h)
	r := &interpRunner{runner: runner, out: a.out, errOut: a.errOut}
	status, _ := r.Run(ctx, src, a.out, a.errOut)
	a.flush()
	return status, out.String(), errOut.String()
}

const panelSchema = `{
  "name": "get_panel",
  "description": "Fetch one panel.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "uid": {"type": "string"},
      "panelId": {"type": "integer"},
      "timeout": {"type": "string"},
      "yes": {"type": "boolean"},
      "target": {"type": "string"},
      "session": {"type": "string"},
      "output": {"type": "string", "enum": ["png", "json"]}
    },
    "required": ["uid", "panelId"]
  }
}`

package shellcomp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/compcache"
)

// fakeEnv is an environment with a cache directory and a Spawn that
// records the refresh it would start.
func fakeEnv(t *testing.T, vars map[string]string, spawned *[]*exec.Cmd) Env {
	vars["XDG_CACHE_HOME"] = t.TempDir()
	return Env{
		Getenv:   func(k string) string { return vars[k] },
		ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist },
		Environ:  []string{"PATH=/usr/bin"},
		Self:     "/opt/agsh",
		Spawn:    func(c *exec.Cmd) error { *spawned = append(*spawned, c); return nil },
		Dial:     func(context.Context, command.Globals) (*catalog.Client, error) { return nil, os.ErrInvalid },
	}
}

func ask(t *testing.T, env Env, line, cur string) []string {
	t.Helper()
	r, err := ParseRequest("bash", []string{line, cur})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range Answer(context.Background(), r, env) {
		out = append(out, c.Value)
	}
	return out
}

func TestColdCacheSpawnsOneRefresh(t *testing.T) {
	var spawned []*exec.Cmd
	env := fakeEnv(t, map[string]string{"AGENT_SHELL_TARGET": "http://127.0.0.1:1/executor"}, &spawned)
	if got := ask(t, env, "agsh --bearer-token tok-123 dat", "dat"); got != nil {
		t.Errorf("cold cache answered %q", got)
	}
	if len(spawned) != 1 {
		t.Fatalf("%d refreshes started", len(spawned))
	}
	c := spawned[0]
	if c.Path != "/opt/agsh" || !slices.Equal(c.Args[1:], []string{RefreshOption}) {
		t.Errorf("refresh %s %q: the target and token go in the environment, not argv", c.Path, c.Args)
	}
	if !slices.Contains(c.Env, "AGENT_SHELL_TARGET=http://127.0.0.1:1/executor") {
		t.Errorf("the target does not reach the child's environment: %q", c.Env)
	}
	if !slices.Contains(c.Env, "AGENT_SHELL_BEARER_TOKEN=tok-123") {
		t.Errorf("the token does not reach the child's environment: %q", c.Env)
	}
	// A refresh at work (its lock) is not started again.
	ask(t, env, "agsh dat", "dat")
	ask(t, env, "agsh --bearer-token tok-123 dat", "dat")
	if len(spawned) != 2 { // the second principal (no token) has its own entry
		t.Errorf("%d refreshes started, want 2 (one per principal)", len(spawned))
	}
}

func TestWarmCacheAnswers(t *testing.T) {
	var spawned []*exec.Cmd
	vars := map[string]string{"AGENT_SHELL_TARGET": "http://127.0.0.1:1/executor"}
	env := fakeEnv(t, vars, &spawned)
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	env.Now = func() time.Time { return now }
	dir := compcache.Dir(env.Getenv)
	cache, err := compcache.Open(dir, compcache.Key("http://127.0.0.1:1/executor\x00", ""))
	if err != nil {
		t.Fatal(err)
	}
	tools := []catalog.ToolEntry{
		{Name: "mon_list", Title: "List monitors", Source: catalog.Source{Kind: "connection", Connection: "mon"}},
		{Name: "mon_mute", Source: catalog.Source{Kind: "connection", Connection: "mon"}}}
	if err := cache.SaveListing(tools); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(filepath.Join(dir, compcache.Key("http://127.0.0.1:1/executor\x00", "")+".tools"), now.Add(-time.Minute), now.Add(-time.Minute))
	cmd, err := command.NewNamed("mon_list", &catalog.ToolDetail{Name: "mon_list", Source: tools[0].Source,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"state":{"enum":["No Data","OK"]},"version":{"type":"string"}}}`)})
	if err != nil {
		t.Fatal(err)
	}
	saveShape(cache, "mon_list", cmd)
	tests := []struct{ line, cur, want string }{
		{"agsh mon_", "mon_", "mon_list|mon_mute"},
		{"agsh mon_list --", "--", "--state|--version|--output|--input-json|--timeout|--help|--yes"},
		{"agsh mon_list --state ", "", `No\ Data|OK`},
		{"agsh mon_list --state=N", "N", `No\ Data`},
		{"agsh --output json mon_list --sta", "--sta", "--state"},
		{"agsh --", "--", "--target|--team|--bearer-token|--session|--continuation-token|--output|--input-json|--timeout|--help|--yes|--version|--man|--completion"},
		{"agsh --completion ", "", "bash|zsh|fish|pwsh"},
	}
	for _, tt := range tests {
		r, _ := ParseRequest("bash", []string{tt.line, tt.cur})
		got := strings.TrimSuffix(strings.ReplaceAll(r.Format(Answer(context.Background(), r, env)), "\n", "|"), "|")
		if got != tt.want {
			t.Errorf("%q: %q, want %q", tt.line, got, tt.want)
		}
	}
	if len(spawned) != 0 {
		t.Errorf("a fresh entry started %d refreshes", len(spawned))
	}
	// Stale: still answered from, and refreshed in the background.
	now = now.Add(compcache.TTL)
	if got := ask(t, env, "agsh mon_m", "mon_m"); !slices.Equal(got, []string{"mon_mute"}) {
		t.Errorf("stale entry answered %q", got)
	}
	if len(spawned) != 1 {
		t.Errorf("a stale entry started %d refreshes", len(spawned))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if strings.Contains(f, "127.0.0.1") {
			t.Errorf("a cache file name shows the target: %s", f)
		}
	}
}

// The console words complete from agsh's own tables, with no cache and no
// request: their names, flags and --type's event types; never an operand
// (a Tab never reads a record).
func TestConsoleWordsComplete(t *testing.T) {
	var spawned []*exec.Cmd
	env := fakeEnv(t, map[string]string{"AGENT_SHELL_TARGET": "http://127.0.0.1:1/executor"}, &spawned)
	dialed := 0
	env.Dial = func(context.Context, command.Globals) (*catalog.Client, error) { dialed++; return nil, os.ErrInvalid }
	tests := []struct{ line, cur, want string }{
		{"agsh :t", ":t", ":tail|:top|:trace"},
		{"agsh :trace --", "--", "--tool|--type|--last|--output"},
		{"agsh :trace --type appr", "appr", "approval|approval.requested|approval.resolved"},
		{"agsh :tail --f", "--f", "--follow"},
		{"agsh :replay ", "", ""},
		{"agsh :trace ", "", ""},
	}
	for _, tt := range tests {
		r, _ := ParseRequest("bash", []string{tt.line, tt.cur})
		got := strings.TrimSuffix(strings.ReplaceAll(r.Format(Answer(context.Background(), r, env)), "\n", "|"), "|")
		if got != tt.want {
			t.Errorf("%q: %q, want %q", tt.line, got, tt.want)
		}
	}
	if dialed != 0 || len(spawned) != 0 {
		t.Errorf("completing a console word dialed %d times, spawned %d refreshes", dialed, len(spawned))
	}
}

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
)

// requireCurl skips without curl on a developer's machine; CI has it.
func requireCurl(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("curl is required (CI installs it in .ci/run)")
		}
		t.Skip("curl not found; the :curl test runs the line it prints")
	}
}

// TestCurlLineSendsTheSameCall runs the line :curl prints with the real
// curl against a development deployment that requires a token, and gets the
// answer agsh gets: the same tool, input and binding, the credential read
// from the variable it came from (never written in the line).
func TestCurlLineSendsTheSameCall(t *testing.T) {
	t.Parallel()
	requireCurl(t)
	requireGit(t)
	const token = "curl-test-token-7a8b9c"
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "README.md"), []byte("# Demo\nit's \u202e here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := gitInit(repo); err != nil {
		t.Fatal(err)
	}
	tools := filepath.Join(t.TempDir(), "echo") // its tools are echo_…
	if err := os.Mkdir(tools, 0o755); err != nil {
		t.Fatal(err)
	}
	def := `{"name":"echo","description":"echoes","inputSchema":{"type":"object","properties":{` +
		`"text":{"type":"string"},"n":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}}}}`
	if err := os.WriteFile(filepath.Join(tools, "echo.json"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, stop, err := devserver.Build(ctx, devserver.Options{Addr: "127.0.0.1:0", Root: repo,
		BearerTokens: []string{token}, EchoTools: []string{tools}})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(); stop(); cancel() })

	for _, c := range []struct {
		target string
		line   []string
	}{
		{srv.AgentURL("executor"), []string{"read", "/repo/README.md", "--limit", "2"}},
		{srv.AgentURL("executor"), []string{"grep", "-i", "it's", "/repo"}},
		{srv.AgentURL("planner"), []string{"echo_echo", "--text", "quote ' and \u202e bidi, \u200b zero width, \u0085 C1", "--n", "-3", "--tags", "a b"}},
	} {
		env := []string{"AGENT_SHELL_BEARER_TOKEN=" + token}
		line := agshOut(t, env, append([]string{"--target", c.target, ":curl"}, c.line...)...)
		if strings.Contains(line, token) || !strings.Contains(line, `"Authorization: Bearer $AGENT_SHELL_BEARER_TOKEN"`) {
			t.Fatalf(":curl line shows the token, or not its variable: %s", line)
		}
		for _, r := range line {
			if r == 0x202e || r == 0x200b || r == 0x85 {
				t.Fatalf(":curl line holds %U raw: %s", r, line)
			}
		}
		cmd := exec.Command("sh", "-c", strings.TrimSpace(line))
		cmd.Env = append(os.Environ(), env...)
		got, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		var answer struct {
			OK     bool            `json:"ok"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(got, &answer); err != nil || !answer.OK {
			t.Fatalf("curl's answer %s: %v", got, err)
		}
		want := agshOut(t, env, append([]string{"--target", c.target, "--output", "json"}, c.line...)...)
		if !sameJSON(t, resultJSON(t, answer.Result), []byte(want)) {
			t.Errorf("%v: curl got %s\nagsh got %s", c.line, answer.Result, want)
		}
	}
}

// resultJSON is a call's result as agsh --output json prints it: a string
// holding JSON is that JSON; an MCP result its structured content.
func resultJSON(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if json.Valid([]byte(s)) && strings.HasPrefix(strings.TrimSpace(s), "{") {
			return []byte(s)
		}
		return raw
	}
	var mcp struct {
		Structured json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(raw, &mcp) == nil && mcp.Structured != nil {
		return mcp.Structured
	}
	return raw
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b))
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// agshOut runs agsh with env added and returns its standard output; a
// failure fails the test.
func agshOut(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := agshCommand(args...)
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("agsh %v: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

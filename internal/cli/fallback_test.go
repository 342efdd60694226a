package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// echoTool is an authored tool that answers with the input it received.
func echoTool(name, schema string) *tool.Tool {
	return &tool.Tool{Name: name, InputSchema: json.RawMessage(schema), Effect: "read",
		Source: catalog.Source{Kind: "authored"},
		Call: func(_ context.Context, c *tool.Call) (tool.Result, error) {
			return tool.Result{Value: c.Input}, nil
		}}
}

// TestCuratedFallback: against a deployment whose read has no path-like
// field and whose grep has no output_mode, read falls back to its generated
// flags (and says so in NOTES) while grep keeps its curated shape.
func TestCuratedFallback(t *testing.T) {
	t.Parallel()
	srv, err := devserver.New(devserver.Config{Agents: []devserver.AgentConfig{{Slug: "odd", Name: "odd-agent", Tools: []*tool.Tool{
		echoTool("read", `{"type":"object","required":["file"],"properties":{"file":{"type":"string","description":"The file."},"lines":{"type":"integer"}}}`),
		echoTool("grep", `{"type":"object","required":["pattern"],"properties":{"pattern":{"type":"string"},"path":{"type":"string"},"-i":{"type":"boolean"},"-C":{"type":"integer"}}}`),
		echoTool("help", `{"type":"object","properties":{"topic":{"type":"string"}}}`),
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	target := srv.AgentURL("odd")

	out, status := runAgsh(t, target, "read", "--file", "/repo/a.txt", "--lines", "3")
	if status != 0 || !strings.Contains(out, "file:") || !strings.Contains(out, "/repo/a.txt") {
		t.Errorf("read --file: status %d, output:\n%s", status, out)
	}
	if _, status := runAgsh(t, target, "read", "/repo/a.txt"); status != 2 {
		t.Errorf("read with an operand on the fallen-back shape: status %d, want 2", status)
	}
	help, _ := runAgsh(t, target, "read", "--help")
	help = strings.Join(strings.Fields(help), " ")
	for _, want := range []string{"SYNOPSIS read [options...] OPTIONS --file <string>", "Generic flags: this deployment's read has no path field (fields: file, lines)."} {
		if !strings.Contains(help, want) {
			t.Errorf("read --help lacks %q:\n%s", want, help)
		}
	}
	// grep keeps its operands and its other curated flags; its text result
	// here is not grep's format, so it prints as the tool's own value.
	out, status = runAgsh(t, target, "grep", "-i", "-C", "1", "needle", "/repo/src")
	if status != 0 || !strings.Contains(out, "needle") || !strings.Contains(out, "/repo/src") {
		t.Errorf("grep: status %d, output:\n%s", status, out)
	}
	help, _ = runAgsh(t, target, "grep", "--help")
	if !strings.Contains(help, "grep [options...] <pattern> [path]") || strings.Contains(help, "Generic flags") {
		t.Errorf("grep --help:\n%s", help)
	}
}

// TestToolNamedHelpWins: a deployment tool named help wins over agsh's
// word, one-shot and in the shell; agsh --help stays agsh's own usage.
func TestToolNamedHelpWins(t *testing.T) {
	t.Parallel()
	srv, err := devserver.New(devserver.Config{Agents: []devserver.AgentConfig{{Slug: "odd", Name: "odd-agent", Tools: []*tool.Tool{
		echoTool("help", `{"type":"object","properties":{"topic":{"type":"string"}}}`),
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	target := srv.AgentURL("odd")
	out, status := runAgsh(t, target, "help", "--topic", "sessions")
	if status != 0 || !strings.Contains(out, "topic:") || !strings.Contains(out, "sessions") {
		t.Errorf("agsh help --topic: status %d, output:\n%s", status, out)
	}
	cmd := agshCommand("--target", target)
	cmd.Stdin = strings.NewReader("help --topic shell\n")
	b, err := cmd.Output()
	if err != nil || !strings.Contains(string(b), "shell") || strings.Contains(string(b), "COMMANDS") {
		t.Errorf("shell help: %v\n%s", err, b)
	}
	out, status = runAgsh(t, target, "--help")
	if status != 0 || !strings.Contains(out, "USAGE") {
		t.Errorf("agsh --help: status %d\n%s", status, out)
	}
}

// TestHelpOfMetaCommand: `help :wait` (one-shot and in the shell) is the
// meta command's usage, as `:wait --help` prints it; it was "unknown
// command", with a did-you-mean naming another word.
func TestHelpOfMetaCommand(t *testing.T) {
	t.Parallel()
	srv := startDeployment(t)
	target := srv.AgentURL("executor")
	page, status := runAgsh(t, target, ":wait", "--help")
	if status != 0 || !strings.HasPrefix(page, "usage: :wait") {
		t.Fatalf(":wait --help: status %d\n%s", status, page)
	}
	out, stderr, status := runAgshErr(t, target, "help", ":wait")
	if status != 0 || out != page || stderr != "" {
		t.Errorf("agsh help :wait: status %d, stderr %q, stdout\n%s", status, stderr, out)
	}
	cmd := agshCommand("--target", target)
	cmd.Stdin = strings.NewReader("help :top\n")
	b, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(b), "usage: :top") {
		t.Errorf("the shell's help :top: %v\n%s", err, b)
	}
	if _, stderr, status := runAgshErr(t, target, "help", ":nope"); status != 2 || !strings.Contains(stderr, `unknown command ":nope"`) {
		t.Errorf("help :nope: status %d, %s", status, stderr)
	}
}

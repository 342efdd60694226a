//go:build unix

package mcpconn

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNpxFilesystemServer runs the reference filesystem MCP server through
// npx, when npx is available and can fetch it (an optional extra: it skips
// otherwise, in CI too).
func TestNpxFilesystemServer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the npx server")
	}
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx is not installed; skipping the optional npx MCP server test")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello from agsh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := &logSink{}
	s := startSet(t, Config{
		MCP:          []string{"fs=npx -y @modelcontextprotocol/server-filesystem " + dir},
		Logf:         logs.logf,
		StartTimeout: 3 * time.Minute,
	})
	if got := logs.String(); got != "" {
		t.Skipf("the npx filesystem server did not start (offline?): %s", got)
	}
	planner := s.Tools("planner")
	list := toolNamed(t, planner, "fs_list_directory")
	if list.Source.Connection != "fs" || list.Source.Connector != "" || !strings.Contains(string(list.InputSchema), `"path"`) {
		t.Errorf("fs_list_directory: source %+v schema %s", list.Source, list.InputSchema)
	}
	r, res := callTool(t, list, `{"path":"`+dir+`"}`)
	if res.IsError || !strings.Contains(r.text(), "hello.txt") {
		t.Errorf("fs_list_directory answered %s", res.Value)
	}
	r, res = callTool(t, list, `{"path":"/definitely/not/allowed"}`)
	if !res.IsError {
		t.Errorf("listing outside the allowed directory answered %s", res.Value)
	}
	var read string
	for _, name := range []string{"fs_read_text_file", "fs_read_file"} {
		for _, tl := range planner {
			if tl.Name == name && read == "" {
				read = name
			}
		}
	}
	if read == "" {
		t.Fatalf("no read tool among %s", toolNames(planner))
	}
	r, res = callTool(t, toolNamed(t, planner, read), `{"path":"`+filepath.Join(dir, "hello.txt")+`"}`)
	if res.IsError || !strings.Contains(r.text(), "hello from agsh") {
		t.Errorf("%s answered %s", read, res.Value)
	}
}

// TestNpxCodeRunnerLogsOnStdout runs mcp-server-code-runner, a real server
// that prints log lines on standard output, through npx (an optional extra:
// it skips without npx or when the package cannot be fetched).
func TestNpxCodeRunnerLogsOnStdout(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the npx server")
	}
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx is not installed; skipping the optional npx MCP server test")
	}
	logs := &logSink{}
	s := startSet(t, Config{MCP: []string{"runner=npx -y mcp-server-code-runner@latest"}, Logf: logs.logf, StartTimeout: 3 * time.Minute})
	var names []string
	for _, tl := range s.Tools("planner") {
		if strings.HasPrefix(tl.Name, "runner_") {
			names = append(names, tl.Name)
		}
	}
	if len(names) == 0 {
		if strings.Contains(logs.String(), "looking for beginning of value") {
			t.Fatalf("a log line on standard output broke the connection:\n%s", logs)
		}
		if strings.Contains(logs.String(), "its tools are absent") {
			t.Skipf("mcp-server-code-runner did not start (offline?): %s", logs)
		}
		t.Fatalf("no runner tools; logs:\n%s", logs)
	}
	t.Logf("tools %v; logs:\n%s", names, logs)
}

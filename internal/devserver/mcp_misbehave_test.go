//go:build unix

package devserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

var (
	rawServerOnce sync.Once
	rawServer     string
	rawServerErr  error
)

// TestMain removes stdioServer's build once every test ran.
func TestMain(m *testing.M) {
	code := m.Run()
	if rawServerErr == nil && rawServer != "" {
		os.RemoveAll(filepath.Dir(rawServer))
	}
	os.Exit(code)
}

// stdioServer builds the test MCP server (mcpconn/internal/stdioserver)
// once for the run.
func stdioServer(t *testing.T) string {
	t.Helper()
	rawServerOnce.Do(func() {
		dir, err := os.MkdirTemp("", "devserver-stdioserver-")
		if err != nil {
			rawServerErr = err
			return
		}
		rawServer = filepath.Join(dir, "stdioserver")
		out, err := exec.Command("go", "build", "-o", rawServer, "./mcpconn/internal/stdioserver").CombinedOutput()
		if err != nil {
			rawServerErr = err
			rawServer = string(out)
		}
	})
	if rawServerErr != nil {
		t.Fatalf("building the test MCP server: %v\n%s", rawServerErr, rawServer)
	}
	return rawServer
}

// TestMCPServerMisbehaves: on the server, a noisy --mcp server works and its
// noise reaches the log escaped; a call during which the server dies answers
// 502 connection_failed; the tools stay listed and the next call restarts it.
func TestMCPServerMisbehaves(t *testing.T) {
	bin := stdioServer(t)
	var logs logLines
	s := devservertest.StartDeployment(t, devserver.Options{MCP: []string{"r=" + bin + " -raw -noisy"}, Logf: logs.logf})
	planner := s.AgentURL("planner")
	if status, body := post(t, planner, "r_echo", "", `{"input":{"a":1}}`); status != 200 || !strings.Contains(string(body), `"isError":false`) {
		t.Fatalf("echo: %d %s", status, body)
	}
	status, body := post(t, planner, "r_crash", "", `{}`)
	expectError(t, status, body, 502, "connection_failed", "")
	_, list := devservertest.Do(t, "GET", planner+"/v1/tools", "", nil)
	if !strings.Contains(string(list), `"r_echo"`) || strings.Contains(string(list), `"r_tasky"`) {
		t.Fatalf("listing after the death: %s", list)
	}
	if status, body := post(t, planner, "r_echo", "", `{"input":{"a":2}}`); status != 200 {
		t.Fatalf("echo after the death: %d %s", status, body)
	}
	got := logs.String()
	if strings.ContainsRune(got, 0x1b) || !strings.Contains(got, `not JSON-RPC: \x1b[32mready\x1b[0m`) || !strings.Contains(got, "mcp r: restarted") {
		t.Fatalf("logs:\n%s", got)
	}
}

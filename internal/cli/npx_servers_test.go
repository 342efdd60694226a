package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// npxServers are the real npm MCP servers TestNPXServers drives, by
// connection name.
var npxServers = map[string]string{
	"sqlite":   "npx -y mcp-sqlite %s/t.db",
	"eslint":   "npx -y @eslint/mcp",
	"time":     "npx -y time-mcp",
	"excel":    "npx -y @negokaz/excel-mcp-server",
	"dc":       "npx -y @wonderwhy-er/desktop-commander",
	"git":      "npx -y @cyanheads/git-mcp-server",
	"everyone": "npx -y @modelcontextprotocol/server-everything",
}

// TestNPXServers drives the npm MCP servers that showed each rule through
// agsh-devserver --mcp and agsh, when npx is present (an optional extra: it
// skips with -short or without npx, and a server that cannot be fetched or
// started in three minutes skips its part): typed union values reach SQLite;
// a linter's several text parts each show; enum values with spaces stay
// whole and quoted; a required boolean says how to send false and
// readOnlyHint false is stated; an indented template with margin lines is
// de-indented and no word is cut; a tool's own "Error:" is not doubled; long
// values wrap; annotations stay in --output json; a tool-reported error is
// marked in JSON. It also skips under -race: the servers are outside
// programs, and seven of them under the race detector cost make test a
// minute.
func TestNPXServers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the npx servers")
	}
	if raceEnabled {
		t.Skip("-race: run go test -run TestNPXServers ./internal/cli without -race for the npx servers")
	}
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx is not installed; skipping the optional npx MCP servers test")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "eslint.config.mjs"), []byte(`export default [{ rules: { semi: "error", "no-unused-vars": "error" } }];`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"a.js": "var x = 1\n", "b.js": "let y = 2\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// desktop-commander as inside a container (its descriptions then hold
	// notices at the left margin); its install skips a browser download.
	t.Setenv("MCP_CLIENT_DOCKER", "true")
	t.Setenv("PUPPETEER_SKIP_DOWNLOAD", "true")
	t.Setenv("COLUMNS", "80")
	var mcp []string
	for name, cmd := range npxServers {
		if strings.Contains(cmd, "%s") {
			cmd = fmt.Sprintf(cmd, dir)
		}
		mcp = append(mcp, name+"="+cmd)
	}
	var logs strings.Builder
	var mu sync.Mutex
	srv := devservertest.StartDeployment(t, devserver.Options{MCP: mcp, MCPStartTimeout: 3 * time.Minute,
		Logf: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(&logs, format+"\n", args...)
		}})
	target := srv.AgentURL("planner")
	index, _ := runAgsh(t, target, "help", "--output", "json")
	var page struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	_ = json.Unmarshal([]byte(index), &page)
	has := map[string]bool{}
	for _, tl := range page.Tools {
		has[tl.Name] = true
	}
	run := func(args ...string) (string, string, int) {
		cmd := agshCommand(append([]string{"--target", target}, args...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), status
	}
	part := func(tool string, f func(t *testing.T)) {
		t.Run(tool, func(t *testing.T) {
			if !has[tool] {
				mu.Lock()
				defer mu.Unlock()
				t.Skipf("%s is not served (offline, or not started in time); log:\n%s", tool, logs.String())
			}
			f(t)
		})
	}

	part("sqlite_query", func(t *testing.T) {
		help, _, _ := run("sqlite_query", "--help")
		if !strings.Contains(help, "--values <string|number|boolean|null>...") {
			t.Errorf("help:\n%s", help)
		}
		out, errs, status := run("sqlite_query", "--sql", "select typeof(?) as a, typeof(?) as b, typeof(?) as c, typeof(?) as d", "--values", "41", "--values", "null", "--values", `"41"`, "--values", "4.5", "--output", "json")
		if status != 0 || !regexp.MustCompile(`"a": "integer",\s+"b": "null",\s+"c": "text",\s+"d": "real"`).MatchString(out) {
			t.Errorf("status %d\n%s%s", status, out, errs)
		}
	})
	part("eslint_lint-files", func(t *testing.T) {
		a, b := filepath.Join(dir, "a.js"), filepath.Join(dir, "b.js")
		out, errs, status := run("eslint_lint-files", "--file-paths", a, "--file-paths", b)
		if status != 0 || strings.Count(out, "filePath:") != 2 || !strings.Contains(out, "message:") {
			t.Errorf("text view: status %d\n%s%s", status, out, errs)
		}
		out, _, _ = run("eslint_lint-files", "--file-paths", a, "--file-paths", b, "--output", "json")
		var parts []any
		if err := json.Unmarshal([]byte(out), &parts); err != nil || len(parts) < 3 {
			t.Fatalf("--output json is not the array of the parts: %v\n%s", err, out)
		}
		objects := 0
		for _, p := range parts {
			if _, ok := p.(map[string]any); ok {
				objects++
			}
		}
		if _, ok := parts[0].(string); !ok || objects != 2 {
			t.Errorf("parts: %s", out)
		}
	})
	part("time_current_time", func(t *testing.T) {
		help, _, _ := run("time_current_time", "--help")
		for _, v := range []string{`"h:mm A"`, `"h:mm:ss A"`, `"YYYY-MM-DD HH:mm:ss"`} {
			if strings.Count(help, v) < 1 {
				t.Errorf("%s is not whole on one line:\n%s", v, help)
			}
		}
		out, _, status := run("time_convert_time", "--source-timezone", "Nowhere/X", "--target-timezone", "UTC", "--time", "2025-01-01 10:00:00", "--output", "json")
		if status != 1 || !strings.Contains(out, `"isError": true`) {
			t.Errorf("error in JSON: status %d\n%s", status, out)
		}
	})
	part("excel_excel_write_to_sheet", func(t *testing.T) {
		help, _, _ := run("excel_excel_write_to_sheet", "--help")
		if !strings.Contains(help, "Required: --new-sheet sends true, --new-sheet=false sends false.") || !strings.Contains(help, "Not read-only (readOnlyHint: false).") {
			t.Errorf("help:\n%s", help)
		}
	})
	part("dc_create_directory", func(t *testing.T) {
		help, _, _ := run("dc_create_directory", "--help")
		if regexp.MustCompile(`(?m)^ {6,}\S`).MatchString(strings.Split(help, "OPTIONS")[0]) || !strings.Contains(help, "automatically") {
			t.Errorf("description not de-indented, or a word cut:\n%s", help)
		}
		_, errs, status := run("dc_read_file", "--path", filepath.Join(dir, "missing"))
		if status != 1 || !strings.HasPrefix(errs, "Error: ") || strings.Contains(errs, "Error: Error:") {
			t.Errorf("error line: status %d\n%s", status, errs)
		}
	})
	part("git_git_log", func(t *testing.T) {
		_, errs, status := run("git_git_log", "--path", filepath.Join(dir, "missing"))
		if status != 1 || strings.Contains(errs, "Error: Error:") || !strings.HasPrefix(errs, "Error: ") {
			t.Errorf("error line: status %d\n%s", status, errs)
		}
		out, errs, status := run("git_git_wrapup_instructions", "--acknowledgement", "Y")
		if status != 0 {
			t.Skipf("wrap-up instructions: status %d\n%s", status, errs)
		}
		for _, l := range strings.Split(out, "\n") {
			if len([]rune(l)) > 80 && len(strings.Fields(l)) > 2 {
				t.Errorf("a line wider than 80 columns: %q", l)
				break
			}
		}
	})
	part("everyone_get-annotated-message", func(t *testing.T) {
		out, _, status := run("everyone_get-annotated-message", "--message-type", "error", "--output", "json")
		if status != 0 || !strings.Contains(out, `"annotations": {`) || !strings.Contains(out, `"priority": 1`) {
			t.Errorf("--output json: status %d\n%s", status, out)
		}
		out, _, _ = run("everyone_get-annotated-message", "--message-type", "error")
		if strings.TrimSpace(out) != "Error: Operation failed" {
			t.Errorf("text view: %q", out)
		}
	})
}

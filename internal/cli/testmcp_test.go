package cli

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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

// buildTestMCP answers the path of internal/testmcp (a stdio MCP server
// with every kind of MCP content), built once for the run of the package
// beside agsh-devserver's build (removed at its end, TestMain); dir is
// the caller's folder, where it is linked or copied.
func buildTestMCP(dir string) (string, error) {
	testMCPOnce.Do(func() {
		d, err := os.MkdirTemp("", "agsh-testmcp-built-")
		if err != nil {
			testMCPErr = err
			return
		}
		testMCPDir = d
		testMCPBin = filepath.Join(d, "testmcp")
		out, err := exec.Command("go", "build", "-o", testMCPBin, "github.com/agsh-dev/agsh/internal/testmcp").CombinedOutput()
		if err != nil {
			testMCPErr = fmt.Errorf("building internal/testmcp: %v\n%s", err, out)
		}
	})
	if testMCPErr != nil {
		return "", testMCPErr
	}
	bin := filepath.Join(dir, "testmcp")
	if err := os.Link(testMCPBin, bin); err != nil {
		data, err := os.ReadFile(testMCPBin)
		if err == nil {
			err = os.WriteFile(bin, data, 0o755)
		}
		if err != nil {
			return "", err
		}
	}
	return bin, nil
}

// The one build of internal/testmcp for the run (buildTestMCP).
var (
	testMCPOnce sync.Once
	testMCPBin  string
	testMCPDir  string
	testMCPErr  error
)

// TestServerEverything drives @modelcontextprotocol/server-everything
// through agsh-devserver --mcp when npx is present (an optional extra: it
// skips without npx, with -short, or when the server cannot be fetched): its
// tiny image comes back whole with --output json, its base64 decoding to a
// PNG, and as one placeholder line in the text view; its embedded text
// resource and resource links show their text and names
// (docs/rendering.md#mcp-results).
func TestServerEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the npx server")
	}
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx is not installed; skipping the optional server-everything test")
	}
	var logs strings.Builder
	var mu sync.Mutex
	srv := devservertest.StartDeployment(t, devserver.Options{
		MCP: []string{"everything=npx -y @modelcontextprotocol/server-everything"},
		Logf: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(&logs, format+"\n", args...)
		},
	})
	target := srv.AgentURL("planner")
	index, _ := runAgsh(t, target, "help", "--output", "json")
	var page struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	_ = json.Unmarshal([]byte(index), &page)
	tools := map[string]string{} // normalized name -> the command's name
	for _, tl := range page.Tools {
		tools[strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(tl.Name))] = tl.Name
	}
	image := tools["everythinggettinyimage"]
	if image == "" {
		mu.Lock()
		defer mu.Unlock()
		t.Skipf("server-everything did not start or has no tiny-image tool (offline?): tools %v; logs:\n%s", page.Tools, logs.String())
	}
	out, status := runAgsh(t, target, image, "--output", "json")
	var res struct {
		Content []struct{ Type, Data, MimeType string } `json:"content"`
	}
	if status != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("%s --output json: status %d\n%.500s", image, status, out)
	}
	found := false
	for _, p := range res.Content {
		if p.Type == "image" {
			b, err := base64.StdEncoding.DecodeString(p.Data)
			if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) {
				t.Errorf("the image part does not decode to a PNG: %v", err)
			}
			found = true
		}
	}
	if !found {
		t.Errorf("%s --output json has no image part:\n%.500s", image, out)
	}
	text, status := runAgsh(t, target, image)
	if status != 0 || !strings.Contains(text, "[image image/png, ") || strings.Contains(text, "iVBOR") {
		t.Errorf("%s text view: status %d\n%s", image, status, text)
	}
	// An embedded text resource prints its text under its line; a resource
	// link shows its name (rule 2), where this version has the tools.
	if ref := tools["everythinggetresourcereference"]; ref != "" {
		text, status := runAgsh(t, target, ref)
		if !regexp.MustCompile(`(?m)^\[resource \S+, text/plain\]\n\S`).MatchString(text) || status != 0 {
			t.Errorf("%s text view: status %d\n%s", ref, status, text)
		}
	}
	if links := tools["everythinggetresourcelinks"]; links != "" {
		out, status := runAgsh(t, target, links, "--output", "json")
		var res struct {
			Content []struct{ Type, Name string } `json:"content"`
		}
		name := ""
		if json.Unmarshal([]byte(out), &res) == nil {
			for _, p := range res.Content {
				if p.Type == "resource_link" && name == "" {
					name = p.Name
				}
			}
		}
		text, _ := runAgsh(t, target, links)
		if status != 0 || name == "" || !strings.Contains(text, "[resource_link ") || !strings.Contains(text, " "+name) {
			t.Errorf("%s: status %d, name %q; text view\n%s", links, status, name, text)
		}
	}
}

// TestLateMCPServer: an --mcp server that misses --mcp-start-timeout keeps
// starting; agsh does not see its tools until it is ready, then does (the
// log says when), and the tool detail passes its icons and _meta through.
func TestLateMCPServer(t *testing.T) {
	dir := t.TempDir()
	bin, err := buildTestMCP(dir)
	if err != nil {
		t.Fatal(err)
	}
	gate := filepath.Join(dir, "gate")
	var logs strings.Builder
	var mu sync.Mutex
	logged := func() string { mu.Lock(); defer mu.Unlock(); return logs.String() }
	srv := devservertest.StartDeployment(t, devserver.Options{
		MCP:             []string{"late=" + bin + " -gate " + gate},
		MCPStartTimeout: 100 * time.Millisecond,
		Logf: func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(&logs, format+"\n", args...)
		},
	})
	target := srv.AgentURL("planner")
	out, _ := runAgsh(t, target, "help")
	if strings.Contains(out, "late_") {
		t.Fatalf("tools of a server not ready yet:\n%s", out)
	}
	// While it starts, the listing says so, help shows it, and its tools
	// are not typos (docs/wire.md#the-tool-listing).
	if !strings.Contains(out, "\nLATE (starting…)\n    its tools appear when it is ready\n") {
		t.Errorf("help does not show the connection starting:\n%s", out)
	}
	if out, _ := runAgsh(t, target, "help", "--output", "json"); !strings.Contains(out, `"starting": [`) {
		t.Errorf("help --output json lacks starting:\n%s", out)
	}
	if _, errOut, status := runAgshErr(t, target, "late_lint"); status != 2 ||
		!strings.Contains(errOut, `unknown command "late_lint": connection late is still starting; its tools appear when it is ready`) {
		t.Errorf("late_lint while starting: status %d\n%s", status, errOut)
	}
	if _, errOut, _ := runAgshErr(t, target, "nosuch_tool"); !strings.Contains(errOut, "(connection late is still starting; its tools appear when it is ready)") {
		t.Errorf("another unknown name does not mention the starting connection:\n%s", errOut)
	}
	// A script says the same at its check.
	sh := agshCommand("--target", target)
	sh.Stdin = strings.NewReader("late_lint\n")
	if b, _ := sh.CombinedOutput(); !strings.Contains(string(b), `unknown command "late_lint": connection late is still starting; its tools appear when it is ready`) {
		t.Errorf("the shell's check of late_lint:\n%s", b)
	}
	if !strings.Contains(logged(), "mcp late: not ready within 100ms (--mcp-start-timeout); it keeps starting, and its tools appear when it is ready\n") {
		t.Fatalf("log:\n%s", logged())
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(time.Minute); !strings.Contains(logged(), "mcp late: ready after "); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the late server never became ready; log:\n%s", logged())
		}
	}
	if out, _ := runAgsh(t, target, "help"); !strings.Contains(out, "    late_kinds ") || strings.Contains(out, "starting…") {
		t.Errorf("its tools are not listed once it is ready, or it still shows as starting:\n%s", out)
	}
	if out, status := runAgsh(t, target, "late_lint", "--output", "json"); status != 0 || !strings.Contains(out, `"Ask before fixing them."`) {
		t.Errorf("late_lint: status %d\n%s", status, out)
	}
	resp, err := http.Get(target + "/v1/tools/late_kinds")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `"icons":[{"src":"https://example.com/kinds.png","mimeType":"image/png","sizes":["48x48"]}]`) ||
		!strings.Contains(string(body), `"_meta":{"com.example/ui":{"resourceUri":"ui://kinds/card"}}`) {
		t.Errorf("detail: %s", body)
	}
}

// runAgshErr is runAgsh with standard error too.
func runAgshErr(t *testing.T, target string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	cmd := agshCommand(append([]string{"--target", target}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), status
}

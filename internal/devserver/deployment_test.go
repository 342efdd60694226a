package devserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/wire"
)

func TestDeploymentAgents(t *testing.T) {
	root, extra := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(extra, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := devservertest.StartDeployment(t, devserver.Options{Root: root, Mounts: []tool.Mount{{Path: "/data", Dir: extra}}})
	_, body := devservertest.Do(t, http.MethodGet, s.AgentURL("executor")+"/v1/tools", "", nil)
	var names []string
	for _, part := range strings.Split(string(body), `"name":"`)[1:] {
		names = append(names, part[:strings.IndexByte(part, '"')])
	}
	got := strings.Join(names, " ")
	if !strings.HasPrefix(got, "read ls grep glob diff list_changes report_change_issue report_change_succeeded run_checks datadog_") {
		t.Fatalf("executor tools: %s", got)
	}
	_, body = devservertest.Do(t, http.MethodGet, s.AgentURL("planner")+"/v1/info", "", nil)
	// The info document is the static authored manifest: the planner has
	// connection tools only, so its info lists none; the executor's lists its
	// authored tools and none of datadog's.
	if string(body) != `{"ok":true,"name":"change-monitor-planner","description":"`+devserver.PlannerDescription+`","tools":[]}` {
		t.Fatalf("planner info: %.300s", body)
	}
	_, body = devservertest.Do(t, http.MethodGet, s.AgentURL("executor")+"/v1/info", "", nil)
	if !strings.Contains(string(body), `"name":"run_checks"`) || strings.Contains(string(body), `datadog_`) {
		t.Fatalf("executor info: %s", body)
	}
	status, body := post(t, s.AgentURL("executor"), "read", "", `{"input":{"path":"/data/notes.txt"}}`)
	if status != 200 || !strings.Contains(string(body), `hello`) {
		t.Fatalf("read of a mount: %d %s", status, body)
	}
}

func TestBuildRefusesBadMounts(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts devserver.Options
		want string
	}{
		{"root is a file", devserver.Options{Root: file}, "--root: " + file + " is not a directory"},
		{"mount twice", devserver.Options{Root: dir, Mounts: []tool.Mount{{Path: "/repo", Dir: dir}}}, "--mount /repo=" + dir + ": /repo is already mounted"},
		{"mount at /", devserver.Options{Root: dir, Mounts: []tool.Mount{{Path: "/", Dir: dir}}}, "--mount /=" + dir + ": the mount path must be absolute and not /"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := devserver.Build(t.Context(), tt.opts)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("got %v, want %s", err, tt.want)
			}
		})
	}
}

// BenchmarkCallRoundTrip measures one direct call of a small tool over
// loopback HTTP with keep-alive, as a client sees it.
func BenchmarkCallRoundTrip(b *testing.B) {
	s := devservertest.Start(b, devserver.Config{Logf: func(string, ...any) {}})
	benchCall(b, s.AgentURL("executor")+"/v1/tools/echo_read", []byte(`{"input":{"path":"/repo/README.md","limit":2}}`))
}

// BenchmarkRead1MiB measures a read of a 1 MiB file through the workspace
// file tools of the real deployment.
func BenchmarkRead1MiB(b *testing.B) {
	root := b.TempDir()
	line := strings.Repeat("abcdefghij", 9) + "\n"
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(strings.Repeat(line, (1<<20)/len(line)+1)), 0o644); err != nil {
		b.Fatal(err)
	}
	s := devservertest.StartDeployment(b, devserver.Options{Root: root, Logf: func(string, ...any) {}})
	benchCall(b, s.AgentURL("executor")+"/v1/tools/read", []byte(`{"input":{"path":"/repo/big.txt"}}`))
}

func benchCall(b *testing.B, url string, body []byte) {
	client := &http.Client{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		resp, err := client.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Contains(out, []byte(`"isError":false`)) {
			b.Fatalf("%d %.200s", resp.StatusCode, out)
		}
	}
}

// TestAddTools: tools added after the start (a --mcp server ready late)
// join the listing and answer their detail and calls; the detail passes an
// MCP tool's icons and _meta through byte for byte; a tool already served
// is skipped, another one of a taken name refused; the authored info
// document does not change.
func TestAddTools(t *testing.T) {
	s, _ := start(t)
	planner := s.AgentURL("planner")
	_, infoBefore := devservertest.Do(t, http.MethodGet, planner+"/v1/info", "", nil)
	late := &tool.Tool{Name: "slow_whoami", Title: "Who am I",
		Icons:  json.RawMessage(`[{"src":"https://example.com/w.png","sizes":["48x48"]}]`),
		Meta:   json.RawMessage(`{"com.example/ui":{"resourceUri":"ui://w"}}`),
		Source: wire.Source{Kind: "connection", Connection: "slow"},
		Call:   func(context.Context, *tool.Call) (tool.Result, error) { return tool.Text("me"), nil }}
	status, body := devservertest.Do(t, http.MethodGet, planner+"/v1/tools/slow_whoami", "", nil)
	expectError(t, status, body, http.StatusNotFound, wire.CodeUnknownTool, "")
	if err := s.AddTools("planner", []*tool.Tool{late}); err != nil {
		t.Fatal(err)
	}
	_, list := devservertest.Do(t, http.MethodGet, planner+"/v1/tools", "", nil)
	if !strings.Contains(string(list), `{"name":"slow_whoami","title":"Who am I","source":{"kind":"connection","connection":"slow"}}`) {
		t.Errorf("listing: %s", list)
	}
	_, detail := devservertest.Do(t, http.MethodGet, planner+"/v1/tools/slow_whoami", "", nil)
	if !strings.Contains(string(detail), `"icons":[{"src":"https://example.com/w.png","sizes":["48x48"]}],"_meta":{"com.example/ui":{"resourceUri":"ui://w"}}`) {
		t.Errorf("detail: %s", detail)
	}
	if status, body := post(t, planner, "slow_whoami", "", map[string]any{"input": map[string]any{}}); status != http.StatusOK || !strings.Contains(string(body), `"result":"me"`) {
		t.Errorf("call: %d %s", status, body)
	}
	if err := s.AddTools("planner", []*tool.Tool{late}); err != nil {
		t.Errorf("the same tool again: %v", err)
	}
	other := *late
	if err := s.AddTools("planner", []*tool.Tool{&other}); err == nil || err.Error() != `devserver: agent planner: tool "slow_whoami" is already served` {
		t.Errorf("a taken name: %v", err)
	}
	_, list2 := devservertest.Do(t, http.MethodGet, planner+"/v1/tools", "", nil)
	if strings.Count(string(list2), `"slow_whoami"`) != 1 {
		t.Errorf("listing after the repeats: %s", list2)
	}
	if _, infoAfter := devservertest.Do(t, http.MethodGet, planner+"/v1/info", "", nil); string(infoAfter) != string(infoBefore) {
		t.Errorf("info changed:\n%s\n%s", infoBefore, infoAfter)
	}
	if err := s.AddTools("nobody", nil); err == nil {
		t.Error("an unknown agent took tools")
	}
}

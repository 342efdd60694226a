package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The control-plane flags reach the server: a key from --control-plane and
// one from --cp-key each resolve the names of the teams they may use.
func TestRunControlPlaneFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cp.json")
	if err := os.WriteFile(file, []byte(`{"teams":[{"id":"42","name":"Acme"}],"keys":[{"key":"file-key","teams":["42"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--root", dir, "--control-plane", file,
			"--cp-team", "7=Beta:planner", "--cp-key", "flag-key=42,7"}, noEnv, pw, &errOut)
		pw.Close()
	}()
	executor, _ := readStartup(t, pr)
	host := strings.TrimSuffix(executor, "/executor")
	row := func(name, id, team string) string {
		return `{"slug":"` + name + `","teamId":"` + id + `","teamName":"` + team + `","baseUrl":"` + host +
			`/internal/agentsdk/deployments/` + name + `"}`
	}
	for _, c := range []struct{ key, want string }{
		{"file-key", `{"ok":true,"deployments":[` + row("change-monitor-planner", "42", "Acme") + `]}`},
		{"flag-key", `{"ok":true,"deployments":[` + row("change-monitor-planner", "42", "Acme") + `,` +
			row("change-monitor-planner", "7", "Beta") + `]}`},
	} {
		req, _ := http.NewRequest(http.MethodGet, host+"/internal/agentsdk/deployments?slug=change-monitor-planner", nil)
		req.Header.Set("Authorization", "Bearer "+c.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != c.want {
			t.Errorf("%s: %d %s\nwant %s", c.key, resp.StatusCode, body, c.want)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return after its context ended")
	}
}

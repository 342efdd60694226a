package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
)

// startDeployment starts a development deployment over a fresh git
// checkout holding a README.
func startDeployment(t *testing.T) *devserver.Server {
	t.Helper()
	srv, _ := startRepoDeployment(t, map[string]string{"README.md": "# demo\n"})
	return srv
}

// startRepoDeployment starts a development deployment over a fresh git
// checkout of files (path → text).
func startRepoDeployment(t *testing.T, files map[string]string) (srv *devserver.Server, repo string) {
	t.Helper()
	requireGit(t)
	repo = t.TempDir()
	for name, text := range files {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := gitInit(repo); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, stop, err := devserver.Build(ctx, devserver.Options{Addr: "127.0.0.1:0", Root: repo})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(); stop(); cancel() })
	return srv, repo
}

// agshCommand runs this test binary as agsh.
func agshCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "AGSH_TEST_AS_AGSH=1", "AGENT_SHELL_TARGET=", "NO_COLOR=1")
	return cmd
}

func post(t *testing.T, url, body string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST %s: %s", url, resp.Status)
	}
}

// TestInterruptHangingCall: Ctrl-C during a call that does not answer exits
// 130 at once and says the call may still complete.
func TestInterruptHangingCall(t *testing.T) {
	srv := startDeployment(t)
	exe := srv.AgentURL("executor")
	post(t, exe+"/v1/dev/faults", `{"route":"POST /v1/tools/report_change_succeeded","count":1,"delayMs":60000}`)
	cmd := agshCommand("--yes", "--target", exe, "report_change_succeeded", "--summary", "x")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFaultTaken(t, exe)
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(20 * time.Second): // the fault delays the answer 60 s
		cmd.Process.Kill()
		t.Fatalf("agsh did not stop on SIGINT; stderr:\n%s", stderr.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v; stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "may still complete") {
		t.Errorf("stderr does not say the call may still complete:\n%s", stderr.String())
	}
}

// waitFaultTaken waits until the deployment has taken every armed fault of
// the agent: the faulted request has arrived (a hang detector's deadline,
// not a timing assertion).
func waitFaultTaken(t *testing.T, agentURL string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(agentURL + "/v1/dev/faults")
		if err == nil {
			var body struct {
				Faults []json.RawMessage `json:"faults"`
			}
			derr := json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if derr == nil && len(body.Faults) == 0 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the faulted request never reached the deployment")
}

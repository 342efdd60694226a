package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/spin"
)

// TestOneShotSpinner: a one-shot call slower than 300 ms shows the spinner on
// a terminal, erased before the output; piped, never. The call is held by a
// proxy until the spinner has shown (no race with the machine's load).
func TestOneShotSpinner(t *testing.T) {
	srv, _ := startRepoDeployment(t, map[string]string{"README.md": "# demo\n"})
	target := srv.AgentURL("executor")
	release := make(chan struct{})
	held := holdingProxy(t, target, "/v1/tools/ls", release)

	out := onTerminalUntil(t, []string{"NO_COLOR=1"}, spin.Label, func() { close(release) }, "--target", held, "ls")
	shown := strings.Index(out, spin.Label)
	erased := strings.LastIndex(out, "\r\x1b[K")
	result := strings.Index(out, "README.md")
	if shown < 0 || erased < shown || result < erased {
		t.Errorf("want the spinner, erased, then the result:\n%q", out)
	}

	post(t, target+"/v1/dev/faults", `{"route":"POST /v1/tools/ls","count":1,"delayMs":1500}`)
	cmd := agshCommand("--target", target, "ls")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if stdout, err := cmd.Output(); err != nil || !strings.Contains(string(stdout), "README.md") ||
		strings.Contains(stderr.String(), spin.Label) || strings.Contains(string(stdout), spin.Label) {
		t.Errorf("piped: %v stdout %q stderr %q", err, stdout, stderr.String())
	}
}

// holdingProxy forwards to target (an agent URL) and holds a POST to the
// path under it until release is closed (at most 30 s: what is awaited
// never came, and the test fails on what it got).
func holdingProxy(t *testing.T, target, path string, release <-chan struct{}) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	base := &url.URL{Scheme: u.Scheme, Host: u.Host}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(base) }} // no X-Forwarded-For: a direct caller
	ps := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == u.Path+path {
			select {
			case <-release:
			case <-time.After(30 * time.Second):
			case <-r.Context().Done():
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(ps.Close)
	return ps.URL + u.Path
}

// onTerminalUntil is onTerminal that calls seen once the terminal's output
// shows want (then keeps reading to the end).
func onTerminalUntil(t *testing.T, env []string, want string, seen func(), args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script (util-linux) not found; it provides the pseudo-terminal")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	line := os.Args[0]
	for _, a := range args {
		line += " '" + a + "'"
	}
	cmd := exec.CommandContext(ctx, "script", "-qec", line, "/dev/null")
	cmd.Env = append(os.Environ(), "AGSH_TEST_AS_AGSH=1", "TERM=xterm-256color", "NO_COLOR=", "CLICOLOR_FORCE=",
		"COLORFGBG=", "GLAMOUR_STYLE=", "AGENT_SHELL_TARGET=")
	cmd.Env = append(cmd.Env, env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		buf  bytes.Buffer
		once sync.Once
	)
	chunk := make([]byte, 4096)
	for {
		n, rerr := stdout.Read(chunk)
		buf.Write(chunk[:n])
		if bytes.Contains(buf.Bytes(), []byte(want)) {
			once.Do(seen)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			t.Fatal(rerr)
		}
	}
	once.Do(seen) // never shown: let the call end
	if err := cmd.Wait(); err != nil {
		t.Fatalf("script: %v\n%q", err, buf.String())
	}
	return buf.String()
}

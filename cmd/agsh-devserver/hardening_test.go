package main

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// TestMain removes the build of builtBinary once every test ran.
func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" && binErr == nil {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// builtBinary builds agsh-devserver once for the package's tests (and
// stdioServer's server beside it).
func builtBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agsh-devserver-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "agsh-devserver")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = err
			binPath = string(out)
		}
	})
	if binErr != nil {
		t.Fatalf("go build: %v\n%s", binErr, binPath)
	}
	return binPath
}

// syncBuffer is a goroutine-safe buffer for a child's standard error.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startBinary runs the built binary with args and env (added to a minimal
// environment) and returns the executor's URL and its standard error. The
// process is killed when the test ends.
func startBinary(t *testing.T, env []string, args ...string) (executor string, stderr *syncBuffer) {
	t.Helper()
	return startBinaryGuarded(t, 0, env, args...)
}

// startBinaryGuarded is startBinary that kills the process when it has not
// printed its start-up lines after guard (0: no guard), so that a start-up
// that hangs fails the test instead of stalling it.
func startBinaryGuarded(t *testing.T, guard time.Duration, env []string, args ...string) (executor string, stderr *syncBuffer) {
	t.Helper()
	bin := builtBinary(t)
	cmd := exec.Command(bin, append([]string{"--addr", "127.0.0.1:0", "--root", t.TempDir()}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr = &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Stopped as an operator stops it, so that it ends the --mcp
		// servers it started (a SIGKILL would leave them running); killed
		// if it does not stop.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	if guard > 0 {
		timer := time.AfterFunc(guard, func() { _ = cmd.Process.Kill() })
		defer timer.Stop()
	}
	executor, _ = readStartup(t, stdout)
	return executor, stderr
}

// get sends a GET with an optional bearer token and extra headers.
func get(t *testing.T, url, token string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestBinaryTokensFromFileAndEnv: tokens come from a file and from the
// environment, never needing argv; --help documents both.
func TestBinaryTokensFromFileAndEnv(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(file, []byte("# team tokens\nfile-token-1\n\n  file-token-2  \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	executor, stderr := startBinary(t, []string{"AGSH_DEVSERVER_TOKENS=env-token-1, env-token-2"}, "--bearer-token-file", file)
	for _, tok := range []string{"file-token-1", "file-token-2", "env-token-1", "env-token-2"} {
		if status, body := get(t, executor+"/v1/sessions", tok, nil); status != 200 {
			t.Fatalf("token %s: %d %s", tok, status, body)
		}
	}
	if status, _ := get(t, executor+"/v1/sessions", "", nil); status != 401 {
		t.Fatalf("no token: %d", status)
	}
	if status, _ := get(t, executor+"/v1/sessions", "# team tokens", nil); status != 401 {
		t.Fatalf("a comment line became a token: %d", status)
	}
	if strings.Contains(stderr.String(), "token-1") || strings.Contains(stderr.String(), "visible to every local user") {
		t.Fatalf("stderr: %s", stderr.String())
	}
}

// TestBinarySecretsNotInherited: the programs the server starts do not
// inherit the secrets of its environment (an MCP server here; git gets the
// same environment).
func TestBinarySecretsNotInherited(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "env")
	_, stderr := startBinary(t, []string{"AGSH_DEVSERVER_TOKENS=env-token-1", "AGSH_DEVSERVER_CP_KEYS=key-1=team-1", "KEEP=kept"},
		"--cp-team", "team-1=Team", "--mcp", "dump=sh -c 'env > "+dump+"; exit 1'")
	b, err := os.ReadFile(dump)
	if err != nil {
		t.Fatalf("the MCP server did not run: %v\n%s", err, stderr.String())
	}
	env := string(b)
	if !strings.Contains(env, "KEEP=kept") {
		t.Fatalf("the environment was not passed on:\n%s", env)
	}
	for _, secret := range []string{"AGSH_DEVSERVER_TOKENS", "env-token-1", "AGSH_DEVSERVER_CP_KEYS", "key-1"} {
		if strings.Contains(env, secret) {
			t.Fatalf("the MCP server inherited %s:\n%s", secret, env)
		}
	}
}

// TestBinaryControlPlaneKeysFromEnvAndFile: control-plane keys from the
// environment and from a key file.
func TestBinaryControlPlaneKeysFromEnvAndFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(file, []byte("file-key=42\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	executor, _ := startBinary(t, []string{"AGSH_DEVSERVER_CP_KEYS=env-key=42"}, "--cp-team", "42=Acme", "--cp-key-file", file)
	host := strings.TrimSuffix(executor, "/executor")
	for _, key := range []string{"env-key", "file-key"} {
		status, body := get(t, host+"/internal/agentsdk/deployments?slug=change-monitor-executor", key, nil)
		if status != 200 || !strings.Contains(body, `"teamId":"42"`) {
			t.Fatalf("key %s: %d %s", key, status, body)
		}
	}
}

func TestSecretSourcesRefused(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	spaced := filepath.Join(dir, "spaced")
	_ = os.WriteFile(empty, []byte("# nothing\n\n"), 0o600)
	_ = os.WriteFile(spaced, []byte("two words\n"), 0o600)
	for _, tt := range []struct {
		args []string
		env  map[string]string
		err  string
	}{
		{[]string{"--bearer-token-file", filepath.Join(dir, "nope")}, nil, "agsh-devserver: --bearer-token-file " + filepath.Join(dir, "nope") + ": no such file or directory\n"},
		{[]string{"--bearer-token-file", empty}, nil, "agsh-devserver: --bearer-token-file " + empty + ": the file holds no entry (one per line; # starts a comment)\n"},
		{[]string{"--bearer-token-file", spaced}, nil, "agsh-devserver: --bearer-token-file " + spaced + ": entry 1 holds a space (one token per line)\n"},
		{nil, map[string]string{"AGSH_DEVSERVER_CP_KEYS": "secret-without-team"}, "agsh-devserver: AGSH_DEVSERVER_CP_KEYS: entry 1: expected KEY=TEAMID[,TEAMID…]\n"},
	} {
		var out, errOut bytes.Buffer
		getenv := func(k string) string { return tt.env[k] }
		code := run(t.Context(), append([]string{"--root", dir}, tt.args...), getenv, &out, &errOut)
		got, _, _ := strings.Cut(errOut.String(), "Run 'agsh")
		if code != 2 || got != tt.err {
			t.Fatalf("%v: exit %d, stderr %q, want %q", tt.args, code, errOut.String(), tt.err)
		}
		if strings.Contains(errOut.String(), "two words") || strings.Contains(errOut.String(), "secret-without") {
			t.Fatalf("an error repeats a secret: %s", errOut.String())
		}
	}
}

func TestHelpDocumentsSecretSources(t *testing.T) {
	for _, s := range []string{"--bearer-token-file FILE", "--cp-key-file FILE", "AGSH_DEVSERVER_TOKENS", "AGSH_DEVSERVER_CP_KEYS"} {
		if !strings.Contains(usage, s) {
			t.Errorf("--help misses %s", s)
		}
	}
}

// TestBinaryBrowserAndLog: a rebound Host, a cross-origin page and a
// text/plain POST are refused; a path with a terminal escape is logged
// escaped.
func TestBinaryBrowserAndLog(t *testing.T) {
	executor, stderr := startBinary(t, nil)
	if status, _ := get(t, executor+"/v1/info", "", nil); status != 200 {
		t.Fatalf("plain GET: %d", status)
	}
	if status, _ := get(t, executor+"/v1/info", "", map[string]string{"Host": "evil.example"}); status != 403 {
		t.Fatalf("rebound host: %d", status)
	}
	if status, _ := get(t, executor+"/v1/info", "", map[string]string{"Origin": "http://evil.example"}); status != 403 {
		t.Fatalf("cross origin: %d", status)
	}
	resp, err := http.Post(executor+"/v1/session", "text/plain", strings.NewReader(`{"message":"hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 415 {
		t.Fatalf("text/plain POST: %d", resp.StatusCode)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(strings.TrimSuffix(executor, "/executor"), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = conn.Write([]byte("GET /%1b]2;pwned%07 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
	_, _ = bufio.NewReader(conn).ReadString('\n')
	conn.Close()
	// The log line may reach the pipe a moment after the answer; later
	// requests give it the time.
	for i := 0; i < 200 && !strings.Contains(stderr.String(), "pwned"); i++ {
		get(t, executor+"/v1/info", "", nil)
	}
	log := stderr.String()
	if strings.ContainsRune(log, 0x1b) || strings.ContainsRune(log, 0x07) || !strings.Contains(log, `/\x1b]2;pwned\x07`) {
		t.Fatalf("log: %q", log)
	}
}

var (
	mcpOnce sync.Once
	mcpPath string
	mcpErr  error
)

// stdioServer builds the test MCP server (internal/devserver/mcpconn/internal/stdioserver).
func stdioServer(t *testing.T) string {
	t.Helper()
	builtBinary(t) // skips in -short
	mcpOnce.Do(func() {
		mcpPath = filepath.Join(filepath.Dir(binPath), "stdioserver")
		if out, err := exec.Command("go", "build", "-o", mcpPath, "../../internal/devserver/mcpconn/internal/stdioserver").CombinedOutput(); err != nil {
			mcpErr, mcpPath = err, string(out)
		}
	})
	if mcpErr != nil {
		t.Fatalf("go build stdioserver: %v\n%s", mcpErr, mcpPath)
	}
	return mcpPath
}

// TestBinaryMCPMisbehaving: two silent --mcp servers cost the start-up one
// --mcp-start-timeout (in parallel), not two minutes each, and are reported
// as still starting, their tools absent meanwhile; a server logging on standard output is served, its tool requiring
// MCP tasks left out with a log line; a call during which it dies answers 502
// connection_failed, its tools stay listed and the next call restarts it.
func TestBinaryMCPMisbehaving(t *testing.T) {
	noisy := stdioServer(t)
	executor, stderr := startBinaryGuarded(t, 90*time.Second, nil,
		"--mcp-start-timeout", "2s", "--mcp", "quiet=sleep 600", "--mcp", "quiet2=sleep 600", "--mcp", "noisy="+noisy+" -raw -noisy")
	planner := strings.TrimSuffix(executor, "/executor") + "/planner"
	wants := []string{
		`mcp quiet: not ready within 2s (--mcp-start-timeout); it keeps starting, and its tools appear when it is ready`,
		`mcp quiet2: not ready within 2s (--mcp-start-timeout); it keeps starting, and its tools appear when it is ready`,
		`mcp noisy: skipped a line on standard output that is not JSON-RPC: stdioserver 1.0 listening on stdio`,
		`mcp noisy: tool "tasky" is left out: it requires MCP tasks`,
	}
	// The lines are written before "ready"; the pipe may bring them a
	// moment later.
	missing := func() []string {
		var out []string
		for _, w := range wants {
			if !strings.Contains(stderr.String(), w) {
				out = append(out, w)
			}
		}
		return out
	}
	for i := 0; i < 200 && len(missing()) > 0; i++ {
		get(t, executor+"/v1/info", "", nil)
	}
	log := stderr.String()
	for _, want := range missing() {
		t.Errorf("the log lacks %q:\n%s", want, log)
	}
	listing := func() string {
		status, body := get(t, planner+"/v1/tools", "", nil)
		if status != 200 {
			t.Fatalf("listing: %d %s", status, body)
		}
		return body
	}
	if l := listing(); !strings.Contains(l, `"noisy_echo"`) || strings.Contains(l, `"noisy_tasky"`) || strings.Contains(l, `"quiet_`) {
		t.Fatalf("listing: %s", l)
	}
	post := func(tool string) (int, string) {
		resp, err := http.Post(planner+"/v1/tools/"+tool, "application/json", strings.NewReader(`{"input":{"a":1}}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if status, body := post("noisy_echo"); status != 200 || !strings.Contains(body, `"isError":false`) {
		t.Fatalf("echo: %d %s", status, body)
	}
	if status, body := post("noisy_crash"); status != 502 || !strings.Contains(body, `"error":"connection_failed"`) {
		t.Fatalf("crash: %d %s", status, body)
	}
	if l := listing(); !strings.Contains(l, `"noisy_echo"`) {
		t.Fatalf("the tools went from the listing: %s", l)
	}
	if status, body := post("noisy_echo"); status != 200 || !strings.Contains(body, `"isError":false`) {
		t.Fatalf("echo after the death: %d %s\n%s", status, body, stderr.String())
	}
}

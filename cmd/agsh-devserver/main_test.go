package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestBadUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"unknown flag", []string{"--nope"}, 2, "agsh-devserver: unknown flag: --nope\nRun 'agsh-devserver --help' for usage.\n"},
		{"missing value", []string{"--addr"}, 2, "agsh-devserver: flag needs an argument: --addr\nRun 'agsh-devserver --help' for usage.\n"},
		{"argument", []string{"serve"}, 2, "agsh-devserver: unexpected argument \"serve\" (agsh-devserver takes only flags)\nRun 'agsh-devserver --help' for usage.\n"},
		{"bad mount", []string{"--mount", "data"}, 2, "agsh-devserver: --mount \"data\": expected /path=DIR\nRun 'agsh-devserver --help' for usage.\n"},
		{"relative mount", []string{"--mount", "data=" + dir}, 2, "agsh-devserver: --mount \"data=" + dir + "\": the mount path must start with /\nRun 'agsh-devserver --help' for usage.\n"},
		{"missing root", []string{"--root", filepath.Join(dir, "nope")}, 2, "agsh-devserver: --root: " + filepath.Join(dir, "nope") + ": no such file or directory\n"},
		{"empty token", []string{"--root", dir, "--bearer-token", ""}, 2, "agsh-devserver: devserver: a bearer token must be non-empty and have no surrounding spaces\n"},
		{"bad cp team", []string{"--cp-team", "42"}, 2, "agsh-devserver: --cp-team \"42\": expected ID=NAME or ID=NAME:AGENT,AGENT\nRun 'agsh-devserver --help' for usage.\n"},
		{"bad cp key", []string{"--cp-key", "cp-secret"}, 2, "agsh-devserver: --cp-key: expected KEY=TEAMID[,TEAMID…]\nRun 'agsh-devserver --help' for usage.\n"},
		{"cp key of no team", []string{"--root", dir, "--cp-team", "42=Acme", "--cp-key", "cp-secret=7"}, 2,
			"agsh-devserver: devserver: control plane: API key #1 names team \"7\", which no --cp-team defines\n"},
		{"cp team without key", []string{"--root", dir, "--cp-team", "42=Acme"}, 2,
			"agsh-devserver: devserver: control plane: no API key configured (--cp-key KEY=TEAMID)\n"},
		{"missing cp file", []string{"--control-plane", filepath.Join(dir, "cp.json")}, 2,
			"agsh-devserver: --control-plane: open " + filepath.Join(dir, "cp.json") + ": no such file or directory\nRun 'agsh-devserver --help' for usage.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tt.args, noEnv, &out, &errOut)
			if code != tt.code || errOut.String() != tt.err || out.Len() != 0 {
				t.Fatalf("exit %d, stdout %q, stderr\n%q\nwant exit %d, stderr\n%q", code, out.String(), errOut.String(), tt.code, tt.err)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{arg}, noEnv, &out, &errOut); code != 0 || out.String() != usage || errOut.Len() != 0 {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", arg, code, out.String(), errOut.String())
		}
	}
	for _, flag := range []string{"--addr", "--root", "--mount", "--bearer-token", "--allow-anonymous", "--mcp", "--mcp-start-timeout DURATION", "--echo-tools", "--state", "--clock-offset DURATION", "-h, --help",
		"--cp-team ID=NAME[:AGENT,AGENT…]", "--cp-key KEY=TEAMID[,TEAMID…]", "--control-plane FILE"} {
		if !strings.Contains(usage, flag) {
			t.Errorf("usage misses %s", flag)
		}
	}
}

func TestPortTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"--addr", ln.Addr().String(), "--root", t.TempDir()}, noEnv, &out, &errOut)
	if code != 1 || out.Len() != 0 || !strings.Contains(errOut.String(), "agsh-devserver: devserver: listen on "+ln.Addr().String()+": ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// readStartup reads the start-up lines and checks their exact shape.
func readStartup(t *testing.T, r io.Reader) (executor, planner string) {
	t.Helper()
	sc := bufio.NewScanner(r)
	var lines []string
	for len(lines) < 3 && sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) != 3 {
		t.Fatalf("start-up lines: %q (%v)", lines, sc.Err())
	}
	re := regexp.MustCompile(`^(executor|planner) (http://127\.0\.0\.1:\d+)/(executor|planner)$`)
	m1, m2 := re.FindStringSubmatch(lines[0]), re.FindStringSubmatch(lines[1])
	if m1 == nil || m2 == nil || m1[1] != "executor" || m1[3] != "executor" || m2[1] != "planner" ||
		m2[3] != "planner" || m1[2] != m2[2] || lines[2] != "ready" {
		t.Fatalf("start-up lines: %q", lines)
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	return strings.TrimPrefix(lines[0], "executor "), strings.TrimPrefix(lines[1], "planner ")
}

func TestRunInProcess(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--root", t.TempDir()}, noEnv, pw, &errOut)
		pw.Close()
	}()
	executor, _ := readStartup(t, pr)
	resp, err := http.Get(executor + "/v1/info")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(string(body), `{"ok":true,"name":"change-monitor-executor","description":"Executes monitoring plans against changed code.","tools":[{"name":"read"`) {
		t.Fatalf("info: %s", body)
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

func TestBinaryStartsAndStopsOnSIGTERM(t *testing.T) {
	bin := builtBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--root", t.TempDir())
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = cmd.Process.Kill() }()
			executor, planner := readStartup(t, stdout)
			for _, u := range []string{executor + "/v1/tools", planner + "/v1/tools"} {
				resp, err := http.Get(u)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Fatalf("%s: %d", u, resp.StatusCode)
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			select {
			case err := <-waited:
				if err != nil {
					t.Fatalf("exit after %v: %v\n%s", sig, err, stderr.String())
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("no exit after %v", sig)
			}
		})
	}
}

// --clock-offset takes a Go duration within a day of the real clock.
func TestClockOffsetFlag(t *testing.T) {
	noEnv := func(string) string { return "" }
	o, err := parseFlags([]string{"--clock-offset", "-15m"}, noEnv)
	if err != nil || o.ClockOffset != -15*time.Minute {
		t.Fatalf("--clock-offset -15m: %v, %v", o.ClockOffset, err)
	}
	for _, bad := range []string{"25h", "-25h", "soon"} {
		if _, err := parseFlags([]string{"--clock-offset", bad}, noEnv); err == nil {
			t.Errorf("--clock-offset %s was accepted", bad)
		}
	}
}

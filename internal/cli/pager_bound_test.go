package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/pager"
)

// treeRSS is the resident set of pid and all its descendants, in bytes.
func treeRSS(pid int) int64 {
	total := procRSS(pid)
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, c := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(c); err == nil {
				total += treeRSS(n)
			}
		}
	}
	return total
}

// onPty runs the built agsh with args on a pseudo-terminal (util-linux
// script) with env, polling the peak resident set of the whole process
// tree (script, agsh, the pager); a watchdog kills the tree past 1.5 GiB.
func onPty(t *testing.T, env []string, args ...string) (out string, exit int, peak int64) {
	t.Helper()
	if _, err := exec.LookPath("script"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("script (util-linux) is required in CI")
		}
		t.Skip("script not installed")
	}
	line := "stty rows 24 cols 80; " + builtAgsh(t)
	for _, a := range args {
		line += " " + shellQuote(a)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang detector
	defer cancel()
	cmd := exec.CommandContext(ctx, "script", "-qec", line+"; echo \"[exit $?]\"", "/dev/null")
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TERM=xterm-256color", "NO_COLOR=1",
		"HTTP_PROXY=", "HTTPS_PROXY="}, env...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var max atomic.Int64
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				rss := treeRSS(cmd.Process.Pid)
				if rss > max.Load() {
					max.Store(rss)
				}
				if rss > killRSS {
					cmd.Process.Kill()
				}
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	out = strings.ReplaceAll(buf.String(), "\r\n", "\n")
	exit = -1
	if i := strings.LastIndex(out, "[exit "); i >= 0 {
		fmt.Sscanf(out[i:], "[exit %d]", &exit)
	}
	if err != nil && exit < 0 {
		t.Logf("script: %v", err)
	}
	return out, exit, max.Load()
}

// TestPagerBounded: a one-line answer streamed without end, through a
// pager that reads a little and exits: agsh stops reading the answer (the
// deployment sees it hang up), exits 0 with nothing more on the terminal,
// and the whole process tree stays far under 1 GiB. A line of 1 MiB + 1
// byte reaches the pager cut at 1 MiB, with the note after it; piped, the
// same answer is whole.
func TestPagerBounded(t *testing.T) {
	var hungUp atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mode, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		switch {
		case rest == "v1/sessions":
			answer(w, `{"ok":true,"sessions":[]}`)
		case rest == "v1/info":
			answer(w, `{"ok":true,"name":"pager","tools":[]}`)
		case rest == "v1/tools" && r.Method == http.MethodGet:
			answer(w, `{"ok":true,"tools":[{"name":"echo"}]}`)
		case r.Method == http.MethodGet:
			answer(w, `{"ok":true,"tool":{"name":"echo","inputSchema":{"type":"object"}}}`)
		case mode == "endless":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true,"isError":false,"result":"`)
			chunk := bytes.Repeat([]byte("a"), 1<<20)
			for n := 0; n < 8<<10; n++ { // 8 GiB at most: the client should go long before
				if _, err := w.Write(chunk); err != nil {
					hungUp.Add(1)
					return
				}
			}
		case mode == "bound":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true,"isError":false,"result":"`+strings.Repeat("b", pager.MaxLine+1)+`\nend\n"}`)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	quick := filepath.Join(dir, "quick")
	os.WriteFile(quick, []byte("#!/bin/sh\nhead -c 65536 >/dev/null\n"), 0o755)
	got := filepath.Join(dir, "got")
	keep := filepath.Join(dir, "keep")
	os.WriteFile(keep, []byte("#!/bin/sh\ncat > '"+got+"'\n"), 0o755)

	start := time.Now()
	out, exit, peak := onPty(t, []string{"AGENT_SHELL_TARGET=" + srv.URL + "/endless", "PAGER=" + quick}, "echo")
	t.Logf("endless line, a pager that quits: exit %d, tree peak %d MiB, %s", exit, peak>>20, time.Since(start).Round(10*time.Millisecond))
	if exit != 0 || peak >= rssBound || strings.Contains(out, "agsh:") {
		t.Errorf("exit %d, tree peak %d MiB; terminal:\n%.2000q", exit, peak>>20, out)
	}
	for deadline := time.Now().Add(10 * time.Second); hungUp.Load() == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
	}
	if hungUp.Load() == 0 {
		t.Error("agsh kept reading the answer after the pager exited")
	}

	out, exit, peak = onPty(t, []string{"AGENT_SHELL_TARGET=" + srv.URL + "/bound", "PAGER=" + keep}, "echo")
	b, _ := os.ReadFile(got)
	if want := strings.Repeat("b", pager.MaxLine) + "\nend\n"; exit != 0 || string(b) != want {
		t.Errorf("exit %d; the pager got %d bytes, want %d", exit, len(b), len(want))
	}
	if !strings.Contains(out, strings.TrimSuffix(pager.CutNote, "\n")) {
		t.Errorf("no note of the cut line:\n%q", out)
	}
	t.Logf("a line of 1 MiB + 1: tree peak %d MiB", peak>>20)
	piped := exec.Command(builtAgsh(t), "echo")
	piped.Env = []string{"AGENT_SHELL_TARGET=" + srv.URL + "/bound", "PAGER=" + keep, "HTTP_PROXY="}
	if whole, err := piped.Output(); err != nil || len(whole) != pager.MaxLine+1+len("\nend\n") {
		t.Errorf("piped: %v, %d bytes", err, len(whole))
	}
}

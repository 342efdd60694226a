package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPager: a one-shot command taller than the screen goes through the
// pager; notes and the session line come after it exits; short output,
// AGSH_PAGER=, PAGER=cat and a pipe never page.
func TestPager(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	srv, _ := startRepoDeployment(t, map[string]string{"long.txt": long.String(), "short.txt": "one\ntwo\n"})
	target := srv.AgentURL("executor")
	fake := filepath.Join(t.TempDir(), "fakepager")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho '[pager start]'\ncat\necho '[pager end]'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	paged := func(out string) bool { return strings.Contains(out, "[pager start]") }

	out := onTerminalSized(t, "10 80", []string{"PAGER=" + fake}, "--target", target, "read", "/repo/long.txt", "--limit", "30")
	out = strings.ReplaceAll(out, "\r\n", "\n")
	start, end := strings.Index(out, "[pager start]"), strings.Index(out, "[pager end]")
	notice, session := strings.Index(out, "[11 more lines in file"), strings.Index(out, "→ no session")
	if start < 0 || end < start || !strings.Contains(out[start:end], "line 30") || notice < end || session < notice {
		t.Errorf("tall output: want the pager, then the notice, then the session line:\n%s", out)
	}
	for _, tc := range []struct {
		name string
		env  []string
		file string
	}{
		{"short output", []string{"PAGER=" + fake}, "/repo/short.txt"},
		{"AGSH_PAGER empty", []string{"PAGER=" + fake, "AGSH_PAGER="}, "/repo/long.txt"},
		{"PAGER=cat", []string{"PAGER=cat"}, "/repo/long.txt"},
	} {
		out := onTerminalSized(t, "10 80", tc.env, "--target", target, "read", tc.file)
		if paged(out) || !strings.Contains(out, "two") && !strings.Contains(out, "line 40") {
			t.Errorf("%s: paged or lost:\n%s", tc.name, out)
		}
	}
	if out := onTerminalSized(t, "10 80", []string{"AGSH_PAGER=" + fake}, "--target", target, "read", "/repo/long.txt"); !paged(out) {
		t.Errorf("AGSH_PAGER is not used:\n%s", out)
	}
	cmd := agshCommand("--target", target, "read", "/repo/long.txt")
	cmd.Env = append(cmd.Env, "PAGER="+fake)
	if piped, err := cmd.Output(); err != nil || paged(string(piped)) || !strings.Contains(string(piped), "line 40") {
		t.Errorf("piped: %v %q", err, piped)
	}
}

// The same in a real terminal (tmux): the fake pager gets the output, and
// the notice and the session line follow once it exits.
func TestPagerInTmux(t *testing.T) {
	requireTmux(t)
	var long strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	srv, _ := startRepoDeployment(t, map[string]string{"long.txt": long.String()})
	fake := filepath.Join(t.TempDir(), "fakepager")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho '[pager start]'\ncat >/dev/null\necho '[pager end]'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := startTmux(t, []string{"AGSH_TEST_AS_AGSH=1", "NO_COLOR=1", "TERM=xterm-256color", "PAGER=" + fake},
		"--target", srv.AgentURL("executor"), "read", "/repo/long.txt", "--limit", "50")
	scr := s.waitFor("[exited 0]")
	want := "[pager start]\n[pager end]\n[11 more lines in file. Use --offset 51 to continue.]\n→ no session (ephemeral workspace)\n[exited 0]"
	if !strings.Contains(scr, want) {
		t.Errorf("screen:\n%s\nwant:\n%s", scr, want)
	}
}

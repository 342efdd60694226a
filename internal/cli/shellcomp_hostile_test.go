package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hostileNames are names a deployment may send that no completion may
// offer: controls (OSC 0 retitles, OSC 52 writes the clipboard), C1, bidi
// and zero-width characters, a tab (fish's description separator).
var hostileNames = []string{
	"evil\x1b]0;PWNED\x07tool", "evclip\x1b]52;c;aGk=\x07tool", "evc1\u009b2Jtool", "evrlo\u202etool",
	"evzw\u200btool", "evtab\tls",
}

// hostileCompletion is a deployment in front of a real one: its listing
// gains the hostile names, a tool with hostile enum values and one whose
// name has a !, and `ls /repo/huge` answers a listing past completion's
// bound, streamed until the client hangs up.
type hostileCompletion struct {
	*httptest.Server
	hungUp atomic.Int64
}

// hugeChunk is 1 MiB of listing rows, made once.
var (
	hugeChunk []byte
	hugeOnce  sync.Once
)

func newHostileCompletion(t *testing.T, upstream string) *hostileCompletion {
	t.Helper()
	up, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(up) }}
	enum := []string{"a$(touch PWNED)b", "xh!!y", "xs'", `dq"q`, "No Data", "clip\x1b]52;c;aGk=\x07", "tab\tvalue", "bidi\u202eval"}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"state": map[string]any{"type": "string", "enum": enum, "description": "state \x1b]0;PWNED\x07 \u202e"}}})
	h := &hostileCompletion{}
	hugeOnce.Do(func() {
		var chunk bytes.Buffer
		for i := 0; chunk.Len() < 1<<20; i++ {
			fmt.Fprintf(&chunk, `  - f%07d.txt\n`, i)
		}
		hugeChunk = chunk.Bytes()
	})
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimPrefix(r.URL.Path, "/executor")
		switch {
		case r.Method == http.MethodGet && p == "/v1/tools":
			rec := httptest.NewRecorder()
			proxy.ServeHTTP(rec, r)
			var listing struct {
				OK    bool             `json:"ok"`
				Tools []map[string]any `json:"tools"`
			}
			json.Unmarshal(rec.Body.Bytes(), &listing)
			conn := map[string]any{"kind": "connection", "connection": "evil"}
			for _, n := range append(hostileNames, "hist!!tool", "mon_hostile") {
				listing.Tools = append(listing.Tools, map[string]any{"name": n, "title": "T \x1b]0;PWNED\x07 \u202e", "source": conn})
			}
			answer(w, mustJSON(listing))
		case r.Method == http.MethodGet && strings.HasPrefix(p, "/v1/tools/") && !strings.HasSuffix(p, "/ls") && !strings.HasSuffix(p, "/read"):
			name, _ := url.PathUnescape(strings.TrimPrefix(p, "/v1/tools/"))
			answer(w, mustJSON(map[string]any{"ok": true, "tool": map[string]any{"name": name,
				"source": map[string]any{"kind": "connection", "connection": "evil"}, "inputSchema": json.RawMessage(schema)}}))
		case r.Method == http.MethodPost && p == "/v1/tools/ls":
			body, _ := io.ReadAll(r.Body)
			if !bytes.Contains(body, []byte("/repo/huge")) {
				r.Body = io.NopCloser(bytes.NewReader(body))
				r.ContentLength = int64(len(body))
				proxy.ServeHTTP(w, r)
				return
			}
			// 8 MiB of names (twice the bound), then more until the
			// client goes.
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true,"isError":false,"result":"- /repo/huge/\n`)
			for n := 0; ; n++ {
				if _, err := w.Write(hugeChunk); err != nil || r.Context().Err() != nil {
					h.hungUp.Add(1)
					return
				}
				if n > 1<<10 { // 1 GiB: the client should have gone long before
					return
				}
			}
		default:
			proxy.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(h.Close)
	return h
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// hostileFiles are the workspace's file names: some need quoting, some no
// completion may offer.
var hostileFiles = map[string]string{
	"b!ang.txt": "x", "it's.txt": "x", "xh!": "x", `dq"q.txt`: "x", "plain.txt": "x",
	"esc\x1b]0;PWNED\x07.txt": "x", "rlo\u202etxt.exe": "x", "nl\nname.txt": "x", "zw\u200b.txt": "x",
}

// echoAgsh writes an agsh for the shells' PATH: the hidden completion
// options run agsh (this test binary), anything else prints the words it
// was given, so pressing Enter shows what the shell made of the line.
func echoAgsh(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	os.Mkdir(bin, 0o755)
	script := fmt.Sprintf(`#!/bin/sh
case "$1" in
--__complete|--__complete-refresh|--completion) AGSH_TEST_AS_AGSH=1 exec '%s' "$@" ;;
esac
printf '<%%s>' "$@"; echo
`, os.Args[0])
	if err := os.WriteFile(filepath.Join(bin, "agsh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// hostileShellCase is a line typed, Tab pressed, then Enter: the words agsh
// is given.
type hostileShellCase struct {
	typed string
	words string // what the echoing agsh prints
}

// rawFromCompletion finds what only the deployment's names could have put
// on the terminal.
var rawFromCompletion = regexp.MustCompile("\x1b\\]0;PWNED|\x1b\\]52;|\u009b|\u202e|\u200b|PWNED\a")

// TestShellsHostileCatalog drives real bash (and zsh and fish where they
// are installed) on a terminal (tmux) against a hostile catalog: Tab never
// puts a control, bidi or zero-width character on the terminal or the line,
// a ! survives history expansion, every quote a candidate opens is closed
// (no continuation prompt), and nothing a candidate holds runs.
func TestShellsHostileCatalog(t *testing.T) {
	requireTmux(t)
	srv, _ := startRepoDeployment(t, hostileFiles)
	h := newHostileCompletion(t, srv.URL())
	bin := echoAgsh(t)
	home := t.TempDir()
	env := []string{"AGENT_SHELL_TARGET=" + h.URL + "/executor", "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"HOME=" + home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "TERM=xterm-256color", "NO_COLOR=1"}
	refresh := agshCommand("--__complete-refresh")
	refresh.Env = append(refresh.Env, env...)
	if out, err := refresh.CombinedOutput(); err != nil {
		t.Fatalf("refresh: %v %s", err, out)
	}
	cases := []hostileShellCase{
		{"agsh hist", "<hist!!tool>"},
		{"agsh ev", "<ev>"},
		{"agsh mon_hostile --state a", "<mon_hostile><--state><a$(touch PWNED)b>"},
		{`agsh mon_hostile --state "xh`, "<mon_hostile><--state><xh!!y>"},
		{`agsh mon_hostile --state 'xs`, "<mon_hostile><--state><xs'>"},
		{`agsh mon_hostile --state "dq`, `<mon_hostile><--state><dq"q>`},
		{"agsh mon_hostile --state cl", "<mon_hostile><--state><cl>"},
		{"agsh read /repo/b", "<read></repo/b!ang.txt>"},
		{`agsh read "/repo/xh`, "<read></repo/xh!>"},
		{`agsh read '/repo/it`, "<read></repo/it's.txt>"},
		{"agsh read /repo/es", "<read></repo/es>"},
	}
	shells := []struct {
		name  string
		start string
		setup string
	}{
		{"bash", "bash --norc --noprofile -i", `PS1='$ ' PS2='CO''NT> '; source <(agsh --completion bash)`},
		{"zsh", "zsh -f -i", `PS1='$ ' PS2='CO''NT> '; autoload -Uz compinit && compinit -u -d "$HOME/zcd" && source <(agsh --completion zsh)`},
		{"fish", "fish --no-config -i", `function fish_prompt; echo '$ '; end; agsh --completion fish | source`},
	}
	for _, sh := range shells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel() // each shell has a terminal of its own
			if _, err := exec.LookPath(sh.name); err != nil {
				if sh.name == "bash" && os.Getenv("CI") != "" {
					t.Fatal("bash is required")
				}
				t.Skipf("%s is not installed", sh.name)
			}
			work := t.TempDir()
			s, raw := startShellTmux(t, sh.name, work, env, sh.start)
			s.keys(sh.setup, "Enter")
			s.keys("agsh ready", "Enter")
			s.waitFor("<ready>")
			for _, c := range cases {
				s.keys("-l", c.typed)
				s.keys("Tab")
				// Tab's answer is a process of its own: wait for the screen
				// to settle before accepting the line.
				s.settle()
				s.keys("Enter")
				scr := s.waitUntil(fmt.Sprintf("%q after %q", c.words, c.typed), func(scr string) bool {
					return strings.Contains(scr, c.words) || strings.Contains(scr, "CONT>")
				})
				if !strings.Contains(scr, c.words) {
					t.Errorf("%q: a quote was left open (continuation prompt):\n%s", c.typed, scr)
					s.keys("C-c")
				}
				s.settle()
				s.keys("clear", "Enter")
				s.settle()
			}
			// (The prompt of a continued line is CONT>, spelled apart in
			// the setup line so that its echo does not show it.)
			s.keys("exit", "Enter")
			out := readPane(t, raw)
			if found := rawFromCompletion.FindString(out); found != "" {
				i := strings.Index(out, found)
				t.Errorf("raw %q reached the terminal: …%q…", found, out[max(0, i-200):min(len(out), i+100)])
			}
			if _, err := os.Stat(filepath.Join(work, "PWNED")); err == nil {
				t.Error("a candidate's $(…) ran")
			}
		})
	}
}

// settle waits until the screen stays the same for a moment (a hang
// detector bounds it, not a timing assertion).
func (s *tmuxSession) settle() {
	s.t.Helper()
	prev, same := "", 0
	for deadline := time.Now().Add(tmuxDeadline); time.Now().Before(deadline) && same < 3; time.Sleep(100 * time.Millisecond) {
		scr := s.screen()
		if scr == prev {
			same++
		} else {
			prev, same = scr, 0
		}
	}
}

// startShellTmux starts cmd in tmux in dir with env, every byte of the pane
// copied to the file answered.
func startShellTmux(t *testing.T, name, dir string, env []string, cmd string) (*tmuxSession, string) {
	t.Helper()
	s := &tmuxSession{t: t, name: name, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	raw := filepath.Join(t.TempDir(), "pane.raw")
	var line strings.Builder
	fmt.Fprintf(&line, "cd %s && env -i", strconv.Quote(dir))
	for _, e := range env {
		fmt.Fprintf(&line, " %s", strconv.Quote(e))
	}
	line.WriteString(" " + cmd)
	s.tmux("new-session", "-d", "-s", name, "-x", "200", "-y", "50", line.String())
	t.Cleanup(func() { exec.Command("tmux", "-S", s.sock, "kill-server").Run() })
	s.tmux("pipe-pane", "-o", "-t", name, "cat >> "+raw)
	return s, raw
}

func readPane(t *testing.T, raw string) string {
	t.Helper()
	// pipe-pane writes asynchronously: wait for the file to stop growing.
	var prev int64 = -1
	for deadline := time.Now().Add(tmuxDeadline); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		st, err := os.Stat(raw)
		if err == nil && st.Size() == prev {
			break
		}
		if err == nil {
			prev = st.Size()
		}
	}
	b, _ := os.ReadFile(raw)
	return string(b)
}

// TestCompletePathsBounded: a directory's ls past completion's bound is
// read up to it and given up (the deployment sees the client go), the Tab
// writes at most MaxCandidates, in bounded memory; a name with a line
// break skips that name, not the directory.
func TestCompletePathsBounded(t *testing.T) {
	srv, _ := startRepoDeployment(t, hostileFiles)
	h := newHostileCompletion(t, srv.URL())
	// runHostile's principal: its token.
	env := []string{"AGENT_SHELL_TARGET=" + h.URL + "/executor", "XDG_CACHE_HOME=" + t.TempDir(), "AGENT_SHELL_BEARER_TOKEN=" + hostileToken}
	refresh := agshCommand("--__complete-refresh")
	refresh.Env = append(refresh.Env, env...)
	if out, err := refresh.CombinedOutput(); err != nil {
		t.Fatalf("refresh: %v %s", err, out)
	}
	r := runHostile(t, env, false, time.Minute, "--__complete", "bash", "--", "agsh ls /repo/huge/", "/repo/huge/")
	if n := strings.Count(r.stdout, "\n"); r.exit != 0 || n == 0 || n > 1000 || r.maxRSS >= 256<<20 {
		t.Errorf("huge directory: exit %d, %d candidates, peak RSS %d MiB", r.exit, n, r.maxRSS>>20)
	}
	for deadline := time.Now().Add(10 * time.Second); h.hungUp.Load() == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
	}
	if h.hungUp.Load() == 0 {
		t.Error("the listing was not given up past the bound")
	}
	r = runHostile(t, env, false, time.Minute, "--__complete", "bash", "--", "agsh read /repo/", "/repo/")
	got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	want := []string{`/repo/b\!ang.txt`, `/repo/dq\"q.txt`, `/repo/it\'s.txt`, "/repo/plain.txt", `/repo/xh\!`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the workspace's names: %q, want %q", got, want)
	}
}

// TestCompletionCacheBounded: a listing past the cache's bound in tools is
// not stored (the old entry answers), and a tool detail one byte past
// completion's answer bound is not fetched whole: the Tab offers agsh's
// own options, stores nothing for the tool and stays small. Nothing is
// written to the terminal.
func TestCompletionCacheBounded(t *testing.T) {
	var big atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := strings.TrimPrefix(r.URL.Path, "/agent"); {
		case p == "/v1/info":
			answer(w, `{"ok":true,"name":"big","tools":[]}`)
		case p == "/v1/tools" && big.Load():
			var b strings.Builder
			b.WriteString(`{"ok":true,"tools":[`)
			for i := 0; i <= 20000; i++ { // one past the bound
				if i > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"name":"t%d"}`, i)
			}
			b.WriteString(`]}`)
			answer(w, b.String())
		case p == "/v1/tools":
			answer(w, `{"ok":true,"tools":[{"name":"huge_tool","source":{"kind":"connection","connection":"c"}}]}`)
		case strings.HasPrefix(p, "/v1/tools/"):
			// A detail one byte past 4 MiB, most of it a description.
			head := `{"ok":true,"tool":{"name":"huge_tool","inputSchema":{"type":"object","properties":{"x":{"type":"string","enum":["a"]}}},"description":"`
			tail := `"}}`
			answer(w, head+strings.Repeat("d", 4<<20+1-len(head)-len(tail))+tail)
		}
	}))
	defer srv.Close()
	cache := t.TempDir()
	env := []string{"AGENT_SHELL_TARGET=" + srv.URL + "/agent", "XDG_CACHE_HOME=" + cache}
	r := runHostile(t, env, false, time.Minute, "--__complete-refresh")
	if r.exit != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("refresh: exit %d, %q %q", r.exit, r.stdout, r.stderr)
	}
	r = runHostile(t, env, false, time.Minute, "--__complete", "bash", "--", "agsh huge_tool --x ", "")
	if r.exit != 0 || r.stdout != "" || r.stderr != "" || r.maxRSS >= 256<<20 {
		t.Errorf("a detail past the bound: exit %d, %q %q, peak RSS %d MiB", r.exit, r.stdout, r.stderr, r.maxRSS>>20)
	}
	if cmds, _ := filepath.Glob(filepath.Join(cache, "agsh", "*.cmd")); len(cmds) != 0 {
		t.Errorf("completion data stored for a detail past the bound: %q", cmds)
	}
	big.Store(true)
	r = runHostile(t, env, false, time.Minute, "--__complete-refresh")
	if r.exit != 0 || r.stderr != "" || r.maxRSS >= 256<<20 {
		t.Errorf("20,001 tools: exit %d, %q, peak RSS %d MiB", r.exit, r.stderr, r.maxRSS>>20)
	}
	r = runHostile(t, env, false, time.Minute, "--__complete", "bash", "--", "agsh huge", "huge")
	if r.stdout != "huge_tool\n" {
		t.Errorf("the old entry does not answer: %q", r.stdout)
	}
}

package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
)

// agshOnPath writes an `agsh` that runs this test binary as agsh into a new
// directory and answers the directory.
func agshOnPath(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := fmt.Sprintf("#!/bin/sh\nAGSH_TEST_AS_AGSH=1 exec '%s' \"$@\"\n", os.Args[0])
	if err := os.WriteFile(filepath.Join(bin, "agsh"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// compCase is one Tab press: COMP_WORDS (the last being completed) and the
// line before the cursor.
type compCase struct {
	line  string
	words []string
	want  []string // COMPREPLY exactly
	typed string   // what the single candidate reads back as a bash word ("" to skip)
	// kept is the start of the word readline keeps when a quote is open in
	// it (up to the quote), closed by the quote it appends after the single
	// candidate.
	kept, close string
}

// bashComplete loads `agsh --completion bash` into a real bash, checks
// `complete -p agsh`, and presses Tab for each case by calling the
// registered function with COMP_* set as bash's readline would.
func bashComplete(t *testing.T, bin string, env []string, cases []compCase) []string {
	t.Helper()
	var script strings.Builder
	script.WriteString("set -u\nsource <(agsh --completion bash) || exit 9\ncomplete -p agsh\n")
	for _, c := range cases {
		var words []string
		for _, w := range c.words {
			words = append(words, shellQuote(w))
		}
		fmt.Fprintf(&script, "COMP_LINE=%s; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(%s); COMP_CWORD=%d\n",
			shellQuote(c.line), strings.Join(words, " "), len(c.words)-1)
		script.WriteString("COMPREPLY=(); $(complete -p agsh | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p') agsh\n")
		script.WriteString("printf '%s\\x1f' \"${COMPREPLY[@]}\"; printf '\\x1e'\n")
		fmt.Fprintf(&script, "if [ ${#COMPREPLY[@]} -eq 1 ]; then eval \"set -- %s${COMPREPLY[0]}%s\"; printf '%%s' \"$1\"; fi; printf '\\x1e\\n'\n",
			strings.ReplaceAll(c.kept, `"`, `\"`), strings.ReplaceAll(c.close, `"`, `\"`))
	}
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", script.String())
	cmd.Env = append(os.Environ(), append([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, env...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("bash: %v\n%s\n%s", err, out.String(), errb.String())
	}
	lines := strings.SplitN(out.String(), "\n", 2)
	if lines[0] != "complete -F _agsh_complete agsh" {
		t.Errorf("complete -p agsh = %q", lines[0])
	}
	var answers []string
	for i, rec := range strings.Split(strings.TrimSuffix(lines[1], "\n"), "\n") {
		if i >= len(cases) {
			break
		}
		parts := strings.Split(rec, "\x1e")
		got := strings.Split(strings.TrimSuffix(parts[0], "\x1f"), "\x1f")
		if parts[0] == "" {
			got = nil
		}
		answers = append(answers, strings.Join(got, "|"))
		c := cases[i]
		if c.want != nil && strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: COMPREPLY %q, want %q", c.line, got, c.want)
		}
		if c.typed != "" && (len(parts) < 2 || parts[1] != c.typed) {
			t.Errorf("%q: the candidate reads back as %q, want %q", c.line, parts[1], c.typed)
		}
	}
	return answers
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestBashCompletion drives real bash: the script registers with complete,
// the first Tab (cold cache) answers agsh's options only and starts the
// detached refresh, then tools, flags, enum values (quoted for bash) and
// remote paths complete; the cache file is 0600 and holds no credential.
func TestBashCompletion(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("bash is required")
		}
		t.Skip("bash is not installed")
	}
	srv, _ := startRepoDeployment(t, map[string]string{"my notes.txt": "x\n", "sub/a.txt": "a\n", "README.md": "# r\n"})
	bin := agshOnPath(t)
	cache := t.TempDir()
	const secret = "s3cret-bearer-value"
	env := []string{"XDG_CACHE_HOME=" + cache, "AGENT_SHELL_TARGET=" + srv.AgentURL("executor"), "AGENT_SHELL_BEARER_TOKEN=" + secret}

	cold := bashComplete(t, bin, env, []compCase{
		{line: "agsh datadog_l", words: []string{"agsh", "datadog_l"}},
		{line: "agsh --out", words: []string{"agsh", "--out"}, want: []string{"--output"}},
	})
	if cold[0] != "" && cold[0] != "datadog_list_monitors" {
		t.Errorf("cold cache answered %q", cold[0])
	}
	// The detached refresh fills the cache; the shell did not wait for it.
	var files []string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		files, _ = filepath.Glob(filepath.Join(cache, "agsh", "catalog-*.tools"))
		if len(files) > 0 {
			break
		}
	}
	if len(files) != 1 {
		t.Fatalf("the refresh wrote %d cache files", len(files))
	}
	st, err := os.Stat(files[0])
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("cache file mode %v (%v)", st.Mode(), err)
	}
	b, _ := os.ReadFile(files[0])
	if bytes.Contains(b, []byte(secret)) || strings.Contains(files[0], secret) {
		t.Error("the cache holds the credential")
	}

	bashComplete(t, bin, env, []compCase{
		{line: "agsh datadog_l", words: []string{"agsh", "datadog_l"}, want: []string{"datadog_list_monitors"}},
		{line: "agsh datadog_list_monitors --st", words: []string{"agsh", "datadog_list_monitors", "--st"}, want: []string{"--status"}},
		{line: "agsh datadog_list_monitors --status No", words: []string{"agsh", "datadog_list_monitors", "--status", "No"},
			want: []string{`No\ Data`}, typed: "No Data"},
		{line: "agsh datadog_list_monitors --status=No", words: []string{"agsh", "datadog_list_monitors", "--status", "=", "No"},
			want: []string{`No\ Data`}, typed: "No Data"},
		{line: "agsh read /repo/my", words: []string{"agsh", "read", "/repo/my"}, want: []string{`/repo/my\ notes.txt`}, typed: "/repo/my notes.txt"},
		{line: "agsh ls /repo/s", words: []string{"agsh", "ls", "/repo/s"}, want: []string{"/repo/sub/"}},
		// A quote left open: readline replaces what follows it and closes it.
		{line: `agsh read "/repo/my`, words: []string{"agsh", "read", `"/repo/my`}, want: []string{"/repo/my notes.txt"},
			kept: `"`, close: `"`, typed: "/repo/my notes.txt"},
		{line: `agsh read /repo/'my`, words: []string{"agsh", "read", `/repo/'my`}, want: []string{"my notes.txt"},
			kept: `/repo/'`, close: `'`, typed: "/repo/my notes.txt"},
		{line: `agsh datadog_list_monitors --status "No`, words: []string{"agsh", "datadog_list_monitors", "--status", `"No`},
			want: []string{"No Data"}, kept: `"`, close: `"`, typed: "No Data"},
		{line: "agsh --output j", words: []string{"agsh", "--output", "j"}, want: []string{"json"}},
	})

	// Only completion reads the cache: a tool it names that the deployment
	// does not have is offered by Tab, never listed by help.
	// (The listing's file is one line a tool: name, title, kind,
	// connection, connector.)
	if !bytes.HasSuffix(b, []byte("\n")) {
		t.Fatalf("the listing's file does not end a line: %q", b)
	}
	b = append(b, "ghost_tool\t\tagent\t\t\n"...)
	if err := os.WriteFile(files[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	bashComplete(t, bin, env, []compCase{{line: "agsh ghost", words: []string{"agsh", "ghost"}, want: []string{"ghost_tool"}}})
	help := agshCommand("help")
	help.Env = append(help.Env, env...)
	if out, err := help.CombinedOutput(); err != nil || !strings.Contains(string(out), "datadog_list_monitors") || strings.Contains(string(out), "ghost_tool") {
		t.Errorf("agsh help (%v):\n%s", err, out)
	}

	// A caller that sets only COMP_WORDS and COMP_CWORD (no COMP_LINE), and
	// compgen -F (no COMP_* at all: the word is taken as the first).
	script := `set -u; source <(agsh --completion bash) || exit 9
COMP_WORDS=(agsh datadog_list_monitors --status = No); COMP_CWORD=4; _agsh_complete agsh No =; printf '%s\n' "${COMPREPLY[@]}"
COMP_WORDS=(agsh read /repo/my); COMP_CWORD=2; _agsh_complete agsh /repo/my read; printf '%s\n' "${COMPREPLY[@]}"
unset COMP_WORDS COMP_CWORD; compgen -F _agsh_complete datadog_l 2>/dev/null
`
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", script)
	cmd.Env = append(os.Environ(), append([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, env...)...)
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "No\\ Data\n/repo/my\\ notes.txt\ndatadog_list_monitors\n" {
		t.Errorf("COMP_WORDS only / compgen -F (%v):\n%s", err, out)
	}

	// Another principal has its own entry: the tools of one are never
	// offered for another.
	other := append(env[:len(env):len(env)], "AGENT_SHELL_BEARER_TOKEN=another")
	bashComplete(t, bin, other, []compCase{{line: "agsh datadog_l", words: []string{"agsh", "datadog_l"}, want: []string{}}})
}

// TestOtherShells completes with real zsh and fish where they are installed
// (they are optional: CI installs neither). zsh runs the script's function
// with words and CURRENT set as its completion system would, compadd
// recording what it is given; fish answers `complete -C`, which inserts each
// candidate escaped by fish's own rules.
func TestOtherShells(t *testing.T) {
	srv, _ := startRepoDeployment(t, map[string]string{"my notes.txt": "x\n", "sub/a.txt": "a\n"})
	bin := agshOnPath(t)
	cache := t.TempDir()
	env := []string{"XDG_CACHE_HOME=" + cache, "AGENT_SHELL_TARGET=" + srv.AgentURL("executor"), "NO_COLOR=1",
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	refresh := agshCommand("--__complete-refresh")
	refresh.Env = append(refresh.Env, env...)
	if out, err := refresh.CombinedOutput(); err != nil {
		t.Fatalf("refresh: %v %s", err, out)
	}
	for _, sh := range []struct{ name, script, want string }{
		{"zsh", `autoload -Uz compinit && compinit -u -d "$HOME/zcd" && source <(agsh --completion zsh) || exit 9
print -r -- ${_comps[agsh]}
compadd() { local a=("$@") i; for ((i = 1; i < $#a; i++)); do [[ $a[i] == -d ]] && a[i+1]="${(j:,:)${(P)a[i+1]}}"; done; print -r -- "compadd ${(j:|:)a}" }
words=(agsh datadog_l); CURRENT=2; _agsh_complete
words=(agsh datadog_list_monitors --status '"No'); CURRENT=4; _agsh_complete
words=(agsh read /repo/my); CURRENT=3; _agsh_complete
words=(agsh ls /repo/s); CURRENT=3; _agsh_complete
`, `_agsh_complete
compadd -l|-d|datadog_list_monitors  -- List monitors|--|datadog_list_monitors
compadd -d|No Data|--|No Data
compadd -d|/repo/my notes.txt|--|/repo/my notes.txt
compadd -S||-d|/repo/sub/|--|/repo/sub/
`},
		// Installed as _agsh in a directory of $fpath (as the release
		// packages do), compinit autoloads the file as _agsh, whose first
		// call completes too.
		{"zsh-fpath", `mkdir -p "$HOME/fp" && agsh --completion zsh >"$HOME/fp/_agsh" || exit 9
fpath=("$HOME/fp" $fpath); autoload -Uz compinit && compinit -u -d "$HOME/zcd-fpath" || exit 9
print -r -- ${_comps[agsh]}
compadd() { local a=("$@") i; for ((i = 1; i < $#a; i++)); do [[ $a[i] == -d ]] && a[i+1]="${(j:,:)${(P)a[i+1]}}"; done; print -r -- "compadd ${(j:|:)a}" }
words=(agsh datadog_l); CURRENT=2; _agsh
print -r -- ${_comps[agsh]}
words=(agsh read /repo/my); CURRENT=3; _agsh_complete
`, `_agsh
compadd -l|-d|datadog_list_monitors  -- List monitors|--|datadog_list_monitors
_agsh_complete
compadd -d|/repo/my notes.txt|--|/repo/my notes.txt
`},
		{"fish", `agsh --completion fish | source; or exit 9
complete -C 'agsh datadog_l'
complete -C 'agsh datadog_list_monitors --status "No'
complete -C 'agsh read /repo/my'
complete -C 'agsh ls /repo/s'
`, `datadog_list_monitors	List monitors
No Data
/repo/my notes.txt
/repo/sub/
`},
	} {
		t.Run(sh.name, func(t *testing.T) {
			shell, _, _ := strings.Cut(sh.name, "-")
			if _, err := exec.LookPath(shell); err != nil {
				t.Skipf("%s is not installed", shell)
			}
			cmd := exec.Command(shell, "-c", sh.script)
			if shell == "zsh" {
				cmd.Args = []string{"zsh", "-f", "-c", sh.script}
			}
			cmd.Env = append(os.Environ(), env...)
			out, err := cmd.CombinedOutput()
			if err != nil || string(out) != sh.want {
				t.Errorf("%s (%v):\n%s\nwant:\n%s", sh.name, err, out, sh.want)
			}
		})
	}
}

// BenchmarkShellCompleteWarm is one Tab press answered from a warm cache:
// a whole agsh process, as the shell runs it (the aim: under 100 ms).
func BenchmarkShellCompleteWarm(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dep, stop, err := devserver.Build(ctx, devserver.Options{Addr: "127.0.0.1:0", Root: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	if err := dep.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { dep.Close(); stop() }()
	srv := dep.AgentURL("executor")
	cache := b.TempDir()
	env := append(os.Environ(), "AGSH_TEST_AS_AGSH=1", "XDG_CACHE_HOME="+cache, "AGENT_SHELL_TARGET="+srv)
	refresh := exec.Command(os.Args[0], "--__complete-refresh")
	refresh.Env = env
	if out, err := refresh.CombinedOutput(); err != nil {
		b.Fatalf("refresh: %v %s", err, out)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := exec.Command(os.Args[0], "--__complete", "bash", "--", "agsh datadog_list_monitors --status No", "No")
		c.Env = env
		out, err := c.Output()
		if err != nil || !bytes.Contains(out, []byte(`No\ Data`)) {
			b.Fatalf("%v %q", err, out)
		}
	}
}

// TestShellCompletePathOneRoundTrip: a remote path costs the one ls call
// (tools and flags come from the cache), and a deployment that does not
// answer leaves the shell with no candidates once the bound passes, the
// request given up.
func TestShellCompletePathOneRoundTrip(t *testing.T) {
	srv, _ := startRepoDeployment(t, map[string]string{"my notes.txt": "x\n"})
	up, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	hang, gaveUp := false, make(chan struct{}, 1)
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(up) }}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		h := hang
		mu.Unlock()
		if h {
			io.Copy(io.Discard, r.Body) // the server then notices the client hang up
			<-r.Context().Done()
			select {
			case gaveUp <- struct{}{}:
			default:
			}
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer front.Close()
	env := []string{"XDG_CACHE_HOME=" + t.TempDir(), "AGENT_SHELL_TARGET=" + front.URL + "/executor"}
	complete := func(args ...string) string {
		c := agshCommand(args...)
		c.Env = append(c.Env, env...)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return string(out)
	}
	complete("--__complete-refresh")
	mu.Lock()
	seen = nil
	mu.Unlock()
	if got := complete("--__complete", "bash", "--", "agsh read /repo/my", "/repo/my"); got != "/repo/my\\ notes.txt\n" {
		t.Errorf("path answer %q", got)
	}
	if got := complete("--__complete", "bash", "--", "agsh datadog_l", "datadog_l"); got != "datadog_list_monitors\n" {
		t.Errorf("tool answer %q", got)
	}
	mu.Lock()
	if !slices.Equal(seen, []string{"POST /executor/v1/tools/ls"}) {
		t.Errorf("requests %q, want the one ls call", seen)
	}
	hang = true
	mu.Unlock()
	if got := complete("--__complete", "bash", "--", "agsh read /repo/my", "/repo/my"); got != "" {
		t.Errorf("a silent deployment answered %q", got)
	}
	<-gaveUp
}

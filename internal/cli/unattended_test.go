package cli

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agsh-dev/agsh/internal/iostreams"
)

// countingProxy stands in front of a deployment and counts the requests
// that are not reads (anything but GET): what would act.
type countingProxy struct {
	mu    sync.Mutex
	sent  []string
	proxy *httptest.Server
}

func newCountingProxy(t *testing.T, backend string) *countingProxy {
	t.Helper()
	u, err := url.Parse(backend)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "" // the host: the paths pass as they are
	c := &countingProxy{}
	// Rewrite adds no X-Forwarded-For (the deployment refuses relayed
	// requests).
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(u); pr.Out.Host = u.Host }}
	c.proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			c.mu.Lock()
			c.sent = append(c.sent, r.Method+" "+r.URL.Path)
			c.mu.Unlock()
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(c.proxy.Close)
	return c
}

// take answers the requests counted since the last take.
func (c *countingProxy) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.sent
	c.sent = nil
	return s
}

// runUnattended runs the real binary with stdin (nil: /dev/null) and the extra
// environment, and answers its outputs and status.
func runUnattended(t *testing.T, stdin io.Reader, env []string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	cmd := agshCommand(args...)
	cmd.Env = append(append(cmd.Env, "AGSH_YES=", "HOME="+t.TempDir()), env...)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	status = cmd.ProcessState.ExitCode()
	if status < 0 {
		t.Fatalf("agsh %q: %v", args, err)
	}
	return out.String(), errb.String(), status
}

// TestUnattendedWriteNeedsYes: where agsh would ask but standard input is
// not a terminal (one-shot from /dev/null or a pipe, a script from a file,
// a pipe into the shell), a write and a decision are refused before they
// are sent: exit 2, one line naming the tool, the session and the fix; a
// script at its check, so that its first line (a read) does not run
// either. --yes at launch or on the line, and AGSH_YES=1, let them run.
// Nothing but reads reaches the deployment while refused (a counting
// proxy), and its record shows no call.
func TestUnattendedWriteNeedsYes(t *testing.T) {
	t.Parallel()
	srv := startDeployment(t)
	direct := srv.AgentURL("executor")
	id := newSession(t, direct, "hello")
	cp := newCountingProxy(t, direct)
	exe := cp.proxy.URL + "/executor"
	env := []string{"AGENT_SHELL_TARGET=" + exe}
	fix := "pass --yes, or set AGSH_YES=1 for a whole environment such as CI"
	oneShot := "agsh: report_change_issue writes (it declares needsApproval: true and effect: \"write\") in session " + id +
		", given (--session): standard input is not a terminal, so agsh cannot ask; nothing was sent: " + fix + "\n"
	script := "agsh: line 2: col 1: report_change_issue writes (it declares needsApproval: true and effect: \"write\") in session " + id +
		", given at launch (--session): a script cannot be asked; no line ran: " + fix + "\n"
	scriptFile := filepath.Join(t.TempDir(), "fix.agsh")
	if err := os.WriteFile(scriptFile, []byte("ls /repo\nreport_change_issue --title 'from a file' --severity low\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() io.Reader {
		f, err := os.Open(scriptFile)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	for _, c := range []struct {
		name   string
		stdin  func() io.Reader
		env    []string
		args   []string
		stderr string
	}{
		{"one-shot, standard input /dev/null", func() io.Reader { return nil }, nil,
			[]string{"--session", id, "report_change_issue", "--title", "x"}, oneShot},
		{"one-shot, standard input a pipe", func() io.Reader { return strings.NewReader("data\n") }, nil,
			[]string{"--session", id, "report_change_issue", "--title", "x"}, oneShot},
		{"a script from a file", open, nil, []string{"--session", id}, script},
		{"a pipe into the shell", func() io.Reader {
			return strings.NewReader("ls /repo\nreport_change_issue --title 'from a pipe' --severity low\n")
		}, nil, []string{"--session", id}, script},
		{"AGSH_YES=0 is no yes", open, []string{"AGSH_YES=0"}, []string{"--session", id}, script},
	} {
		stdout, stderr, status := runUnattended(t, c.stdin(), append(env, c.env...), c.args...)
		if status != 2 || stdout != "" || stderr != c.stderr {
			t.Errorf("%s: status %d, stdout %q, stderr\n%q\nwant\n%q", c.name, status, stdout, stderr, c.stderr)
		}
		if sent := cp.take(); len(sent) > 0 {
			t.Errorf("%s: requests that act reached the deployment: %q", c.name, sent)
		}
	}
	if n, m := callsOf(t, direct, id, "report_change_issue"), callsOf(t, direct, id, "ls"); n+m != 0 {
		t.Fatalf("the record shows %d write and %d ls calls after the refusals", n, m)
	}

	// Reads never need --yes.
	if _, stderr, status := runUnattended(t, nil, env, "--session", id, "ls", "/repo"); status != 0 {
		t.Fatalf("ls: status %d: %s", status, stderr)
	}
	cp.take()

	// --yes at launch (a whole script), on the line, and AGSH_YES=1 run.
	call := "POST /executor/v1/tools/report_change_issue"
	for _, c := range []struct {
		name  string
		stdin io.Reader
		env   []string
		args  []string
		sent  string
	}{
		{"--yes one-shot", nil, nil, []string{"--session", id, "report_change_issue", "--title", "x", "--yes"}, "[" + call + "]"},
		{"--yes at a script's launch", open(), nil, []string{"--yes", "--session", id}, "[POST /executor/v1/tools/ls " + call + "]"},
		{"--yes on the script's line", strings.NewReader("report_change_issue --title 'its line' --yes\n"), nil, []string{"--session", id}, "[" + call + "]"},
		{"AGSH_YES=1, a pipe", strings.NewReader("report_change_issue --title 'from CI'\n"), []string{"AGSH_YES=1"}, []string{"--session", id}, "[" + call + "]"},
	} {
		stdout, stderr, status := runUnattended(t, c.stdin, append(env, c.env...), c.args...)
		if status != 0 || !strings.Contains(stdout, "issueId:") {
			t.Errorf("%s: status %d, stdout %q, stderr %q", c.name, status, stdout, stderr)
		}
		if sent := fmt.Sprint(cp.take()); sent != c.sent {
			t.Errorf("%s: sent %s, want %s", c.name, sent, c.sent)
		}
	}
	if n := callsOf(t, direct, id, "report_change_issue"); n != 4 {
		t.Errorf("%d calls recorded, want the 4 given --yes", n)
	}
}

// TestUnattendedDecisionNeedsYes: :approve and :deny unattended (one-shot,
// and a script line) are refused before the decision is sent, naming the
// call's tool and its session; the call still waits; --yes decides.
func TestUnattendedDecisionNeedsYes(t *testing.T) {
	t.Parallel()
	srv := startDeployment(t)
	direct := srv.AgentURL("executor")
	id := newSession(t, direct, `call report_change_succeeded {"summary": "fine"}`)
	waitState(t, direct, id, "waiting_approval")
	call := parkedCall(t, direct, id)
	cp := newCountingProxy(t, direct)
	env := []string{"AGENT_SHELL_TARGET=" + cp.proxy.URL + "/executor"}
	fix := "pass --yes, or set AGSH_YES=1 for a whole environment such as CI"
	for _, c := range []struct {
		name   string
		stdin  io.Reader
		args   []string
		stderr string
	}{
		{":approve one-shot", nil, []string{":approve", call, id},
			"agsh: :approve call " + call + " (report_change_succeeded) of session " + id +
				", given: standard input is not a terminal, so agsh cannot ask; no decision was sent: " + fix + "\n"},
		{":deny by a prefix, the latest session", nil, []string{":deny", call[:9], "--reason", "no"},
			"agsh: :deny call " + call + " (report_change_succeeded) of session " + id +
				", the latest (none was given or bound): standard input is not a terminal, so agsh cannot ask; no decision was sent: " + fix + "\n"},
		{"a script's :deny", strings.NewReader(":approvals\n:deny " + call + "\n"), []string{"--session", id},
			"agsh: line 2: col 1: :deny call " + call + " (report_change_succeeded) of session " + id +
				", this shell's session: a script cannot be asked; no line ran: " + fix + "\n"},
	} {
		stdout, stderr, status := runUnattended(t, c.stdin, env, c.args...)
		if status != 2 || stdout != "" || stderr != c.stderr {
			t.Errorf("%s: status %d, stdout %q, stderr\n%q\nwant\n%q", c.name, status, stdout, stderr, c.stderr)
		}
		if sent := cp.take(); len(sent) > 0 {
			t.Errorf("%s: requests that act reached the deployment: %q", c.name, sent)
		}
	}
	if got := parkedCall(t, direct, id); got != call {
		t.Fatalf("the call no longer waits (%q) after the refusals", got)
	}
	stdout, stderr, status := runUnattended(t, strings.NewReader(":deny "+call+" --yes\n"), env, "--session", id)
	if status != 0 || !strings.HasPrefix(stdout, "Denied call "+call) {
		t.Fatalf("--yes on a script's line: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	if sent := cp.take(); fmt.Sprint(sent) != "[POST /executor/v1/session/"+id+"/approvals/"+call+"]" {
		t.Errorf("--yes sent %q, want the one decision", sent)
	}
}

// TestGuardMalformedUnattended: a detail whose needsApproval or effect is
// malformed (needsApproval 1 or "true", effect ["write"] or an unknown
// word) is a write: unattended, its call is refused and nothing is posted;
// a clear read is called.
func TestGuardMalformedUnattended(t *testing.T) {
	t.Parallel()
	details := map[string]string{
		"one":     `"needsApproval": 1`,
		"quoted":  `"needsApproval": "true"`,
		"listed":  `"effect": ["write"]`,
		"unknown": `"effect": "purge"`,
		"reads":   `"effect": "read", "needsApproval": false`,
	}
	var mu sync.Mutex
	var posted []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		name := strings.TrimPrefix(r.URL.Path, "/a/v1/tools/")
		switch {
		case r.Method != http.MethodGet:
			mu.Lock()
			posted = append(posted, name)
			mu.Unlock()
			io.WriteString(w, `{"ok":true,"isError":false,"result":"done"}`)
		case r.URL.Path == "/a/v1/sessions":
			io.WriteString(w, `{"ok":true,"sessions":[]}`)
		case r.URL.Path == "/a/v1/info":
			io.WriteString(w, `{"ok":true,"name":"fake"}`)
		case details[name] != "":
			fmt.Fprintf(w, `{"ok":true,"tool":{"name":%q,"inputSchema":{"type":"object","properties":{}},%s}}`, name, details[name])
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	for name, detail := range details {
		ios, out, errOut := iostreams.Test("")
		status := Main([]string{"--target", srv.URL + "/a", name}, ios, ttySafeEnv{})
		mu.Lock()
		sent := posted
		posted = nil
		mu.Unlock()
		if name == "reads" {
			if status != 0 || out.String() != "done\n" || len(sent) != 1 {
				t.Errorf("%s: a clear read: status %d, stdout %q, sent %q: %s", detail, status, out, sent, errOut)
			}
			continue
		}
		if status != 2 || len(sent) != 0 || !strings.HasPrefix(errOut.String(), "agsh: "+name+" writes (it declares ") ||
			!strings.Contains(errOut.String(), "nothing was sent: pass --yes") {
			t.Errorf("%s: status %d, sent %q, stderr %q", detail, status, sent, errOut)
		}
	}
}

// TestGuardAsksOnTTY: standard input a terminal and standard error not one
// (2>log): the question is drawn on the process's terminal (/dev/tty),
// not on standard error; without a terminal to draw it on agsh sends
// nothing and says to pass --yes.
func TestGuardAsksOnTTY(t *testing.T) {
	t.Parallel()
	srv := startDeployment(t)
	exe := srv.AgentURL("executor")
	id := newSession(t, exe, "hello")
	args := []string{"--target", exe, "--session", id, "report_change_issue", "--title", "x"}

	ios, out, errOut := iostreams.Test("")
	ios.InTTY = true // and no /dev/tty (OpenTTY nil)
	if status := Main(args, ios, ttySafeEnv{}); status != 2 || out.Len() != 0 ||
		!strings.Contains(errOut.String(), "cannot ask on the terminal (no terminal to draw the question on); pass --yes") {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out, errOut)
	}

	var tty bytes.Buffer
	ios, _, errOut = iostreams.Test("")
	ios.InTTY = true
	ios.OpenTTY = func() (io.WriteCloser, int, int, error) { return nopCloser{&tty}, 80, 24, nil }
	status := Main(args, ios, ttySafeEnv{})
	// The key cannot be read (standard input has no descriptor here):
	// nothing is sent, but the question was drawn on the terminal, not on
	// standard error.
	if status != 2 || !strings.HasPrefix(tty.String(), "agsh: report_change_issue writes") ||
		!strings.Contains(tty.String(), "\n  call     report_change_issue --title=x\n") || strings.Contains(errOut.String(), "  call ") {
		t.Fatalf("status %d, tty %q, stderr %q", status, tty.String(), errOut)
	}
	if n := callsOf(t, exe, id, "report_change_issue"); n != 0 {
		t.Fatalf("%d calls were sent", n)
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// TestUnattendedScriptJSONCode: under --output json, a script refused at
// its check for a write or a decision gets the JSON error line of the
// refusal, "error":"unattended" (docs/cli.md#the-json-error-line), as a
// one-shot does, not "usage".
func TestUnattendedScriptJSONCode(t *testing.T) {
	t.Parallel()
	srv := startDeployment(t)
	direct := srv.AgentURL("executor")
	id := newSession(t, direct, "hello")
	env := []string{"AGENT_SHELL_TARGET=" + direct}
	for _, script := range []string{
		"ls /repo\nreport_change_issue --title x\n",
		":deny call_x\n",
	} {
		stdout, stderr, status := runUnattended(t, strings.NewReader(script), env, "--session", id, "--output", "json")
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if status != 2 || stdout != "" || len(lines) != 2 || !strings.HasPrefix(lines[1], `{"error":"unattended","message":"line `) ||
			!strings.HasSuffix(lines[1], `","status":0,"exit":2}`) {
			t.Errorf("%q: status %d, stdout %q, stderr\n%s", script, status, stdout, stderr)
		}
	}
	// Another usage error of the check keeps its code.
	_, stderr, status := runUnattended(t, strings.NewReader(":wait --for never\n"), env, "--session", id, "--output", "json")
	if status != 2 || !strings.Contains(stderr, `{"error":"usage","message":"line 1: col`) {
		t.Errorf(":wait --for never: status %d, stderr\n%s", status, stderr)
	}
}

// TestYesWanted: AGSH_YES says yes when set to anything but empty or a
// word for no; AGSH_YES=false (or no, off, 0, in any case) lets no write
// through unattended.
func TestYesWanted(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "FALSE": false, "No": false, "off": false, " 0 ": false,
		"1": true, "yes": true, "true": true, "y": true} {
		if got := yesWanted(v); got != want {
			t.Errorf("AGSH_YES=%q: %v, want %v", v, got, want)
		}
	}
}

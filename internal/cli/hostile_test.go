package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The hostile deployment: one mode per attack, run against the built agsh
// binary (a non-race build, whatever the test binary is), with exit status,
// message, peak RSS and, on a pty, the bytes that reach the terminal.
// AGSH_HOSTILE_BIN names another binary to try (an older build, to measure
// "before"); AGSH_TEST_SLOW=1 adds the two cases that take a minute each (a
// trickling GET, a stalled POST).

const hostileToken = "tok_hostile_4242_SECRET"

// rssBound is the generous bound on agsh's peak memory whatever a
// deployment sends (the machine is shared: the bound is far above the
// expected ~300 MiB); the watchdog kills a child at killRSS.
const (
	rssBound = 1 << 30
	killRSS  = 3 << 29 // 1.5 GiB
)

var (
	agshBinOnce sync.Once
	agshBin     string
	agshBinDir  string
	agshBinErr  error
)

// removeBuiltAgsh removes the builds of builtAgsh, buildDevserver and
// buildTestMCP, once every test ran.
func removeBuiltAgsh() {
	for _, d := range []string{agshBinDir, devserverBinDir, testMCPDir} {
		if d != "" {
			os.RemoveAll(d)
		}
	}
}

// builtAgsh builds cmd/agsh once per test run, without -race, so that its
// memory is what users get.
func builtAgsh(t testing.TB) string {
	t.Helper()
	if b := os.Getenv("AGSH_HOSTILE_BIN"); b != "" {
		return b
	}
	agshBinOnce.Do(func() {
		// One build for every test of the run: its folder goes when the
		// run ends (TestMain), not with the first caller's TempDir.
		dir, err := os.MkdirTemp("", "agsh-built-")
		if err != nil {
			agshBinErr = err
			return
		}
		agshBinDir = dir
		agshBin = filepath.Join(dir, "agsh")
		out, err := exec.Command("go", "build", "-o", agshBin, "../../cmd/agsh").CombinedOutput()
		if err != nil {
			agshBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if agshBinErr != nil {
		t.Fatal(agshBinErr)
	}
	return agshBin
}

// hostileResult is one run of the binary.
type hostileResult struct {
	stdout, stderr string
	exit           int
	maxRSS         int64 // bytes
	took           time.Duration
	killed         string
}

// runHostile runs agsh with args and env (added to a clean environment),
// stdout discarded when discard is set; a watchdog kills it past killRSS or
// after limit. Its peak RSS is GNU time's (/usr/bin/time -f %M) when that
// is installed: a process forked by this (big) test process starts with
// the test's own resident set as its high-water mark, so getrusage of the
// child, the fallback, is only an upper bound.
func runHostile(t *testing.T, env []string, discard bool, limit time.Duration, args ...string) hostileResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	argv := append([]string{builtAgsh(t)}, args...)
	rssFile := ""
	if gnuTime() {
		rssFile = filepath.Join(t.TempDir(), "rss")
		argv = append([]string{"/usr/bin/time", "-f", "%M", "-o", rssFile}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "NO_COLOR=1",
		"AGENT_SHELL_BEARER_TOKEN=" + hostileToken, "HTTP_PROXY=", "HTTPS_PROXY=", "NO_PROXY="}, env...)
	var out, errb bytes.Buffer
	if discard {
		cmd.Stdout = io.Discard
	} else {
		cmd.Stdout = &out
	}
	cmd.Stderr = &errb
	// agsh itself: the child of time when wrapped.
	agshPid := func() int {
		if rssFile == "" {
			return cmd.Process.Pid
		}
		return childPid(cmd.Process.Pid)
	}
	cmd.Cancel = func() error {
		if pid := agshPid(); pid > 0 && pid != cmd.Process.Pid {
			// time then reports and exits.
			return syscall.Kill(pid, syscall.SIGKILL)
		}
		return cmd.Process.Kill()
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var killed atomic.Value
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				pid := agshPid()
				if rss := procRSS(pid); pid > 0 && rss > killRSS {
					killed.Store(fmt.Sprintf("killed at %d MiB RSS", rss>>20))
					syscall.Kill(pid, syscall.SIGKILL)
					return
				}
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	r := hostileResult{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if k, ok := killed.Load().(string); ok {
		r.killed = k
	} else if ctx.Err() != nil {
		r.killed = "killed after " + limit.String()
	}
	if rssFile != "" {
		b, _ := os.ReadFile(rssFile)
		f := strings.Fields(string(b))
		if len(f) > 0 {
			kb, _ := strconv.ParseInt(f[len(f)-1], 10, 64)
			r.maxRSS = kb << 10
		}
	} else if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSS = ru.Maxrss << 10
	}
	r.exit = cmd.ProcessState.ExitCode()
	if r.killed != "" {
		r.exit = -1
	}
	_ = err
	t.Logf("case %s %v: exit %d, peak RSS %d MiB, %s %s\nstderr: %s", hostileMode(env), args, r.exit, r.maxRSS>>20,
		r.took.Round(10*time.Millisecond), r.killed, strings.TrimSpace(r.stderr))
	return r
}

// hostileMode names a run for the figures: the mode its target selects.
func hostileMode(env []string) string {
	mode := "-"
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "AGENT_SHELL_TARGET="); ok {
			if u, err := url.Parse(v); err == nil {
				mode, _, _ = strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
			}
		}
	}
	for _, e := range env {
		if strings.HasPrefix(e, "AGSH_MAX_ANSWER_BYTES=") || strings.HasPrefix(e, "GODEBUG=") {
			mode += "," + e
		}
	}
	return mode
}

var (
	gnuTimeOnce sync.Once
	gnuTimeOK   bool
)

// gnuTime reports whether /usr/bin/time is GNU time (-f, -o).
func gnuTime() bool {
	gnuTimeOnce.Do(func() {
		out, err := exec.Command("/usr/bin/time", "-f", "%M", "-o", os.DevNull, "true").CombinedOutput()
		gnuTimeOK = err == nil && len(out) == 0
	})
	return gnuTimeOK
}

// childPid is the first child of pid, 0 when it has none (yet).
func childPid(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(f[0])
	return n
}

// procRSS is a process's resident set in bytes, 0 when unknown.
func procRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n << 10
		}
	}
	return 0
}

// hostileMD is deployment markdown that decodes to terminal controls.
const hostileMD = "Retitle &#27;]2;PWNED&#7; clear &#x1b;[2J clip &#27;]52;c;aGk=&#7; c1 &#x9b; raw \u001b]2;RAW\u0007 " +
	"rlo &#x202e; `span &#27;[31m`"

// hostileServer is the deployment: the first path segment of the target
// picks the mode.
type hostileServer struct {
	srv, other *httptest.Server
	otherAuth  atomic.Value
	otherHits  atomic.Int64
	bomb       []byte // held: "result" comes before "isError"
	streamBomb []byte // streamed: "ok" and "isError" come first
	password   string
}

func newHostileServer(t *testing.T) *hostileServer {
	h := &hostileServer{password: "pw-Secret-77"}
	h.bomb = gzipBomb(4<<30, `{"ok":true,"result":"`, `","isError":false}`)
	h.streamBomb = gzipBomb(4<<30, `{"ok":true,"isError":false,"result":"`, `"}`)
	h.other = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.otherHits.Add(1)
		h.otherAuth.Store(r.Header.Get("Authorization"))
		if r.Method == http.MethodPost {
			answer(w, `{"ok":true,"isError":false,"result":"the other port ran the call"}`)
			return
		}
		answer(w, `{"ok":true,"tool":{"name":"echo","description":"from the other port","inputSchema":{"type":"object"}}}`)
	}))
	t.Cleanup(h.other.Close)
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

// gzipBomb is a gzip stream (several members, as net/http reads them) of
// a call answer whose result string inflates to size bytes, between head
// and tail.
func gzipBomb(size int64, head, tail string) []byte {
	member := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	chunk := member(bytes.Repeat([]byte("a"), 1<<20))
	var out bytes.Buffer
	out.Write(member([]byte(head)))
	for n := int64(0); n < size; n += 1 << 20 {
		out.Write(chunk)
	}
	out.Write(member([]byte(tail)))
	return out.Bytes()
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func answer(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, body)
}

// endlessAnswer writes head and then array elements until the client goes.
func endlessAnswer(w http.ResponseWriter, head string) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, head)
	chunk := []byte(strings.Repeat(`"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",`, 4096))
	for {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// shapes are call answers that are not a call's answer
// (docs/wire.md#invoking-a-tool says what one is).
var shapes = map[string]string{
	"empty": `{}`, "array": `[]`, "string": `"str"`, "null": `null`, "okonly": `{"ok":true}`,
	"okfalse": `{"ok":false}`, "trailing": `{"ok":true,"result":"a"} {"ok":true}`,
	"duplicate": `{"ok":true,"result":"a","result":"b"}`,
}

func (h *hostileServer) serve(w http.ResponseWriter, r *http.Request) {
	mode, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	rest = "/" + rest
	post := r.Method == http.MethodPost
	switch {
	case rest == "/v1/sessions":
		answer(w, `{"ok":true,"sessions":[]}`)
		return
	case rest == "/v1/info":
		desc := "A hostile agent."
		if mode == "help" {
			desc = hostileMD
		}
		answer(w, `{"ok":true,"name":"hostile","description":`+jsonString(desc)+`,"tools":[]}`)
		return
	case rest == "/v1/tools" && !post:
		switch mode {
		case "endless-list":
			endlessAnswer(w, `{"ok":true,"tools":[`)
		case "trickle-get":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true,"tools":[`)
			for {
				w.(http.Flusher).Flush()
				time.Sleep(time.Second)
				if _, err := io.WriteString(w, " "); err != nil {
					return
				}
			}
		case "long-line":
			answer(w, `{"ok":true,"tools":[{"name":"read"}]}`)
		case "help":
			answer(w, `{"ok":true,"tools":[{"name":"evil\u202eexe.sh","title":"Title \u001b]2;PWNED\u0007 &#27;[2J"},`+
				`{"name":"evbad\u009b2J"},{"name":"echo","title":"Echo"}]}`)
		default:
			answer(w, `{"ok":true,"tools":[{"name":"echo"}]}`)
		}
		return
	case strings.HasPrefix(rest, "/v1/tools/") && !post:
		switch mode {
		case "get-port":
			http.Redirect(w, r, h.other.URL+r.URL.Path, http.StatusFound)
		case "collide":
			// 20,000 property names that all kebab to --a.
			var b strings.Builder
			for i := 0; i < 20000; i++ {
				fmt.Fprintf(&b, `,"%sa%s":{"type":"string"}`, strings.Repeat("_", i%50+1), strings.Repeat("$", i/50))
			}
			answer(w, `{"ok":true,"tool":{"name":"echo","inputSchema":{"type":"object","properties":{`+b.String()[1:]+`}}}}`)
		case "long-line":
			answer(w, `{"ok":true,"tool":{"name":"read","inputSchema":{"type":"object","properties":{"path":{"type":"string"},`+
				`"offset":{"type":"integer"},"limit":{"type":"integer"}},"required":["path"]}}}`)
		case "huge-desc":
			desc := strings.Repeat("word *em* `code` [l](http://x) ", 15<<20/32)
			answer(w, `{"ok":true,"tool":{"name":"echo","description":`+jsonString(desc)+`,"inputSchema":{"type":"object"}}}`)
		case "help":
			answer(w, `{"ok":true,"tool":{"name":"evil\u202eexe.sh","title":"T \u001b]2;PWNED\u0007","description":`+
				jsonString(hostileMD)+`,"inputSchema":{"type":"object","properties":{"x":{"type":"string","description":`+
				jsonString("flag \u001b[2J &#27; \u202e")+`}}}}}`)
		default:
			answer(w, `{"ok":true,"tool":{"name":"echo","inputSchema":{"type":"object","properties":{}}}}`)
		}
		return
	}
	// POST /v1/tools/{name}: the call.
	switch {
	case mode == "endless-call":
		endlessAnswer(w, `{"ok":true,"result":[`)
	case mode == "stream-tail":
		// A result that streams, then a member that never ends: it is
		// held, so it is bounded as a held answer is.
		// (One string: no values for the value bound to count.)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"isError":false,"result":"hi","junk":"`)
		chunk := bytes.Repeat([]byte("j"), 1<<20)
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	case mode == "long-line":
		// A read result whose first line is 1 GiB long: past the hold
		// limit the curated read reformats line by line, and a line is
		// not held to its newline.
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"isError":false,"result":"     1|`)
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		for n := 0; n < 1<<10; n++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		io.WriteString(w, `"}`)
	case mode == "deep-json":
		// Ten values nested 9,800 levels (encoding/json takes 10,000):
		// 490 KB that indent to 1.9 GB.
		w.Header().Set("Content-Type", "application/json")
		one := strings.Repeat(`[{"a":`, 4900) + "1" + strings.Repeat(`}]`, 4900)
		io.WriteString(w, `{"ok":true,"isError":false,"result":[`+one+strings.Repeat(","+one, 9)+`]}`)
	case mode == "big-call":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"isError":false,"result":"`)
		// Just under 128 MiB, the default bound, of text lines.
		line := []byte(strings.Repeat("y", 1023) + `\n`)
		for n := 0; n < 127<<10; n++ {
			w.Write(line)
		}
		io.WriteString(w, `"}`)
	case strings.HasPrefix(mode, "dense-array"):
		// N MiB (default 120) of a JSON array of zeros: half a million
		// elements per MiB.
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"isError":false,"result":[0`)
		chunk := []byte(strings.Repeat(",0", 1<<19))
		mib, err := strconv.Atoi(strings.TrimPrefix(mode, "dense-array-"))
		if err != nil {
			mib = 120
		}
		for n := 0; n < mib; n++ {
			w.Write(chunk)
		}
		io.WriteString(w, `]}`)
	case strings.HasPrefix(mode, "dense-objects"):
		// N MiB (default 120) of a table of small objects.
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"isError":false,"result":[{"a":1}`)
		chunk := []byte(strings.Repeat(`,{"a":1}`, 1<<17))
		mib, err := strconv.Atoi(strings.TrimPrefix(mode, "dense-objects-"))
		if err != nil {
			mib = 120
		}
		for n := 0; n < mib; n++ {
			w.Write(chunk)
		}
		io.WriteString(w, `]}`)
	case mode == "gzip-bomb", mode == "gzip-bomb-streamed":
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		if mode == "gzip-bomb" {
			w.Write(h.bomb)
		} else {
			w.Write(h.streamBomb)
		}
	case mode == "stall-post":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true,"result":"`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	case strings.HasPrefix(mode, "shape-"):
		answer(w, shapes[strings.TrimPrefix(mode, "shape-")])
	case mode == "empty-success":
		answer(w, `{"ok":true,"isError":false}`)
	case mode == "error-nomessage":
		answer(w, `{"ok":true,"isError":true}`)
	case mode == "post-302":
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	case mode == "post-307-away":
		http.Redirect(w, r, h.other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	case mode == "echo-token":
		// Every spelling: raw, \u-escaped whole, one character escaped.
		esc := ""
		for _, c := range hostileToken {
			esc += fmt.Sprintf(`\u%04x`, c)
		}
		answer(w, `{"ok":true,"isError":false,"result":[{"raw":"`+hostileToken+`","escaped":"`+esc+
			`","one":"\u0074`+hostileToken[1:]+`","auth":`+jsonString(r.Header.Get("Authorization"))+`}]}`)
	case mode == "echo-password":
		answer(w, `{"ok":true,"isError":false,"result":{"seen":"`+h.password+`"}}`)
	case mode == "refuse-esc":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"ok":false,"error":"invalid_input","message":"bad \u001b]2;PWNED\u0007 \u202e \u009b2J"}`)
	case mode == "iserror-esc":
		answer(w, `{"ok":true,"isError":true,"result":"failed \u001b]2;PWNED\u0007 \u009b2J \u202e\u2066\u200b\u2060\ufeff"}`)
	case mode == "success-false":
		// A server's failure without isError (docs/rendering.md#error-line).
		answer(w, `{"ok":true,"isError":false,"result":{"content":[{"type":"text","text":"{\"success\":false,\"error\":\"no such table: orders\",\"code\":\"EXECUTION_ERROR\"}"}]}}`)
	case mode == "evil-jq":
		answer(w, `{"ok":true,"isError":false,"result":{"t":"\u001b]2;PWNED\u0007 \u202e\u2066\u200b\u2060\ufeff","c":"\u009b2J\u202e"}}`)
	case mode == "text-bidi":
		answer(w, `{"ok":true,"isError":false,"result":"a text \u001b]2;PWNED\u0007 exe.\u202etxt \u2066\u200b\u2060\ufeff\n"}`)
	default:
		answer(w, `{"ok":true,"isError":false,"result":"ok"}`)
	}
}

// oneLine asserts a single "agsh: " line on stderr containing want.
func oneLine(t *testing.T, r hostileResult, want ...string) {
	t.Helper()
	// The session line comes last when the deployment was reached.
	lines := strings.Split(strings.TrimSuffix(strings.TrimRight(r.stderr, "\n"), "\n"+sessionNone), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "agsh: ") {
		t.Errorf("stderr is not one agsh: line: %q", r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr %q lacks %q", r.stderr, w)
		}
	}
}

const sessionNone = "→ no session (ephemeral workspace)"

func TestHostileDeployment(t *testing.T) {
	if testing.Short() {
		t.Skip("builds agsh and runs it against a hostile deployment")
	}
	builtAgsh(t)
	h := newHostileServer(t)
	target := func(mode string) string { return "AGENT_SHELL_TARGET=" + h.srv.URL + "/" + mode }
	limit := 90 * time.Second

	t.Run("successfalse", func(t *testing.T) {
		r := runHostile(t, []string{target("success-false")}, false, limit, "echo")
		if r.exit != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "Error: no such table: orders (EXECUTION_ERROR)\n") {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and the error line", r.exit, r.stdout, r.stderr)
		}
		j := runHostile(t, []string{target("success-false")}, false, limit, "echo", "--output", "json")
		if j.exit != 1 || !strings.Contains(j.stdout, `"isError": true`) || !strings.Contains(j.stdout, `"success": false`) {
			t.Errorf("--output json: exit %d, stdout %q; want exit 1 and the marked value", j.exit, j.stdout)
		}
	})

	t.Run("bounds", func(t *testing.T) {
		r := runHostile(t, []string{target("endless-list")}, true, limit, "help")
		oneLine(t, r, "GET /v1/tools", "16 MiB", "AGSH_MAX_ANSWER_BYTES")
		r2 := runHostile(t, []string{target("endless-call")}, true, limit, "echo")
		oneLine(t, r2, "POST /v1/tools/echo", "128 MiB", "AGSH_MAX_ANSWER_BYTES")
		r3 := runHostile(t, []string{target("gzip-bomb")}, true, limit, "echo")
		oneLine(t, r3, "POST /v1/tools/echo", "128 MiB", "AGSH_MAX_ANSWER_BYTES")
		// A streamed answer's own bound (2 GiB by default) is this one
		// when it is set.
		r4 := runHostile(t, []string{target("gzip-bomb-streamed"), "AGSH_MAX_ANSWER_BYTES=8MiB"}, true, limit, "echo")
		oneLine(t, r4, "8 MiB", "AGSH_MAX_ANSWER_BYTES")
		for _, r := range []hostileResult{r, r2, r3, r4} {
			if r.exit != 5 || r.killed != "" || r.maxRSS >= rssBound {
				t.Errorf("exit %d, peak RSS %d MiB, %s; want exit 5 under 1 GiB", r.exit, r.maxRSS>>20, r.killed)
			}
		}
		// The largest answers agsh accepts still fit.
		for _, out := range []string{"text", "json"} {
			r5 := runHostile(t, []string{target("big-call")}, true, limit, "echo", "--output", out)
			if r5.exit != 0 || r5.maxRSS >= rssBound {
				t.Errorf("127 MiB answer, --output %s: exit %d, peak RSS %d MiB", out, r5.exit, r5.maxRSS>>20)
			}
		}
		// Dense answers: agsh holds each value of a structured answer, so
		// the values are bounded too. Within the bound they render; past
		// it, exit 5; either way under 1 GiB.
		for _, mode := range []string{"dense-array-120", "dense-objects-120", "dense-array-3", "dense-objects-6"} {
			for _, out := range []string{"text", "json"} {
				r := runHostile(t, []string{target(mode)}, true, limit, "echo", "--output", out)
				want := 0
				if strings.HasSuffix(mode, "-120") {
					want = 5
					if out == "text" {
						oneLine(t, r, "JSON values", "AGSH_MAX_ANSWER_BYTES")
					}
				}
				if r.exit != want || r.killed != "" || r.maxRSS >= rssBound {
					t.Errorf("%s --output %s: exit %d, peak RSS %d MiB %s; want exit %d under 1 GiB",
						mode, out, r.exit, r.maxRSS>>20, r.killed, want)
				}
			}
		}
		// What follows a streamed result is held: the held bound, not the
		// streamed one (2 GiB), ends an endless member after it.
		r7 := runHostile(t, []string{target("stream-tail")}, true, limit, "echo")
		oneLine(t, r7, "POST /v1/tools/echo", "128 MiB", "AGSH_MAX_ANSWER_BYTES")
		if r7.exit != 5 || r7.killed != "" || r7.maxRSS >= rssBound {
			t.Errorf("endless member after a streamed result: exit %d, peak RSS %d MiB %s", r7.exit, r7.maxRSS>>20, r7.killed)
		}
		// A curated read whose one line is 1 GiB: printed as received from
		// that line, memory flat.
		r8 := runHostile(t, []string{target("long-line")}, true, limit, "read", "/x")
		if r8.exit != 0 || r8.killed != "" || r8.maxRSS >= rssBound || !strings.Contains(r8.stderr, "longer than 8 MiB") {
			t.Errorf("1 GiB read line: exit %d, peak RSS %d MiB %s, stderr %q", r8.exit, r8.maxRSS>>20, r8.killed, r8.stderr)
		}
		// Deep values indent to far more than they weigh: written as
		// indented, not held (before: 690 MiB for 490 KB).
		r9 := runHostile(t, []string{target("deep-json")}, true, limit, "echo", "--output", "json")
		if r9.exit != 0 || r9.killed != "" || r9.maxRSS >= 384<<20 {
			t.Errorf("deep JSON: exit %d, peak RSS %d MiB %s", r9.exit, r9.maxRSS>>20, r9.killed)
		}
		r6 := runHostile(t, []string{target("echo"), "AGSH_MAX_ANSWER_BYTES=lots"}, true, limit, "echo")
		if r6.exit != 2 {
			t.Errorf("AGSH_MAX_ANSWER_BYTES=lots: exit %d", r6.exit)
		}
		oneLine(t, r6, "AGSH_MAX_ANSWER_BYTES=lots is not a size")
	})

	t.Run("huge description", func(t *testing.T) {
		r := runHostile(t, []string{target("huge-desc")}, true, limit, "echo", "--help")
		if r.exit != 0 || r.maxRSS >= rssBound {
			t.Errorf("15 MiB description: exit %d, peak RSS %d MiB", r.exit, r.maxRSS>>20)
		}
	})

	t.Run("flag naming", func(t *testing.T) {
		r := runHostile(t, []string{target("collide")}, true, limit, "echo", "--help")
		if r.exit != 0 {
			t.Errorf("20,000 colliding names: exit %d", r.exit)
		}
	})

	t.Run("slow", func(t *testing.T) {
		if os.Getenv("AGSH_TEST_SLOW") == "" {
			t.Skip("set AGSH_TEST_SLOW=1: a trickling GET and a stalled POST take a minute each")
		}
		var wg sync.WaitGroup
		var r1, r2 hostileResult
		wg.Add(2)
		go func() {
			defer wg.Done()
			r1 = runHostile(t, []string{target("trickle-get")}, true, 3*time.Minute, "help")
		}()
		go func() {
			defer wg.Done()
			r2 = runHostile(t, []string{target("stall-post")}, true, 3*time.Minute, "echo")
		}()
		wg.Wait()
		if r1.exit != 5 || r2.exit != 5 {
			t.Errorf("trickle exit %d, stall exit %d; want 5 and 5", r1.exit, r2.exit)
		}
		oneLine(t, r1, "did not arrive whole within 1m0s")
		oneLine(t, r2, "stalled for 1m0s")
	})

	t.Run("shapes", func(t *testing.T) {
		for name := range shapes {
			r := runHostile(t, []string{target("shape-" + name)}, false, limit, "echo", "--output", "json")
			if r.exit != 5 || r.stdout != "" {
				t.Errorf("%s: exit %d, stdout %q; want 5 and nothing", name, r.exit, r.stdout)
			}
			lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
			if len(lines) != 3 || !strings.Contains(lines[0], "not a call's answer") ||
				!strings.Contains(lines[1], `"error":"bad_response"`) || lines[2] != sessionNone {
				t.Errorf("%s: stderr %q", name, r.stderr)
			}
		}
		r := runHostile(t, []string{target("empty-success")}, false, limit, "echo")
		if r.exit != 0 || r.stdout != "" || r.stderr != "(no results)\n"+sessionNone+"\n" {
			t.Errorf("empty success: exit %d, %q, %q", r.exit, r.stdout, r.stderr)
		}
		r = runHostile(t, []string{target("error-nomessage")}, false, limit, "echo")
		if r.exit != 1 || r.stderr != "Error: the tool reported an error without a message\n"+sessionNone+"\n" {
			t.Errorf("error without message: exit %d, %q", r.exit, r.stderr)
		}
	})

	t.Run("redirects", func(t *testing.T) {
		r := runHostile(t, []string{target("post-302")}, false, limit, "echo")
		if r.exit != 5 {
			t.Errorf("POST 302: exit %d", r.exit)
		}
		oneLine(t, r, "302 Found", "the call did not run")
		before := h.otherHits.Load()
		r = runHostile(t, []string{target("post-307-away")}, false, limit, "echo")
		if r.exit != 5 || h.otherHits.Load() != before {
			t.Errorf("POST 307 to another origin: exit %d, other port hit %d times", r.exit, h.otherHits.Load()-before)
		}
		oneLine(t, r, "another origin", "the call did not run")
		r = runHostile(t, []string{target("get-port")}, false, limit, "echo", "--help")
		if auth, _ := h.otherAuth.Load().(string); r.exit != 0 || auth != "" {
			t.Errorf("GET redirected to another port: exit %d, Authorization %q sent there", r.exit, auth)
		}
	})

	t.Run("credentials", func(t *testing.T) {
		for _, out := range []string{"text", "json"} {
			r := runHostile(t, []string{target("echo-token"), "COLUMNS=30"}, false, limit, "echo", "--output", out)
			if r.exit != 0 || strings.Contains(r.stdout+r.stderr, hostileToken) || strings.Contains(r.stdout, `\u0074`) ||
				strings.Count(r.stdout, "***") < 4 {
				t.Errorf("--output %s: exit %d, stdout %q", out, r.exit, r.stdout)
			}
		}
		u := strings.Replace(h.srv.URL, "http://", "http://agent:"+h.password+"@", 1)
		r := runHostile(t, []string{"AGENT_SHELL_TARGET=" + u + "/echo-password"}, false, limit, "echo")
		if r.exit != 0 || strings.Contains(r.stdout+r.stderr, h.password) || !strings.Contains(r.stdout, "***") {
			t.Errorf("URL password: exit %d, %q %q", r.exit, r.stdout, r.stderr)
		}
		// Without a token net/http sends the URL's userinfo as a basic
		// credential: echoed back, it is masked too.
		r = runHostile(t, []string{"AGENT_SHELL_TARGET=" + u + "/echo-token", "AGENT_SHELL_BEARER_TOKEN="}, false, limit,
			"echo", "--output", "json")
		if basic := base64.StdEncoding.EncodeToString([]byte("agent:" + h.password)); r.exit != 0 ||
			strings.Contains(r.stdout+r.stderr, basic) || !strings.Contains(r.stdout, `"auth": "Basic ***"`) {
			t.Errorf("URL password as a basic credential: exit %d, %q %q", r.exit, r.stdout, r.stderr)
		}
		r = runHostile(t, []string{"AGENT_SHELL_TARGET=" + u + "/shape-null"}, false, limit, "echo")
		if strings.Contains(r.stderr, h.password) || strings.Contains(r.stderr, "agent:") {
			t.Errorf("URL password in a message: %q", r.stderr)
		}
		// A token about to go over plain http:// off loopback: one warning
		// naming the host (the proxy is the hostile server).
		r = runHostile(t, []string{"AGENT_SHELL_TARGET=http://deploy.example/echo-ok", "HTTP_PROXY=" + h.srv.URL}, false, limit, "echo")
		if r.exit != 0 || r.stderr != "agsh: warning: the credential goes to deploy.example over plain http://, unencrypted; use https://\n"+sessionNone+"\n" {
			t.Errorf("plain http: exit %d, stderr %q", r.exit, r.stderr)
		}
		// GODEBUG=http2debug=2 over https/h2 prints no credential.
		tls := httptest.NewUnstartedServer(http.HandlerFunc(h.serve))
		tls.EnableHTTP2 = true
		tls.StartTLS()
		defer tls.Close()
		certFile := filepath.Join(t.TempDir(), "cert.pem")
		os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tls.Certificate().Raw}), 0o600)
		r = runHostile(t, []string{"AGENT_SHELL_TARGET=" + tls.URL + "/echo-token", "SSL_CERT_FILE=" + certFile,
			"GODEBUG=http2debug=2"}, false, limit, "echo")
		if r.exit != 0 || strings.Contains(r.stdout+r.stderr, hostileToken) {
			t.Errorf("http2debug: exit %d, token printed: %v", r.exit, strings.Contains(r.stdout+r.stderr, hostileToken))
		}
	})

	t.Run("terminal", func(t *testing.T) {
		if _, err := exec.LookPath("script"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("script (util-linux) is required in CI")
			}
			t.Skip("script not installed")
		}
		bin := builtAgsh(t)
		dir := t.TempDir()
		jqScript := filepath.Join(dir, "jq.agsh")
		os.WriteFile(jqScript, []byte("echo | jq '.t | error'\necho | jq '.c | halt_error'\necho | jq '.t | stderr | empty'\n"+
			"echo | jq '.t | debug | empty'\necho | jq -r .t\necho | jq -r '.t | input_filename'\n"), 0o600)
		runs := map[string]string{
			"help":       fmt.Sprintf("%s help", bin),
			"tool help":  fmt.Sprintf("%s help %s", bin, "evil\u202eexe.sh"),
			"flag help":  fmt.Sprintf("%s 'evil\u202eexe.sh' --help", bin),
			"jq outputs": fmt.Sprintf("%s < %s", bin, jqScript),
			"refusal":    fmt.Sprintf("%s echo", bin),
			"tool error": fmt.Sprintf("%s echo", bin),
			"text":       fmt.Sprintf("%s echo", bin),
		}
		modes := map[string]string{"jq outputs": "evil-jq", "refusal": "refuse-esc", "tool error": "iserror-esc", "text": "text-bidi"}
		for name, line := range runs {
			mode := "help"
			if m, ok := modes[name]; ok {
				mode = m
			}
			for _, color := range []string{"NO_COLOR=1", "CLICOLOR_FORCE=1"} {
				ctx, cancel := context.WithTimeout(context.Background(), limit)
				cmd := exec.CommandContext(ctx, "script", "-qec", line, "/dev/null")
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TERM=xterm-256color", color,
					"AGENT_SHELL_BEARER_TOKEN=" + hostileToken, target(mode), "COLUMNS=100"}
				if color == "CLICOLOR_FORCE=1" {
					cmd.Env = append(cmd.Env, "NO_COLOR=")
				}
				out, _ := cmd.CombinedOutput()
				cancel()
				s := string(out)
				if raw := rawFromDeployment.FindString(s); raw != "" {
					t.Errorf("%s (%s): raw %q reached the terminal:\n%q", name, color, raw, s)
				}
				if !strings.Contains(s, `\x1b]2;PWNED\x07`) {
					t.Errorf("%s (%s): the escaped text is missing:\n%q", name, color, s)
				}
			}
		}
		// The shell on a terminal: help, a tool's help and the completion
		// list of the deployment's names (raw bytes of the pane).
		t.Run("repl", func(t *testing.T) { hostileREPL(t, bin, target("help")) })
		// Help is agsh's page: escaped also when piped.
		r := runHostile(t, []string{target("help")}, false, limit, "help")
		if rawFromDeployment.MatchString(r.stdout) || strings.Contains(r.stdout, "\x1b") ||
			!strings.Contains(r.stdout, `evil\u202eexe.sh`) {
			t.Errorf("piped help: %q", r.stdout)
		}
	})
}

// rawFromDeployment finds what only a deployment's text could have put on
// the terminal: the payloads' own sequences, BEL, C1 controls and bidi
// overrides.
var rawFromDeployment = regexp.MustCompile("\x1b\\]2;|\x1b\\]52;|\x1b\\[2J|\a|\u009b|[\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff]")

// hostileREPL drives the interactive shell in tmux against the hostile
// help deployment and scans every byte the pane received (pipe-pane) for
// what only the deployment's text could have put there.
func hostileREPL(t *testing.T, bin, target string) {
	requireTmux(t)
	dir := t.TempDir()
	sock, raw := filepath.Join(dir, "tmux.sock"), filepath.Join(dir, "pane.raw")
	tm := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	line := fmt.Sprintf("env HOME=%q TERM=xterm-256color CLICOLOR_FORCE=1 AGENT_SHELL_BEARER_TOKEN=%s %q %q --continuation-token %s; sleep 30",
		dir, hostileToken, target, bin, shellQuote("tok\u202eevil\u200b"))
	tm("new-session", "-d", "-s", "h", "-x", "100", "-y", "60", line)
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	tm("pipe-pane", "-o", "-t", "h", "cat >> "+raw)
	s := &tmuxSession{t: t, name: "h", sock: sock}
	s.waitFor("hostile ❯")
	s.keys("help", "Enter")
	s.waitFor("COMMANDS")
	s.keys("clear", "Enter")
	s.keys("help evil\u202eexe.sh", "Enter")
	s.waitFor("SYNOPSIS")
	s.keys("ev", "Tab")
	s.waitFor("evbad")
	s.keys("C-u", "exit", "Enter")
	s.waitFor(`→ tok\u202eevil\u200b`) // the session line, as the banner, escaped
	out, _ := os.ReadFile(raw)
	if found := rawFromDeployment.FindString(string(out)); found != "" {
		t.Errorf("raw %q reached the terminal:\n%q", found, out)
	}
	for _, want := range []string{`\x1b]2;PWNED\x07`, `evil\u202eexe.sh`, `evbad\u009b2J`, `tok\u202eevil\u200b`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the escaped %s is missing:\n%q", want, out)
		}
	}
}

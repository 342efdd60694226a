//go:build linux

package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestHostileAttacks runs the attacks of docs/devserver.md#bounds at full
// size against the built binary and logs, per attack, the answers, the
// server's peak RSS (VmHWM of its /proc status) and the time. It moves
// gigabytes and holds a thousand connections, so it runs only when
// AGSH_HOSTILE_DEVSERVER is set (scripts/hostile-devserver.sh); the
// tests of internal/devserver check the same bounds at reduced sizes.
// AGSH_HOSTILE_DEVSERVER_BIN names another build to attack (a "before").
func TestHostileAttacks(t *testing.T) {
	if os.Getenv("AGSH_HOSTILE_DEVSERVER") == "" {
		t.Skip("moves gigabytes; scripts/hostile-devserver.sh runs it")
	}
	bin := os.Getenv("AGSH_HOSTILE_DEVSERVER_BIN")
	if bin == "" {
		bin = builtBinary(t)
	}
	only := os.Getenv("AGSH_HOSTILE_ONLY")
	for _, a := range []struct {
		name string
		run  func(t *testing.T, bin string)
	}{
		{"sessions", attackSessions},
		{"echo", attackEcho},
		{"faults", attackFaults},
		{"reads", attackReads},
		{"slowloris", attackSlowloris},
	} {
		if only != "" && !strings.Contains(","+only+",", ","+a.name+",") {
			continue
		}
		t.Run(a.name, func(t *testing.T) { a.run(t, bin) })
	}
}

// attackServer is one server process under attack.
type attackServer struct {
	cmd      *exec.Cmd
	executor string
	planner  string
}

func startAttacked(t *testing.T, bin, root string, args ...string) *attackServer {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--addr", "127.0.0.1:0", "--root", root}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	executor, planner := readStartup(t, stdout)
	return &attackServer{cmd: cmd, executor: executor, planner: planner}
}

// peakMiB is the process's peak resident set so far.
func (s *attackServer) peakMiB(t *testing.T) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb >> 10
		}
	}
	return -1
}

// statuses counts answers by status ("err" for a transport failure).
type statuses struct {
	mu sync.Mutex
	by map[string]int
}

func (s *statuses) add(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[string]int{}
	}
	s.by[k]++
}

func (s *statuses) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprint(s.by)
}

var attackClient = &http.Client{Timeout: 10 * time.Minute}

// post sends body (a reader of size n) and returns the status and up to
// 300 bytes of the answer.
func attackPost(url string, body io.Reader, n int64) (string, string) {
	req, _ := http.NewRequest(http.MethodPost, url, body)
	req.ContentLength = n
	req.Header.Set("Content-Type", "application/json")
	resp, err := attackClient.Do(req)
	if err != nil {
		return "err", err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	_, _ = io.Copy(io.Discard, resp.Body)
	return strconv.Itoa(resp.StatusCode), string(b)
}

// padded is a JSON body: prefix, a string of n 'x', suffix, without the
// whole body in the client's memory.
func padded(prefix string, n int, suffix string) (io.Reader, int64) {
	pad := io.LimitReader(repeatReader('x'), int64(n))
	return io.MultiReader(strings.NewReader(prefix), pad, strings.NewReader(suffix)), int64(len(prefix) + n + len(suffix))
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

func newSessionID(t *testing.T, agentURL string) string {
	t.Helper()
	st, body := attackPost(agentURL+"/v1/session", strings.NewReader(`{"message":"hostile"}`), -1)
	i := strings.Index(body, `"sessionId":"`)
	if st != "200" || i < 0 {
		t.Fatalf("new session: %s %s", st, body)
	}
	rest := body[i+13:]
	return rest[:strings.IndexByte(rest, '"')]
}

func report(t *testing.T, s *attackServer, what string, start time.Time, st *statuses) {
	t.Helper()
	code, _ := getStatus(s.executor + "/v1/info")
	t.Logf("attack %s: answers %s, peak RSS %d MiB, %s; afterwards GET /v1/info %s",
		what, st, s.peakMiB(t), time.Since(start).Round(time.Millisecond), code)
}

func getStatus(url string) (string, string) {
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get(url)
	if err != nil {
		return "err", err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	return strconv.Itoa(resp.StatusCode), string(b)
}

// attackSessions: 30 sessions, each bound to one 60 MB call of
// report_change_issue (its details recorded on the session), at once.
func attackSessions(t *testing.T, bin string) {
	s := startAttacked(t, bin, t.TempDir())
	ids := make([]string, 30)
	for i := range ids {
		ids[i] = newSessionID(t, s.executor)
	}
	start := time.Now()
	var st statuses
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			body, n := padded(`{"sessionId":"`+id+`","input":{"title":"t","details":"`, 60_000_000, `"}}`)
			code, _ := attackPost(s.executor+"/v1/tools/report_change_issue", body, n)
			st.add(code)
		})
	}
	wg.Wait()
	report(t, s, "30 sessions x one 60 MB call", start, &st)
}

// attackEcho: the same through an echo tool, whose result is its input.
func attackEcho(t *testing.T, bin string) {
	dir := t.TempDir()
	def := filepath.Join(dir, "blob.json")
	if err := os.WriteFile(def, []byte(`{"name":"echo","description":"d","inputSchema":{"type":"object"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startAttacked(t, bin, t.TempDir(), "--echo-tools", def)
	ids := make([]string, 30)
	for i := range ids {
		ids[i] = newSessionID(t, s.planner)
	}
	start := time.Now()
	var st statuses
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			body, n := padded(`{"sessionId":"`+id+`","input":{"pad":"`, 60_000_000, `"}}`)
			code, _ := attackPost(s.planner+"/v1/tools/blob_echo", body, n)
			st.add(code)
		})
	}
	wg.Wait()
	report(t, s, "30 sessions x one 60 MB echo call", start, &st)
}

// attackFaults: 12 faults armed at once, each with a 200 MB body.
func attackFaults(t *testing.T, bin string) {
	s := startAttacked(t, bin, t.TempDir())
	start := time.Now()
	var st statuses
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			body, n := padded(fmt.Sprintf(`{"route":"GET /v1/tools/x%d","body":"`, i), 200_000_000, `"}`)
			code, _ := attackPost(s.executor+"/v1/dev/faults", body, n)
			st.add(code)
		})
	}
	wg.Wait()
	report(t, s, "12 faults with 200 MB bodies", start, &st)
}

// attackReads: 8 reads at once of a 250 MB text file.
func attackReads(t *testing.T, bin string) {
	root := t.TempDir()
	line := strings.Repeat("abcdefghij", 9) + "\n"
	f, err := os.Create(filepath.Join(root, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := []byte(strings.Repeat(line, 10_000))
	for written := 0; written < 250_000_000; written += len(chunk) {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	s := startAttacked(t, bin, root)
	start := time.Now()
	var st statuses
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			code, body := attackPost(s.executor+"/v1/tools/read", strings.NewReader(`{"input":{"path":"/repo/big.txt","offset":1000}}`), -1)
			if code == "200" && !strings.Contains(body, `"isError":false`) {
				code = "200 isError"
			}
			st.add(code)
		})
	}
	wg.Wait()
	report(t, s, "8 reads of a 250 MB file", start, &st)
}

// attackSlowloris: 1,024 connections that each send a request's headers
// and then one body byte every 17 s, dialling again whenever the server
// closes one; meanwhile a client sends an ordinary request every 250 ms.
func attackSlowloris(t *testing.T, bin string) {
	s := startAttacked(t, bin, t.TempDir())
	addr := strings.TrimPrefix(strings.TrimSuffix(s.executor, "/executor"), "http://")
	start := time.Now()
	var open, redials atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	loris := func() {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return
		}
		open.Add(1)
		defer open.Add(-1)
		defer c.Close()
		_, _ = c.Write([]byte("POST /executor/v1/tools/read HTTP/1.1\r\nHost: " + addr +
			"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"))
		tick := time.NewTicker(17 * time.Second)
		defer tick.Stop()
		gone := make(chan struct{})
		go func() { _, _ = io.Copy(io.Discard, c); close(gone) }()
		for {
			select {
			case <-stop:
				return
			case <-gone:
				return
			case <-tick.C:
				if _, err := c.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}
	for range 1024 {
		wg.Go(func() {
			for {
				loris()
				select {
				case <-stop:
					return
				default:
					redials.Add(1)
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
	time.Sleep(2 * time.Second)
	var st statuses
	first := time.Duration(-1)
	for time.Since(start) < 75*time.Second {
		code, _ := getStatus(s.executor + "/v1/info")
		st.add(code)
		if code == "200" && first < 0 {
			first = time.Since(start)
		}
		time.Sleep(250 * time.Millisecond)
	}
	held := open.Load()
	close(stop)
	wg.Wait()
	firstText := "never"
	if first >= 0 {
		firstText = first.Round(time.Millisecond).String()
	}
	t.Logf("attack 1024 slow-loris connections for 75 s: ordinary GETs %s, first 200 after %s, attack connections open at the end %d, redials %d, peak RSS %d MiB",
		&st, firstText, held, redials.Load(), s.peakMiB(t))
}

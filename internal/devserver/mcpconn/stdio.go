package mcpconn

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mattn/go-shellwords"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioSpec is one parsed --mcp flag.
type stdioSpec struct {
	name string   // the connection name
	argv []string // the command and its arguments
}

// parseMCPFlag parses "NAME=COMMAND ARGS…". The command line is split like a
// shell line (quotes and backslashes), but nothing is expanded or run by a
// shell: no variables, no backticks, no operators.
func parseMCPFlag(flag string) (stdioSpec, error) {
	name, line, ok := strings.Cut(flag, "=")
	if !ok {
		return stdioSpec{}, fmt.Errorf("--mcp %q: want NAME=COMMAND ARGS…", flag)
	}
	if name == "" {
		return stdioSpec{}, fmt.Errorf("--mcp %q: the connection name before '=' is empty", flag)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return stdioSpec{}, fmt.Errorf("--mcp %q: connection name %q may hold only letters, digits, '_', '-' and '.'", flag, name)
		}
	}
	p := shellwords.NewParser()
	p.ParseBacktick = false
	p.ParseEnv = false
	argv, err := p.Parse(line)
	if err != nil {
		return stdioSpec{}, fmt.Errorf("--mcp %q: unbalanced quotes in the command", flag)
	}
	if p.Position >= 0 {
		return stdioSpec{}, fmt.Errorf("--mcp %q: the command holds an unquoted shell operator (;, &, |, < or >); no shell runs it, quote the character", flag)
	}
	if len(argv) == 0 || argv[0] == "" {
		return stdioSpec{}, fmt.Errorf("--mcp %q: the command after '=' is empty", flag)
	}
	return stdioSpec{name: name, argv: argv}, nil
}

// terminateWait is how long Close waits for a stdio server to exit after its
// standard input closes, before killing it.
const terminateWait = 2 * time.Second

// startStdio spawns the server of spec and makes a client session with it.
// The process runs in its own process group, killed as a whole on close
// (npx, for one, runs the server as a grandchild). Its standard output is
// filtered (lines.go). A failure carries the tail of the server's standard
// error.
//
// timeout bounds the handshake; 0 leaves it to ctx (a start in the
// background, ended by the deployment's close).
func startStdio(ctx context.Context, spec stdioSpec, timeout time.Duration, logf func(string, ...any)) (*conn, error) {
	stderr := &tailBuffer{max: 2048}
	t := &stdioTransport{argv: spec.argv, name: spec.name, stderr: stderr, logf: logf}
	cctx, cancel := context.WithCancel(ctx)
	if timeout > 0 {
		cctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	// A server that does not answer in time is killed at once rather than
	// after a polite shutdown.
	stop := context.AfterFunc(cctx, t.kill)
	session, capture, err := dial(cctx, t)
	if !stop() && err == nil {
		_ = session.Close()
		err = cctx.Err()
	}
	if err != nil {
		t.kill()
		if cctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("no MCP answer within %s", timeout)
		}
		return nil, withStderr(fmt.Errorf("starting %q: %w", strings.Join(spec.argv, " "), err), stderr)
	}
	t.mu.Lock()
	exited := t.exited
	t.mu.Unlock()
	return &conn{name: spec.name, session: session, capture: capture, pid: t.pid(), stderr: stderr, exited: exited, cleanup: func() error {
		t.kill()
		return nil
	}}, nil
}

// stdioTransport runs a server command and speaks newline-delimited JSON
// with it over its standard input and a filtered standard output.
type stdioTransport struct {
	argv   []string
	name   string
	stderr io.Writer
	logf   func(string, ...any)

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed once the process is reaped
}

// Connect implements mcp.Transport: it starts the process, its reaper and
// the filter of its standard output.
func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd := exec.Command(t.argv[0], t.argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, t.stderr
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	// The child holds its ends now.
	inR.Close()
	outW.Close()
	exited := make(chan struct{})
	t.mu.Lock()
	t.cmd, t.exited = cmd, exited
	t.mu.Unlock()
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	pr, pw := io.Pipe()
	f := &lineFilter{name: t.name, logf: t.logf}
	go func() {
		f.run(outR, pw)
		outR.Close()
	}()
	tr := &mcp.IOTransport{Reader: pr, Writer: &stdinCloser{w: inW, t: t}, MaxLineLength: -1}
	return tr.Connect(ctx)
}

// pid is the process id, 0 before the start.
func (t *stdioTransport) pid() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cmd == nil || t.cmd.Process == nil {
		return 0
	}
	return t.cmd.Process.Pid
}

// kill kills what is left of the process group; nothing before the start.
func (t *stdioTransport) kill() {
	if pid := t.pid(); pid > 0 {
		killProcessGroup(pid)
	}
}

// stdinCloser is the server's standard input; closing it ends the server
// as the MCP stdio transport says: close its input, wait for it to exit,
// then kill it.
type stdinCloser struct {
	w    *os.File
	t    *stdioTransport
	once sync.Once
}

func (s *stdinCloser) Write(p []byte) (int, error) { return s.w.Write(p) }

func (s *stdinCloser) Close() error {
	s.once.Do(func() {
		_ = s.w.Close()
		s.t.mu.Lock()
		exited := s.t.exited
		s.t.mu.Unlock()
		if exited == nil {
			return
		}
		select {
		case <-exited:
		case <-time.After(terminateWait):
			s.t.kill()
		}
	})
	return nil
}

// withStderr appends what the server's standard error says to err: the
// line that says what happened (stderrSummary).
func withStderr(err error, stderr *tailBuffer) error {
	if said := stderr.String(); said != "" {
		return fmt.Errorf("%w; its standard error says: %s", err, said)
	}
	return err
}

// tailBuffer keeps the first head bytes written to it and the last max: a
// crashed server's first words ("panic: …") come before kilobytes of
// stack, and its last words after them.
type tailBuffer struct {
	mu    sync.Mutex
	max   int
	first []byte // up to stderrHead bytes, the start of standard error
	buf   []byte // the last max bytes after first
	cut   bool   // bytes were dropped between first and buf
}

// stderrHead is how much of the start of a server's standard error is kept.
const stderrHead = 8 << 10

// Write implements io.Writer; it never fails.
func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	if room := stderrHead - len(b.first); room > 0 {
		k := min(room, len(p))
		b.first = append(b.first, p[:k]...)
		p = p[k:]
	}
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
		b.cut = true
	}
	return n, nil
}

// String is what the kept standard error says, on one line
// (stderrSummary), "" when it is empty.
func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var lines []string
	add := func(s string) {
		s = strings.ToValidUTF8(s, "?")
		for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
			lines = append(lines, strings.Map(func(r rune) rune {
				if r < ' ' || r == 0x7f {
					return ' '
				}
				return r
			}, l))
		}
	}
	add(string(b.first))
	if len(b.buf) > 0 {
		tail := string(b.buf)
		if b.cut {
			// The tail begins inside a line: that part line is no line.
			if i := strings.IndexByte(tail, '\n'); i >= 0 {
				tail = tail[i+1:]
			} else {
				tail = ""
			}
			lines = append(lines, "…")
		} else if len(lines) > 0 && !strings.HasSuffix(string(b.first), "\n") {
			// first ended inside a line that buf goes on with.
			last := lines[len(lines)-1]
			lines = lines[:len(lines)-1]
			tail = last + tail
		}
		add(tail)
	}
	return stderrSummary(lines)
}

// stderrSummary says on one line (" | " between lines) what a server's
// standard error says: the first line that says what happened (a Go
// "panic:" or "fatal error:", a Rust "panicked at", an "Error:" or
// "…Error: …" line of Node or Python, "Traceback" left aside as Python's
// last line says it) and at most stderrAfter lines after it; without such
// a line, its last stderrAfter+1 lines. A line is never cut inside a word:
// one longer than maxStderrLine cells ends at a space, with "…".
func stderrSummary(lines []string) string {
	var kept []string
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	from := -1
	for i, l := range kept {
		if saysWhatHappened(l) {
			from = i
			break
		}
	}
	var out []string
	if from >= 0 {
		out = kept[from:min(len(kept), from+1+stderrAfter)]
	} else {
		out = kept[max(0, len(kept)-1-stderrAfter):]
	}
	if len(out) > 0 && out[0] == "…" {
		out = out[1:]
	}
	for i, l := range out {
		out[i] = cutAtSpace(l, maxStderrLine)
	}
	return strings.Join(out, " | ")
}

// stderrAfter is how many lines follow the one that says what happened.
const stderrAfter = 3

// maxStderrLine is the longest line of a summary, in bytes.
const maxStderrLine = 4 << 10

// saysWhatHappened reports a line of standard error that names a failure.
func saysWhatHappened(l string) bool {
	for _, p := range []string{"panic:", "fatal error:", "fatal:", "Error:", "error:", "ERROR", "Uncaught ", "Unhandled "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	if strings.HasPrefix(l, "thread '") && strings.Contains(l, "panicked at") {
		return true
	}
	// TypeError: …, ModuleNotFoundError: …, java.lang.IllegalStateException: …
	if head, _, ok := strings.Cut(l, ": "); ok && !strings.ContainsAny(head, " \t") &&
		(strings.HasSuffix(head, "Error") || strings.HasSuffix(head, "Exception")) {
		return true
	}
	return false
}

// cutAtSpace shortens s to at most n bytes at its last space before n,
// ending it with "…"; a first word longer than n is kept whole up to n.
func cutAtSpace(s string, n int) string {
	if len(s) <= n {
		return s
	}
	t := s[:n]
	if i := strings.LastIndexByte(t, ' '); i > 0 {
		t = t[:i]
	} else {
		for len(t) > 0 && !utf8.RuneStart(s[len(t)]) {
			t = t[:len(t)-1]
		}
	}
	return strings.TrimRight(t, " ") + " …"
}

// started is the outcome of starting one --mcp server.
type started struct {
	spec   stdioSpec
	conn   *conn
	listed []listedTool
	err    error
	// late, when set, is where the outcome arrives: the server was not
	// ready within the start timeout and goes on starting.
	late  <-chan started
	began time.Time // when its start began
}

// startAll starts every --mcp server in parallel and waits for each at
// most timeout for the handshake and the listing; the outcomes come in flag
// order. A server not ready by then is not stopped: its outcome has late
// set, where the outcome arrives once it is known (ctx ends such a start).
func startAll(ctx context.Context, specs []stdioSpec, timeout time.Duration, logf func(string, ...any)) []started {
	out := make([]started, len(specs))
	var wg sync.WaitGroup
	for i, spec := range specs {
		done := make(chan started, 1)
		began := time.Now()
		go func() { done <- startOne(ctx, spec, logf) }()
		wg.Go(func() {
			t := time.NewTimer(timeout)
			defer t.Stop()
			select {
			case out[i] = <-done:
			case <-t.C:
				out[i] = started{spec: spec, late: done, began: began}
			}
		})
	}
	wg.Wait()
	return out
}

// startOne starts and lists one --mcp server, for as long as ctx lasts.
func startOne(ctx context.Context, spec stdioSpec, logf func(string, ...any)) started {
	r := started{spec: spec}
	c, err := startStdio(ctx, spec, 0, logf)
	if err != nil {
		r.err = err
		return r
	}
	listed, err := c.listTools(ctx)
	if err != nil {
		_ = c.close()
		r.err = err
		return r
	}
	r.conn, r.listed = c, listed
	return r
}

package mcpconn

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

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
// standard input closes, before signalling it.
const terminateWait = 2 * time.Second

// startStdio spawns the server of spec and makes a client session with it.
// The process runs in its own process group, killed as a whole on close
// (npx, for one, runs the server as a grandchild). A failure carries the tail
// of the server's standard error.
func startStdio(ctx context.Context, spec stdioSpec, timeout time.Duration) (*conn, error) {
	cmd := exec.Command(spec.argv[0], spec.argv[1:]...)
	stderr := &tailBuffer{max: 2048}
	cmd.Stderr = stderr
	setProcessGroup(cmd)
	p := &process{}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// A server that does not answer in time is killed at once rather than
	// after the SDK's polite shutdown.
	stop := context.AfterFunc(cctx, p.kill)
	session, capture, err := dial(cctx, &processTransport{CommandTransport: mcp.CommandTransport{Command: cmd, TerminateDuration: terminateWait}, proc: p})
	if !stop() && err == nil {
		_ = session.Close()
		err = cctx.Err()
	}
	if err != nil {
		p.kill()
		if cctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("no MCP answer within %s", timeout)
		}
		return nil, withStderr(fmt.Errorf("starting %q: %w", strings.Join(spec.argv, " "), err), stderr)
	}
	return &conn{name: spec.name, session: session, capture: capture, pid: p.id(), cleanup: func() error {
		p.kill()
		return nil
	}}, nil
}

// process is a started server's process id, shared with the goroutine that
// kills it when start-up takes too long.
type process struct {
	mu  sync.Mutex
	pid int
}

func (p *process) set(pid int) {
	p.mu.Lock()
	p.pid = pid
	p.mu.Unlock()
}

func (p *process) id() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pid
}

// kill kills what is left of the process group; nothing before the start.
func (p *process) kill() {
	if pid := p.id(); pid > 0 {
		killProcessGroup(pid)
	}
}

// processTransport is a CommandTransport that records the process id.
type processTransport struct {
	mcp.CommandTransport
	proc *process
}

// Connect starts the command (see mcp.CommandTransport) and records its id.
func (t *processTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.CommandTransport.Connect(ctx)
	if err == nil && t.Command.Process != nil {
		t.proc.set(t.Command.Process.Pid)
	}
	return c, err
}

// withStderr appends the server's last standard error line(s) to err.
func withStderr(err error, stderr *tailBuffer) error {
	if tail := stderr.String(); tail != "" {
		return fmt.Errorf("%w; its standard error ends: %s", err, tail)
	}
	return err
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write implements io.Writer; it never fails.
func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

// String returns the kept bytes, trimmed, with line breaks shown as " | ".
func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := strings.TrimSpace(strings.ToValidUTF8(string(b.buf), "?"))
	s = strings.Join(strings.Split(s, "\n"), " | ")
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// started is the outcome of starting one --mcp server.
type started struct {
	spec   stdioSpec
	conn   *conn
	listed []listedTool
	err    error
}

// startAll starts every --mcp server in parallel, each with its own
// start-up budget covering the handshake and the listing, and answers the
// outcomes in flag order.
func startAll(ctx context.Context, specs []stdioSpec, timeout time.Duration) []started {
	out := make([]started, len(specs))
	var wg sync.WaitGroup
	for i, spec := range specs {
		wg.Go(func() {
			out[i] = startOne(ctx, spec, timeout)
		})
	}
	wg.Wait()
	return out
}

// startOne starts and lists one --mcp server.
func startOne(ctx context.Context, spec stdioSpec, timeout time.Duration) started {
	r := started{spec: spec}
	deadline := time.Now().Add(timeout)
	c, err := startStdio(ctx, spec, timeout)
	if err != nil {
		r.err = err
		return r
	}
	lctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	listed, err := c.listTools(lctx)
	if err != nil {
		_ = c.close()
		r.err = err
		return r
	}
	r.conn, r.listed = c, listed
	return r
}

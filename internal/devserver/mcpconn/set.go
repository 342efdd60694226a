package mcpconn

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// Config is what the development server's flags say about connections.
type Config struct {
	// MCP holds each --mcp flag, "NAME=COMMAND ARGS…", the command split like
	// a shell line (quotes, backslashes; nothing expanded, no shell).
	MCP []string
	// EchoTools holds each --echo-tools flag: a JSON tool definition file or
	// a directory of them.
	EchoTools []string
	// Logf receives startup reports: a server that fails to start or to
	// list, a bad echo file, a tool name already taken. Nil discards them.
	Logf func(format string, args ...any)
	// StartTimeout is how long Start waits for one --mcp server to start
	// and list its tools (--mcp-start-timeout); zero means
	// DefaultStartTimeout. A server not ready by then keeps starting in the
	// background, and its tools are handed to OnLate when it is ready. It
	// also bounds each restart of a connection that died.
	StartTimeout time.Duration
	// RestartBackoff is the first wait after a failed restart of a
	// connection that died; zero means DefaultRestartBackoff.
	RestartBackoff time.Duration
}

// DefaultStartTimeout is how long the start waits for one --mcp server: a
// slow server delays start-up by that much at most, then goes on starting
// in the background.
const DefaultStartTimeout = 30 * time.Second

// Set is the running connections of a development deployment.
type Set struct {
	mu       sync.Mutex
	conns    []*conn
	executor []*tool.Tool // datadog
	planner  []*tool.Tool // datadog, the --mcp servers, the echo tools
	names    *nameSet
	onLate   func([]*tool.Tool) // gets the planner tools of a server ready late
	late     []*tool.Tool       // such tools ready before OnLate was called
	stopLate context.CancelFunc // ends the starts still going on
	starting sync.WaitGroup     // the starts going on in the background
	pending  []string           // the connections of those starts, in flag order
	onStart  func([]string)     // gets pending whenever it changes
	notifyMu sync.Mutex         // onStart gets the lists in the order they came
	closeMu  sync.Mutex
	closed   bool
}

// Start parses the flags of cfg, then starts every connection: datadog, the
// --mcp servers (in parallel) and the echo tools. It fails only for
// malformed flags; a connection that fails to start or to list is reported
// through cfg.Logf and its tools are absent.
func Start(ctx context.Context, cfg Config) (*Set, error) {
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	specs, err := parseMCPFlags(cfg.MCP)
	if err != nil {
		return nil, err
	}
	for _, p := range cfg.EchoTools {
		if p == "" {
			return nil, errors.New("--echo-tools: the path is empty")
		}
	}
	timeout := cfg.StartTimeout
	if timeout <= 0 {
		timeout = DefaultStartTimeout
	}

	lateCtx, stopLate := context.WithCancel(ctx)
	s := &Set{stopLate: stopLate}
	names := newNameSet(logf)
	s.names = names

	dd, err := startDatadog(ctx)
	if err != nil {
		logf("mcp datadog: %v; its tools are absent", err)
	} else if tools, err := dd.tools(ctx, names); err != nil {
		logf("mcp datadog: %v; its tools are absent", err)
		_ = dd.close()
	} else {
		s.conns = append(s.conns, dd)
		s.executor = tools
		s.planner = append(s.planner, tools...)
	}

	backoff := cfg.RestartBackoff
	if backoff <= 0 {
		backoff = DefaultRestartBackoff
	}
	for _, r := range startAll(lateCtx, specs, timeout, logf) {
		if r.late != nil {
			logf("mcp %s: not ready within %s (--mcp-start-timeout); it keeps starting, and its tools appear when it is ready", r.spec.name, timeout)
			s.starting.Add(1)
			s.mu.Lock()
			s.pending = append(s.pending, r.spec.name)
			s.mu.Unlock()
			go s.finishLate(r, timeout, backoff, logf)
			continue
		}
		if r.err != nil {
			logf("mcp %s: %v; its tools are absent", r.spec.name, r.err)
			continue
		}
		spec := r.spec
		r.conn.enableRestart(func(ctx context.Context) (*conn, error) {
			return startStdio(ctx, spec, timeout, logf)
		}, backoff, logf)
		s.conns = append(s.conns, r.conn)
		s.planner = append(s.planner, r.conn.makeTools(r.listed, names)...)
	}

	if len(cfg.EchoTools) > 0 {
		ec, err := startEcho(ctx, cfg.EchoTools, logf)
		if err != nil {
			logf("mcp echo: %v; its tools are absent", err)
		} else if tools, err := ec.tools(ctx, names); err != nil {
			logf("mcp echo: %v; its tools are absent", err)
			_ = ec.close()
		} else {
			s.conns = append(s.conns, ec)
			s.planner = append(s.planner, tools...)
		}
	}
	return s, nil
}

// parseMCPFlags parses every --mcp flag and refuses duplicate or reserved
// connection names.
func parseMCPFlags(flags []string) ([]stdioSpec, error) {
	specs := make([]stdioSpec, 0, len(flags))
	seen := map[string]string{datadogConnection: "the built-in datadog connection", echoConnection: "the --echo-tools connection"}
	for _, f := range flags {
		spec, err := parseMCPFlag(f)
		if err != nil {
			return nil, err
		}
		key := sanitizeName(spec.name)
		if prev, ok := seen[key]; ok {
			return nil, fmt.Errorf("--mcp %q: connection name %q is already used by %s", f, spec.name, prev)
		}
		seen[key] = fmt.Sprintf("--mcp %q", f)
		specs = append(specs, spec)
	}
	return specs, nil
}

// finishLate waits for a --mcp server that missed the start timeout: once
// it is ready its tools join the planner's and go to OnLate, and the log
// says so; a server that fails (or the deployment closing first) is logged
// and left out.
func (s *Set) finishLate(r started, timeout, backoff time.Duration, logf func(string, ...any)) {
	defer s.starting.Done()
	// Once its tools are served (or it failed), it is no longer starting:
	// after the tools, so that it is never neither.
	defer s.started(r.spec.name)
	began := r.began
	r = <-r.late
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		if r.conn != nil {
			_ = r.conn.close()
		}
		return
	}
	if r.err != nil {
		s.mu.Unlock()
		logf("mcp %s: %v; its tools are absent", r.spec.name, r.err)
		return
	}
	spec := r.spec
	r.conn.enableRestart(func(ctx context.Context) (*conn, error) {
		return startStdio(ctx, spec, timeout, logf)
	}, backoff, logf)
	s.conns = append(s.conns, r.conn)
	tools := r.conn.makeTools(r.listed, s.names)
	s.planner = append(s.planner, tools...)
	handler := s.onLate
	if handler == nil {
		s.late = append(s.late, tools...)
	}
	s.mu.Unlock()
	if handler != nil {
		handler(tools)
	}
	logf("mcp %s: ready after %s; its %d tools are served from now on", spec.name, time.Since(began).Round(100*time.Millisecond), len(tools))
}

// started takes a finished start off the pending list and tells onStart.
func (s *Set) started(name string) {
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	s.mu.Lock()
	s.pending = slices.DeleteFunc(slices.Clone(s.pending), func(n string) bool { return n == name })
	f, now := s.onStart, s.pending
	s.mu.Unlock()
	if f != nil {
		f(now)
	}
}

// Starting names the --mcp connections still starting in the background
// (not ready within the start timeout), in flag order.
func (s *Set) Starting() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.pending)
}

// OnStarting sets what gets the connections still starting whenever that
// changes, and calls it at once with the current ones: one call at a time,
// in the order the changes came.
func (s *Set) OnStarting(f func(connections []string)) {
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	s.mu.Lock()
	s.onStart = f
	now := slices.Clone(s.pending)
	s.mu.Unlock()
	if f != nil {
		f(now)
	}
}

// OnLate sets what gets the planner tools of a --mcp server that becomes
// ready after the start (tools that became ready before are handed over
// at once). A tool may reach it that Tools already answered: the
// deployment skips those.
func (s *Set) OnLate(f func(tools []*tool.Tool)) {
	s.mu.Lock()
	s.onLate = f
	early := s.late
	s.late = nil
	s.mu.Unlock()
	if len(early) > 0 && f != nil {
		f(early)
	}
}

// Tools returns the tools of an agent: "executor" gets datadog's,
// "planner" datadog's, every --mcp server's and the echo tools; any other
// agent none. The slice is the caller's; the tools are shared.
func (s *Set) Tools(agent string) []*tool.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch agent {
	case "executor":
		return append([]*tool.Tool(nil), s.executor...)
	case "planner":
		return append([]*tool.Tool(nil), s.planner...)
	}
	return nil
}

// Close ends every session and kills what is left of the --mcp server
// processes (their whole process groups). Calls made afterwards answer an
// error result. A server that exits uncleanly is not an error: Close always
// returns nil, and is safe to call more than once.
func (s *Set) Close() error {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if s.closed {
		return nil
	}
	s.mu.Lock()
	s.closed = true
	conns := s.conns
	s.mu.Unlock()
	s.stopLate() // a start still going on ends, its process killed
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { _ = c.close() })
	}
	wg.Wait()
	s.starting.Wait()
	return nil
}

package mcpconn

import (
	"context"
	"errors"
	"fmt"
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
	// StartTimeout bounds how long one --mcp server may take to start and
	// list its tools (and to restart); zero means DefaultStartTimeout.
	StartTimeout time.Duration
	// RestartBackoff is the first wait after a failed restart of a
	// connection that died; zero means DefaultRestartBackoff.
	RestartBackoff time.Duration
}

// DefaultStartTimeout is the start-up budget of one --mcp server: a silent
// server delays start-up by that much at most, then is reported absent.
const DefaultStartTimeout = 10 * time.Second

// Set is the running connections of a development deployment.
type Set struct {
	conns    []*conn
	executor []*tool.Tool // datadog
	planner  []*tool.Tool // datadog, the --mcp servers, the echo tools
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

	s := &Set{}
	names := newNameSet(logf)

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
	for _, r := range startAll(ctx, specs, timeout, logf) {
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

// Tools returns the tools of an agent: "executor" gets datadog's,
// "planner" datadog's, every --mcp server's and the echo tools; any other
// agent none. The slice is the caller's; the tools are shared.
func (s *Set) Tools(agent string) []*tool.Tool {
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
	s.closed = true
	var wg sync.WaitGroup
	for _, c := range s.conns {
		wg.Go(func() { _ = c.close() })
	}
	wg.Wait()
	return nil
}

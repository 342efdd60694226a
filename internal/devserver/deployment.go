package devserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/fstools"
	"github.com/agsh-dev/agsh/internal/devserver/mcpconn"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// The agents of the development deployment (docs/devserver.md#agents).
const (
	ExecutorSlug        = "executor"
	ExecutorName        = "change-monitor-executor"
	ExecutorDescription = "Executes monitoring plans against changed code."
	PlannerSlug         = "planner"
	PlannerName         = "change-monitor-planner"
	PlannerDescription  = "Plans how changed code is monitored: which monitors a change touches and what to check."
	// RootMount is where Options.Root appears in the workspace.
	RootMount = "/repo"
)

// DefaultMCPStartTimeout is how long the start waits for each --mcp server
// unless --mcp-start-timeout says otherwise.
const DefaultMCPStartTimeout = mcpconn.DefaultStartTimeout

// Options configures the development deployment as agsh-devserver's flags
// do.
type Options struct {
	Addr string // listen address; "" means 127.0.0.1:0
	Root string // the workspace root, mounted at /repo; "" means "."
	// Mounts are more mounts beside /repo (--mount /path=DIR).
	Mounts         []tool.Mount
	BearerTokens   []string
	AllowAnonymous bool
	MCP            []string // --mcp 'NAME=COMMAND ARGS…'
	// MCPStartTimeout is how long the start waits for each --mcp server
	// (--mcp-start-timeout); zero means mcpconn.DefaultStartTimeout. A
	// server not ready by then keeps starting, and its tools join the
	// planner's when it is ready.
	MCPStartTimeout time.Duration
	EchoTools       []string // --echo-tools PATH
	StateDir        string
	// ControlPlane turns on the control-plane mode (--cp-team, --cp-key,
	// --control-plane).
	ControlPlane ControlPlane
	Logf         func(format string, args ...any)
	// MaxConns, BodyStallTimeout and BodyTimeout bound connections and
	// request bodies (Config); zero means the defaults.
	MaxConns         int
	BodyStallTimeout time.Duration
	BodyTimeout      time.Duration
	// ClockOffset moves the clock of the session rows and the records'
	// events (--clock-offset; Config.ClockOffset).
	ClockOffset time.Duration
	// DemoSessions starts this many demo sessions on the executor
	// (--demo-sessions; StartDemoSessions).
	DemoSessions int
}

// Build composes the deployment: the executor gets the workspace file
// tools over the mounts, the authored JSON tools and the datadog
// connection; the planner gets the connection tools (datadog, every --mcp
// server, the echo tools). The server is returned unstarted; the cleanup
// function closes it and ends the MCP connections. A connection that fails
// to start is logged and left out; one not ready within the start timeout
// joins the planner's listing when it is ready; bad options are an error.
func Build(ctx context.Context, opts Options) (*Server, func() error, error) {
	opts.Logf = SafeLogf(opts.Logf)
	mounts, err := workspaceMounts(opts.Root, opts.Mounts)
	if err != nil {
		return nil, nil, err
	}
	set, err := mcpconn.Start(ctx, mcpconn.Config{MCP: opts.MCP, EchoTools: opts.EchoTools, Logf: opts.Logf, StartTimeout: opts.MCPStartTimeout})
	if err != nil {
		return nil, nil, err
	}
	executor := append(fstools.Tools(mounts), JSONTools()...)
	executor = append(executor, set.Tools(ExecutorSlug)...)
	s, err := New(Config{
		Addr: opts.Addr,
		Agents: []AgentConfig{
			{Slug: ExecutorSlug, Name: ExecutorName, Description: ExecutorDescription, Tools: executor},
			{Slug: PlannerSlug, Name: PlannerName, Description: PlannerDescription, Tools: set.Tools(PlannerSlug)},
		},
		BearerTokens:   opts.BearerTokens,
		AllowAnonymous: opts.AllowAnonymous,
		StateDir:       opts.StateDir,
		ControlPlane:   opts.ControlPlane,
		Logf:           opts.Logf,

		MaxConns:         opts.MaxConns,
		BodyStallTimeout: opts.BodyStallTimeout,
		BodyTimeout:      opts.BodyTimeout,
		ClockOffset:      opts.ClockOffset,
	})
	if err != nil {
		_ = set.Close()
		return nil, nil, err
	}
	set.OnLate(func(tools []*tool.Tool) {
		if err := s.AddTools(PlannerSlug, tools); err != nil {
			opts.Logf("%v", err)
		}
	})
	set.OnStarting(func(names []string) { _ = s.SetStarting(PlannerSlug, names) })
	cleanup := func() error {
		err := s.Close()
		return errors.Join(err, set.Close())
	}
	if opts.DemoSessions != 0 {
		if _, err := s.StartDemoSessions(ExecutorSlug, opts.DemoSessions); err != nil {
			_ = cleanup()
			return nil, nil, err
		}
	}
	return s, cleanup, nil
}

// workspaceMounts resolves the root and the extra mounts to absolute
// directories that exist, /repo first.
func workspaceMounts(root string, extra []tool.Mount) ([]tool.Mount, error) {
	if root == "" {
		root = "."
	}
	dir, err := existingDir(root)
	if err != nil {
		return nil, fmt.Errorf("--root: %w", err)
	}
	mounts := []tool.Mount{{Path: RootMount, Dir: dir}}
	seen := map[string]bool{RootMount: true}
	for _, m := range extra {
		p := path.Clean(m.Path)
		if !strings.HasPrefix(m.Path, "/") || p == "/" {
			return nil, fmt.Errorf("--mount %s=%s: the mount path must be absolute and not /", m.Path, m.Dir)
		}
		if seen[p] {
			return nil, fmt.Errorf("--mount %s=%s: %s is already mounted", m.Path, m.Dir, p)
		}
		seen[p] = true
		d, err := existingDir(m.Dir)
		if err != nil {
			return nil, fmt.Errorf("--mount %s=%s: %w", m.Path, m.Dir, err)
		}
		mounts = append(mounts, tool.Mount{Path: p, Dir: d})
	}
	return mounts, nil
}

// existingDir makes dir absolute and checks it is a directory.
func existingDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "", fmt.Errorf("%s: %w", dir, pe.Err)
	}
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	return abs, nil
}

// ParseMount parses a --mount value, "/path=DIR".
func ParseMount(spec string) (tool.Mount, error) {
	p, dir, ok := strings.Cut(spec, "=")
	if !ok || p == "" || dir == "" {
		return tool.Mount{}, fmt.Errorf("--mount %q: expected /path=DIR", spec)
	}
	if !strings.HasPrefix(p, "/") {
		return tool.Mount{}, fmt.Errorf("--mount %q: the mount path must start with /", spec)
	}
	return tool.Mount{Path: p, Dir: dir}, nil
}

package devserver

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
)

// AgentConfig describes one agent of the host: its URL slug (the mount,
// "/executor"), the name and description of its /v1/info document, and its
// tools in listing order.
type AgentConfig struct {
	Slug        string
	Name        string
	Description string
	Tools       []*tool.Tool
}

// Config configures a Server.
type Config struct {
	// Addr is the listen address; "" means 127.0.0.1:0 (a free port).
	Addr   string
	Agents []AgentConfig
	// BearerTokens, when any, are required on every request; each is its own
	// principal.
	BearerTokens []string
	// AllowAnonymous admits non-loopback callers without a token.
	AllowAnonymous bool
	// StateDir, when set, persists sessions as JSON files across restarts.
	StateDir string
	// ControlPlane, when enabled, serves production-name resolution and the
	// agents under /internal/agentsdk/deployments (controlplane.go).
	ControlPlane ControlPlane
	// Logf receives one line per request and every problem; nil discards.
	Logf func(format string, args ...any)
	// MaxConns caps the connections open at once (0: DefaultMaxConns).
	MaxConns int
	// BodyStallTimeout bounds how long a request body may send nothing
	// (0: DefaultBodyStallTimeout).
	BodyStallTimeout time.Duration
	// BodyTimeout bounds how long a whole request body may take, plus a
	// second per MiB (0: DefaultBodyTimeout).
	BodyTimeout time.Duration
	// MaxStreams and MaxStreamsPerPrincipal cap the open session streams
	// (0: DefaultMaxStreams, DefaultMaxStreamsPerPrincipal).
	MaxStreams             int
	MaxStreamsPerPrincipal int
	// ClockOffset moves the deployment's clock, which stamps the session
	// rows and the records' events, this far from the real one (negative:
	// behind), to see ages without waiting (--clock-offset).
	ClockOffset time.Duration

	// streams, when set, replaces the streams' write timeout, heartbeat
	// and send buffer (tests).
	streams *streamTiming
}

// Server is a running (or ready to run) development deployment.
type Server struct {
	agents []*agent
	bySlug map[string]*agent
	auth   *authPolicy
	browse browserPolicy
	cp     *controlPlane // nil: the control-plane mode is off
	logf   func(string, ...any)
	addr   string

	maxConns    int
	stall       time.Duration
	bodyTimeout time.Duration

	handler http.Handler
	done    chan struct{} // closed by Close: ends hangs and delays
	hub     *hub          // the agents' turns and streams

	mu        sync.Mutex
	ln        net.Listener
	srv       *http.Server
	url       string
	host      string // url's host
	closeOnce sync.Once
	closeErr  error
	demoOwn   string // the operator's own demo session (StartDemoSessions)
}

// New checks the configuration, loads persisted sessions, and prepares the
// agents. It does not listen; Start does.
func New(cfg Config) (*Server, error) {
	if len(cfg.Agents) == 0 {
		return nil, errors.New("devserver: no agents configured")
	}
	logf := SafeLogf(cfg.Logf)
	auth, err := newAuthPolicy(cfg.BearerTokens, cfg.AllowAnonymous)
	if err != nil {
		return nil, err
	}
	s := &Server{
		bySlug: map[string]*agent{},
		auth:   auth,
		logf:   logf,
		addr:   cfg.Addr,
		done:   make(chan struct{}),
		hub:    newHub(cfg.MaxStreams, cfg.MaxStreamsPerPrincipal),
	}
	s.hub.clock = clock{offset: cfg.ClockOffset}
	if cfg.streams != nil {
		s.hub.streams.timing = *cfg.streams
	}
	if s.addr == "" {
		s.addr = "127.0.0.1:0"
	}
	s.maxConns, s.stall, s.bodyTimeout = cfg.MaxConns, cfg.BodyStallTimeout, cfg.BodyTimeout
	if s.maxConns <= 0 {
		s.maxConns = DefaultMaxConns
	}
	if s.stall <= 0 {
		s.stall = DefaultBodyStallTimeout
	}
	if s.bodyTimeout <= 0 {
		s.bodyTimeout = DefaultBodyTimeout
	}
	s.browse = newBrowserPolicy(s.addr, len(cfg.BearerTokens), cfg.AllowAnonymous)
	slugRE := regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
	for _, ac := range cfg.Agents {
		if !slugRE.MatchString(ac.Slug) || ac.Slug == "v1" {
			return nil, fmt.Errorf("devserver: invalid agent slug %q (lower-case letters, digits, - and _)", ac.Slug)
		}
		if s.bySlug[ac.Slug] != nil {
			return nil, fmt.Errorf("devserver: agent %q configured twice", ac.Slug)
		}
		a, err := newAgent(ac, cfg.StateDir, s.hub, logf)
		if err != nil {
			return nil, err
		}
		s.agents = append(s.agents, a)
		s.bySlug[ac.Slug] = a
	}
	if s.cp, err = newControlPlane(cfg.ControlPlane, s.agents); err != nil {
		return nil, err
	}
	s.handler = http.HandlerFunc(s.serve)
	return s, nil
}

// Handler is the server's HTTP handler, for tests that drive it with
// httptest (a request's RemoteAddr decides loopback admission).
func (s *Server) Handler() http.Handler { return s.handler }

// Start listens on the configured address and serves in the background. It
// returns once the listener is open, so URL is valid when it returns.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln != nil {
		return errors.New("devserver: already started")
	}
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return fmt.Errorf("devserver: listen on %s: %w", s.addr, err)
	}
	s.url = baseURL(ln.Addr())
	if u, err := url.Parse(s.url); err == nil {
		s.host = u.Hostname()
	}
	ln = newCapListener(ln, s.maxConns, s.logf)
	s.ln = ln
	s.srv = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       90 * time.Second,
		ErrorLog:          log.New(logWriter(s.logf), "", 0),
		ConnContext:       trackConn,
		ConnState:         connState,
	}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.logf("devserver: serve: %v", err)
		}
	}()
	return nil
}

// baseURL is the URL clients on this machine use: an unspecified listen
// address (0.0.0.0, ::) is reached through 127.0.0.1.
func baseURL(a net.Addr) string {
	host, port := "127.0.0.1", "0"
	if ta, ok := a.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
		if ta.IP != nil && !ta.IP.IsUnspecified() {
			host = ta.IP.String()
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}

// URL is the host's base URL, http://127.0.0.1:PORT; "" before Start.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.url
}

// AgentURL is the target URL of one agent, http://127.0.0.1:PORT/slug.
func (s *Server) AgentURL(slug string) string { return s.URL() + "/" + slug }

// Agents lists the slugs of the configured agents, in configuration order.
func (s *Server) Agents() []string {
	out := make([]string, len(s.agents))
	for i, a := range s.agents {
		out[i] = a.slug
	}
	return out
}

// AddTools adds connection tools to the agent of slug after the start: a
// --mcp server that became ready late. A tool already served is skipped.
func (s *Server) AddTools(slug string, tools []*tool.Tool) error {
	a := s.bySlug[slug]
	if a == nil {
		return fmt.Errorf("devserver: no agent %q", slug)
	}
	return a.addTools(tools)
}

// SetStarting says which connections of agent slug are still starting
// (their tools are not served yet): its listing names them under
// "starting" (docs/wire.md#the-tool-listing) until the next call.
func (s *Server) SetStarting(slug string, connections []string) error {
	a := s.bySlug[slug]
	if a == nil {
		return fmt.Errorf("devserver: no agent %q", slug)
	}
	a.setStarting(connections)
	return nil
}

// Close stops the server gracefully: it ends injected hangs and delays,
// interrupts the scripted agent's turns (each records turn.failed) and ends
// the session streams once they wrote those ends, lets in-flight requests
// finish for up to five seconds, then closes what is left. It is safe to
// call more than once and before Start.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.done)
		s.hub.shutdown(5 * time.Second)
		s.mu.Lock()
		srv := s.srv
		s.mu.Unlock()
		if srv == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			s.closeErr = srv.Close()
		}
	})
	return s.closeErr
}

// logWriter adapts logf to the io.Writer http.Server's ErrorLog needs.
type logWriter func(string, ...any)

func (l logWriter) Write(p []byte) (int, error) {
	l("%s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

package devserver

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// route is one agent route: the methods it answers and its handler. The
// handler gets the request's path segments under /v1 (already unescaped).
type route struct {
	methods []string
	handle  func(a *agent, c *reqCtx)
	limit   int64 // the largest request body a POST may send
	// stream marks a route whose answer lives as long as the client
	// listens: no request deadline covers it (stream.go).
	stream bool
}

// reqCtx is what an agent route handler works with.
type reqCtx struct {
	w         http.ResponseWriter
	r         *http.Request
	principal string
	segs      []string // path segments after /v1
}

// serve is the server's whole HTTP handler: the host routes, the agent
// mounts, logging.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	lw := &logResponse{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		s.logf("%s %s %d %s", r.Method, r.URL.Path, lw.status, time.Since(start).Round(time.Microsecond))
	}()
	if r.Body != nil && r.Body != http.NoBody {
		guardBody(w, r, s.stall)
	}
	if aerr := s.browse.check(r, s.boundHost()); aerr != nil {
		writeError(lw, aerr)
		return
	}
	segs, ok := splitPath(r.URL.EscapedPath())
	if !ok {
		writeError(lw, errorf(http.StatusBadRequest, codeNotFound, "the request path is not a valid escaped path"))
		return
	}
	if len(segs) == 2 && segs[0] == "v1" && segs[1] == "agents" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			methodNotAllowed(lw, []string{http.MethodGet})
			return
		}
		s.serveAgents(lw, r)
		return
	}
	if s.cp != nil && isControlPlanePath(segs) {
		s.serveControlPlane(lw, r, segs[3:])
		return
	}
	if len(segs) == 0 || s.bySlug[segs[0]] == nil {
		// Not an agent: a plain 404, not the envelope
		// (docs/wire.md#the-agents-index).
		http.Error(lw, "404 page not found", http.StatusNotFound)
		return
	}
	a := s.bySlug[segs[0]]
	s.serveAgent(lw, r, a, segs[1:])
}

// serveAgents answers GET /v1/agents on the host.
func (s *Server) serveAgents(w http.ResponseWriter, r *http.Request) {
	base := s.URL()
	if base == "" {
		base = "http://" + r.Host
	}
	items := make([][]byte, len(s.agents))
	for i, a := range s.agents {
		items[i] = object(val("slug", a.slug), val("url", base+"/"+a.slug), val("name", a.name))
	}
	writeBody(w, http.StatusOK, object(val("ok", true), raw("agents", array(items))))
}

// serveAgent admits the caller, applies an armed fault, and dispatches one
// agent's route.
func (s *Server) serveAgent(w http.ResponseWriter, r *http.Request, a *agent, segs []string) {
	principal, aerr := s.auth.admit(r)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	s.serveAgentAs(w, r, a, segs, principal)
}

// serveAgentAs dispatches one agent's route for an admitted principal
// (the control plane forwards here with its key's principal).
func (s *Server) serveAgentAs(w http.ResponseWriter, r *http.Request, a *agent, segs []string, principal string) {
	if len(segs) == 0 || segs[0] != "v1" {
		writeError(w, errorf(http.StatusNotFound, codeNotFound, "no route "+r.Method+" "+r.URL.Path))
		return
	}
	rt, params := matchRoute(segs[1:])
	if rt == nil {
		writeError(w, errorf(http.StatusNotFound, codeNotFound, "no route "+r.Method+" "+r.URL.Path))
		return
	}
	if !allowed(rt.methods, r.Method) {
		methodNotAllowed(w, rt.methods)
		return
	}
	if r.Method == http.MethodPost {
		if aerr := checkPostBody(r, rt.limit); aerr != nil {
			writeError(w, aerr)
			return
		}
	}
	c := &reqCtx{w: w, r: r, principal: principal, segs: params}
	if !isFaultRoute(segs) {
		if f := a.faults.take(principal, r.Method, "/"+strings.Join(segs, "/")); f != nil {
			s.applyFault(c, f, func() { rt.handle(a, c) })
			return
		}
	}
	rt.handle(a, c)
}

// boundHost is the host of the address the server listens on, "" before
// Start.
func (s *Server) boundHost() string {
	u, err := url.Parse(s.URL())
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// matchRoute finds the route of the segments after /v1 and returns the
// segments it takes as parameters.
func matchRoute(segs []string) (*route, []string) {
	switch {
	case len(segs) == 1 && segs[0] == "info":
		return &route{methods: []string{http.MethodGet}, handle: (*agent).serveInfo}, nil
	case len(segs) == 1 && segs[0] == "tools":
		return &route{methods: []string{http.MethodGet}, handle: (*agent).serveTools}, nil
	case len(segs) == 2 && segs[0] == "tools" && segs[1] != "":
		return &route{methods: []string{http.MethodGet, http.MethodPost}, handle: (*agent).serveTool, limit: maxCallBody}, segs[1:]
	case len(segs) == 1 && segs[0] == "sessions":
		return &route{methods: []string{http.MethodGet}, handle: (*agent).serveSessions}, nil
	case len(segs) == 1 && segs[0] == "session":
		return &route{methods: []string{http.MethodPost}, handle: (*agent).serveNewSession, limit: maxSmallBody}, nil
	case len(segs) == 3 && segs[0] == "session" && segs[1] != "" && segs[2] == "events":
		return &route{methods: []string{http.MethodGet}, handle: (*agent).serveEvents}, segs[1:2]
	case len(segs) == 3 && segs[0] == "session" && segs[1] != "" && segs[2] == "stream":
		return &route{methods: []string{http.MethodGet}, handle: (*agent).serveStream, stream: true}, segs[1:2]
	case len(segs) == 3 && segs[0] == "session" && segs[1] != "" && segs[2] == "interrupt":
		return &route{methods: []string{http.MethodPost}, handle: (*agent).serveInterrupt, limit: maxSmallBody}, segs[1:2]
	case len(segs) == 4 && segs[0] == "session" && segs[1] != "" && segs[2] == "approvals" && segs[3] != "":
		return &route{methods: []string{http.MethodPost}, handle: (*agent).serveDecision, limit: maxSmallBody}, []string{segs[1], segs[3]}
	case len(segs) == 2 && segs[0] == "dev" && segs[1] == "turn":
		return &route{methods: []string{http.MethodPost}, handle: (*agent).serveTurn, limit: maxSmallBody}, nil
	case len(segs) == 4 && segs[0] == "dev" && segs[1] == "sessions" && segs[3] == "calls":
		return &route{methods: []string{http.MethodGet}, handle: (*agent).serveCalls}, segs[2:3]
	case len(segs) == 2 && segs[0] == "dev" && segs[1] == "faults":
		return &route{methods: []string{http.MethodGet, http.MethodPost, http.MethodDelete}, handle: (*agent).serveFaults, limit: maxFaultBody}, nil
	}
	return nil, nil
}

// isFaultRoute reports whether segs (under the mount) address the fault
// routes themselves, which faults never hit (so they can always be cleared).
func isFaultRoute(segs []string) bool {
	return len(segs) == 3 && segs[0] == "v1" && segs[1] == "dev" && segs[2] == "faults"
}

// allowed reports whether method is among methods (HEAD counts as GET).
func allowed(methods []string, method string) bool {
	for _, m := range methods {
		if m == method || (m == http.MethodGet && method == http.MethodHead) {
			return true
		}
	}
	return false
}

func methodNotAllowed(w http.ResponseWriter, methods []string) {
	ms := append([]string(nil), methods...)
	sort.Strings(ms)
	w.Header().Set("Allow", strings.Join(ms, ", "))
	writeError(w, errorf(http.StatusMethodNotAllowed, codeMethodNotAllowed,
		"method not allowed; this route answers "+strings.Join(ms, ", ")))
}

// splitPath splits an escaped URL path into unescaped segments, ignoring one
// trailing slash. It fails on a bad escape.
func splitPath(escaped string) ([]string, bool) {
	p := strings.TrimPrefix(escaped, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return nil, true
	}
	parts := strings.Split(p, "/")
	for i, part := range parts {
		u, err := url.PathUnescape(part)
		if err != nil {
			return nil, false
		}
		parts[i] = u
	}
	return parts, true
}

// logResponse records the status for the request log and lets
// http.ResponseController reach the connection (Hijack, Flush).
type logResponse struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
}

func (l *logResponse) WriteHeader(code int) {
	if !l.wroteHeader {
		l.status, l.wroteHeader = code, true
	}
	l.ResponseWriter.WriteHeader(code)
}

func (l *logResponse) Write(b []byte) (int, error) {
	l.wroteHeader = true
	return l.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the underlying writer.
func (l *logResponse) Unwrap() http.ResponseWriter { return l.ResponseWriter }

package catalog

import (
	"context"
	"errors"
	"sync"
)

// Run is one agsh run's view of a deployment: the session binding every
// request carries (explicit, or looked up once for the default:
// docs/wire.md#session-binding), the session the last answer named, whether
// any request reached the deployment (the session line is printed only then),
// and what the run has fetched once: /v1/info, the listing and each tool's
// detail. A shell keeps one Run for its whole life. Its methods are not safe for concurrent use, except Client.
type Run struct {
	client   *Client
	explicit Binding
	binding  Binding
	bound    bool
	answer   string
	reached  bool
	called   bool

	info     *Info
	tools    []ToolEntry
	starting []string // connections the listing says are still starting
	details  map[string]*ToolDetail
	mu       sync.Mutex

	// tokens are the continuation tokens the run's messages rotated to, by
	// session id; rotated is the session of the last one.
	tokens  map[string]string
	rotated string
}

// NewRun starts a run against c; explicit is the binding the user asked for
// (zero: the deployment's latest session).
func NewRun(c *Client, explicit Binding) *Run {
	return &Run{client: c, explicit: explicit, details: map[string]*ToolDetail{}}
}

// Client is the run's client.
func (r *Run) Client() *Client { return r.client }

// Binding is the binding in force (zero before it is known, or unbound).
func (r *Run) Binding() Binding { return r.binding }

// Reached reports whether a request reached the deployment.
func (r *Run) Reached() bool { return r.reached }

// Called reports whether the run made a call: one that ran, or was sent
// and may still run (it timed out, or was interrupted), or was answered
// with anything but a refusal of the request itself (a credential refused,
// a session or token the deployment does not know, a tool it lacks); a
// message to a session (Rotated) counts as one. The session line is
// printed after such a command (docs/wire.md#the-session-line).
func (r *Run) Called() bool { return r.called }

// SessionLine is the final standard-error line (SessionLine of the binding
// and the last answer's session); after a message of the run rotated the
// bound session's token, the new token follows:
// "→ ses_… (continuation token …)".
func (r *Run) SessionLine() string {
	if r.rotated == "" || r.answer != "" && r.answer != r.rotated {
		return SessionLine(r.binding, r.answer)
	}
	b := r.binding
	if b.IsZero() {
		b = r.explicit // a one-shot message, before any call bound the run
	}
	if b.SessionID == r.rotated || b.ContinuationToken == r.tokens[r.rotated] {
		return "→ " + r.rotated + " (continuation token " + r.tokens[r.rotated] + ")"
	}
	return SessionLine(b, r.answer)
}

// Rotated records that a message of the run rotated the continuation token
// of session id from old to token (the message's answer): a run bound by
// the old token is bound by the new one from then on (the old one is
// refused), a run not bound yet is bound to id, and Token gives the new
// token for the next message.
func (r *Run) Rotated(id, old, token string) {
	if r.tokens == nil {
		r.tokens = map[string]string{}
	}
	r.tokens[id] = token
	r.rotated = id
	r.reached = true
	r.called = true // a message landed in the session: its line says where
	if !r.bound && r.binding.IsZero() && r.explicit.IsZero() {
		// A one-shot run sent its message to the latest session: bound.
		r.binding, r.bound = Binding{SessionID: id}, true
	}
	if old == "" {
		return
	}
	if r.binding.ContinuationToken == old {
		r.binding.ContinuationToken = token
	}
	if r.explicit.ContinuationToken == old {
		r.explicit.ContinuationToken = token
	}
}

// Token is the continuation token a message of the run last rotated
// session id to, "" when none did.
func (r *Run) Token(id string) string { return r.tokens[id] }

// Explicit is the binding asked for at the start (zero: the latest), as
// rotated since.
func (r *Run) Explicit() Binding { return r.explicit }

// Info fetches /v1/info once.
func (r *Run) Info(ctx context.Context) (*Info, error) {
	if r.info != nil {
		return r.info, nil
	}
	info, err := r.client.Info(ctx)
	r.note(err)
	if err != nil {
		return nil, err
	}
	r.info = info
	return info, nil
}

// Tools fetches the listing once, with the run's binding: unbound in parallel
// with the session lookup by default (docs/wire.md#session-binding). Never
// nil without an error.
func (r *Run) Tools(ctx context.Context) ([]ToolEntry, error) {
	if r.tools != nil {
		return r.tools, nil
	}
	var (
		l   ToolsResponse
		err error
	)
	if r.bound {
		l, err = r.client.Listing(ctx, r.binding)
	} else {
		l, r.binding, err = r.client.ListingBound(ctx, r.explicit)
		r.bound = err == nil
	}
	r.note(err)
	if err != nil {
		return nil, err
	}
	tools := l.Tools
	r.starting = l.Starting
	if tools == nil {
		tools = []ToolEntry{}
	}
	r.tools = tools
	return tools, nil
}

// Starting names the connections the fetched listing says are still
// starting (docs/wire.md#the-tool-listing); nil before Tools or when none.
func (r *Run) Starting() []string { return r.starting }

// Index fetches /v1/info afresh, in parallel with the listing (once), for
// `agsh help`.
func (r *Run) Index(ctx context.Context) (*Info, []ToolEntry, error) {
	type infoResult struct {
		info *Info
		err  error
	}
	ch := make(chan infoResult, 1)
	go func() {
		info, err := r.client.Info(ctx)
		ch <- infoResult{info, err}
	}()
	tools, err := r.Tools(ctx)
	ir := <-ch
	if err != nil {
		return nil, nil, err
	}
	r.note(ir.err)
	if ir.err != nil {
		return nil, nil, ir.err
	}
	r.info = ir.info
	return ir.info, tools, nil
}

// Tool fetches a tool's detail once with the run's binding: the first request
// of a run in parallel with the session lookup of the default binding.
func (r *Run) Tool(ctx context.Context, name string) (*ToolDetail, error) {
	r.mu.Lock()
	d, ok := r.details[name]
	r.mu.Unlock()
	if ok {
		return d, nil
	}
	var err error
	if r.bound {
		d, err = r.client.Tool(ctx, name, r.binding)
	} else {
		d, r.binding, err = r.client.ToolBound(ctx, name, r.explicit)
		r.bound = err == nil || !r.binding.IsZero() || !r.explicit.IsZero()
	}
	r.note(err)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.details[name] = d
	r.mu.Unlock()
	return d, nil
}

// Prefetch fetches the details of the named tools not fetched yet, a few
// at a time, with the run's binding (which must be known: after Tools):
// a script asks for every tool it uses before its first line runs. A
// detail that cannot be fetched is left for Tool to fetch and report.
func (r *Run) Prefetch(ctx context.Context, names []string) {
	if !r.bound {
		return
	}
	var todo []string
	seen := map[string]bool{}
	r.mu.Lock()
	for _, n := range names {
		if _, ok := r.details[n]; !ok && !seen[n] {
			seen[n] = true
			todo = append(todo, n)
		}
	}
	r.mu.Unlock()
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, n := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			d, err := r.client.Tool(ctx, n, r.binding)
			if err == nil {
				r.mu.Lock()
				r.details[n] = d
				r.mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// Call invokes a tool with the run's binding and remembers the answer's
// session for the session line.
func (r *Run) Call(ctx context.Context, name string, input []byte) (*CallResult, error) {
	return r.CallStream(ctx, name, input, nil)
}

// CallStream is Call with the result streamed when it may (Client.CallStream).
func (r *Run) CallStream(ctx context.Context, name string, input []byte, stream StreamFunc) (*CallResult, error) {
	res, err := r.client.CallStream(ctx, name, input, r.binding, stream)
	r.note(err)
	r.called = r.called || madeCall(err)
	if res != nil && res.SessionID != "" {
		r.answer = res.SessionID
	}
	return res, err
}

// note records that a request reached the deployment: any answer, even an
// error envelope, but not a host that has no agent at the target.
func (r *Run) note(err error) {
	var e *Error
	if err == nil || errors.As(err, &e) && e.Status != 0 && e.ErrCode != CodeNotAnAgent {
		r.reached = true
	}
}

// madeCall reports whether a call's outcome counts as a call made (Called).
func madeCall(err error) bool {
	if err == nil {
		return true
	}
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.ErrCode {
	case CodeUnauthorized, CodeForbidden, CodeUnknownSession, CodeInvalidContinuationToken, CodeUnknownTool,
		CodeUsage, CodeNotAnAgent:
		return false
	case CodeTimeout, CodeInterrupted:
		return true
	}
	return e.Status != 0
}

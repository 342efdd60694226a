package catalog

import (
	"context"
	"errors"
	"net/url"
	"time"
)

// Binding is the session identity a request carries: a session id or a
// continuation token, never both. The zero value is unbound (an ephemeral
// workspace).
type Binding struct{ SessionID, ContinuationToken string }

// IsZero reports whether b is unbound.
func (b Binding) IsZero() bool { return b.SessionID == "" && b.ContinuationToken == "" }

// check refuses a binding with both fields set (a usage error, exit 2).
func (b Binding) check() error {
	if b.SessionID != "" && b.ContinuationToken != "" {
		return usageError("%s and %s cannot be used together; pass only one",
			SettingSession.mark(), SettingContinuationToken.mark())
	}
	return nil
}

// query is the binding as the GET routes' query.
func (b Binding) query() url.Values {
	switch {
	case b.SessionID != "":
		return url.Values{querySessionID: {b.SessionID}}
	case b.ContinuationToken != "":
		return url.Values{queryContinuationToken: {b.ContinuationToken}}
	}
	return nil
}

// BindingOf is the binding to a listed session: by id, else by its
// continuation token; unbound for nil.
func BindingOf(s *Session) Binding {
	switch {
	case s == nil:
		return Binding{}
	case s.SessionID != "":
		return Binding{SessionID: s.SessionID}
	default:
		return Binding{ContinuationToken: s.ContinuationToken}
	}
}

// LatestSession is the session with the greatest updatedAt (else
// createdAt); on a tie the first listed; nil when s is empty. A timestamp
// that is missing or not RFC 3339 counts as older than any other.
func LatestSession(s []Session) *Session {
	var best *Session
	var bestAt time.Time
	for i := range s {
		at := sessionTime(s[i])
		if best == nil || at.After(bestAt) {
			best, bestAt = &s[i], at
		}
	}
	return best
}

func sessionTime(s Session) time.Time {
	v := s.UpdatedAt
	if v == "" {
		v = s.CreatedAt
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}
	}
	return t
}

// SessionLine is the text of the final standard-error line after an
// invocation that reached the deployment: "→ ses_…" (the answer's session
// id when present, else the bound id), "→ <token>" for a token, "→ no
// session (ephemeral workspace)" when unbound.
func SessionLine(b Binding, answerSessionID string) string {
	switch {
	case answerSessionID != "":
		return "→ " + answerSessionID
	case b.SessionID != "":
		return "→ " + b.SessionID
	case b.ContinuationToken != "":
		return "→ " + b.ContinuationToken
	}
	return "→ no session (ephemeral workspace)"
}

// Bind resolves the binding of a run: explicit when set (no request),
// else the latest session (one GET /v1/sessions), else unbound. A shell
// calls it once at launch.
func (c *Client) Bind(ctx context.Context, explicit Binding) (Binding, error) {
	if err := explicit.check(); err != nil {
		return Binding{}, err
	}
	if !explicit.IsZero() {
		return explicit, nil
	}
	ss, err := c.Sessions(ctx)
	if err != nil {
		return Binding{}, c.sessionsFailure(ctx, err)
	}
	return BindingOf(LatestSession(ss)), nil
}

// sessionsFailure tells a target that is no agent at all from an agent
// that lacks GET /v1/sessions: only the former fails GET /v1/info with
// not_an_agent.
func (c *Client) sessionsFailure(ctx context.Context, err error) error {
	var e *Error
	if errors.As(err, &e) && e.ErrCode == CodeNoSessionsRoute {
		if _, ierr := c.Info(ctx); ierr != nil {
			var ie *Error
			if errors.As(ierr, &ie) && (ie.ErrCode == CodeNotAnAgent || ie.ErrCode == CodeInterrupted) {
				return ierr
			}
		}
	}
	return err
}

// ToolBound fetches a tool's detail with the session binding of
// docs/wire.md#session-binding and returns it with the binding the call must carry. Explicit: the detail
// is fetched bound. Default: the detail is fetched unbound in parallel
// with GET /v1/sessions (one round trip of latency), and fetched again
// bound only when the unbound answer is 404 unknown_tool and a session
// exists. The binding is returned whenever it is known, also with an
// error (unknown_tool, say), for the session line.
func (c *Client) ToolBound(ctx context.Context, name string, explicit Binding) (*ToolDetail, Binding, error) {
	if err := explicit.check(); err != nil {
		return nil, Binding{}, err
	}
	if !explicit.IsZero() {
		d, err := c.Tool(ctx, name, explicit)
		return d, explicit, err
	}
	var d *ToolDetail
	b, derr, err := c.withSessions(ctx, func(ctx context.Context) error {
		var err error
		d, err = c.Tool(ctx, name, Binding{})
		return err
	}, func(err error) bool { return IsCode(err, CodeUnknownTool) })
	if err != nil {
		return nil, b, err
	}
	if derr == nil {
		return d, b, nil
	}
	if b.IsZero() {
		return nil, b, derr
	}
	d, err = c.Tool(ctx, name, b)
	return d, b, err
}

// ToolsBound fetches the listing with the session binding: explicit →
// bound; default → unbound, in parallel with GET /v1/sessions.
func (c *Client) ToolsBound(ctx context.Context, explicit Binding) ([]ToolEntry, Binding, error) {
	l, b, err := c.ListingBound(ctx, explicit)
	return l.Tools, b, err
}

// ListingBound is ToolsBound answering the whole listing (Listing).
func (c *Client) ListingBound(ctx context.Context, explicit Binding) (ToolsResponse, Binding, error) {
	if err := explicit.check(); err != nil {
		return ToolsResponse{}, Binding{}, err
	}
	if !explicit.IsZero() {
		l, err := c.Listing(ctx, explicit)
		return l, explicit, err
	}
	var l ToolsResponse
	b, _, err := c.withSessions(ctx, func(ctx context.Context) error {
		var err error
		l, err = c.Listing(ctx, Binding{})
		return err
	}, func(error) bool { return false })
	if err != nil {
		return ToolsResponse{}, b, err
	}
	return l, b, nil
}

// withSessions runs fetch in parallel with GET /v1/sessions and returns
// the latest session's binding. A fetch error that soft accepts is
// returned as ferr for the caller to handle; any other error of either
// request is err (a hard fetch error cancels the sessions request).
func (c *Client) withSessions(ctx context.Context, fetch func(context.Context) error,
	soft func(error) bool) (b Binding, ferr, err error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		ss  []Session
		err error
	}
	ch := make(chan result, 1)
	go func() {
		ss, err := c.Sessions(sctx)
		ch <- result{ss, err}
	}()
	ferr = fetch(ctx)
	if ferr != nil && !soft(ferr) {
		cancel()
		<-ch
		return Binding{}, nil, ferr
	}
	sr := <-ch
	if sr.err != nil {
		return Binding{}, nil, c.sessionsFailure(ctx, sr.err)
	}
	return BindingOf(LatestSession(sr.ss)), ferr, nil
}

// IsCode reports whether err is an *Error with the given code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.ErrCode == code
}

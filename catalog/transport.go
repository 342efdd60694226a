package catalog

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// request is one logical request: a GET (retried, time-limited) or a POST
// (neither).
type request struct {
	method string
	root   *url.URL   // c.base or c.host
	path   string     // escaped path under root
	query  url.Values // binding query
	body   []byte     // POST body
	tool   string     // the tool named, for messages
	// session is the bound session id, for session_busy's advice.
	session string
	// probe: a 404 that is not the envelope probes {host}/v1/agents.
	probe bool
	// sessions: this is GET /v1/sessions (a non-envelope 404 means the
	// deployment lacks the route).
	sessions bool
	// stream: a call whose text result may be streamed (CallStream).
	stream StreamFunc
	// records: a route of a session's record, read as it arrives: bounded
	// per event (eventread.go) and per pause of its body, not as a whole;
	// a 404 that is not the envelope means the deployment has no records.
	records bool
	// live: the record's stream, which may pause for as long as the agent
	// does: no limit on its pauses.
	live bool
	// feature names what a console route is for ("approvals"): a 404 that
	// is not unknown_session or unknown_call means the deployment does not
	// expose it (CodeNotExposed).
	feature string
	// call is the call id a decision names, for its refusals.
	call string
	// rows: the caller will show an array result as a table (WithRows):
	// the check of the result indexes its rows too.
	rows bool
}

func (r *request) get() bool { return r.method == http.MethodGet }

// route is the request as messages show it: "GET /v1/tools/read".
func (r *request) route() string { return r.method + " " + r.path }

// body wraps a response body: it keeps the first bytes for messages,
// bounds the bytes read (after decompression), each pause of the body (GET
// and POST) and a GET's whole time, and cancels the request on Close.
type body struct {
	rc       io.ReadCloser
	in       *boundedReader // reads rc
	cancel   context.CancelFunc
	idle     time.Duration
	timer    *time.Timer
	timedOut atomic.Bool // a pause of the body passed idle
	whole    *time.Timer // a GET's time limit, headers and body
	expired  *atomic.Bool
	prefix   []byte
	read     int64
}

// prefixCap is how many leading bytes of a body are kept for messages:
// enough to redact a long token that straddles the quoted part.
const prefixCap = 1024

func (b *body) Read(p []byte) (int, error) {
	if b.timer != nil {
		b.timer.Reset(b.idle)
	}
	n, err := b.in.Read(p)
	if b.timer != nil {
		b.timer.Stop()
	}
	b.read += int64(n)
	if room := prefixCap - len(b.prefix); room > 0 && n > 0 {
		b.prefix = append(b.prefix, p[:min(n, room)]...)
	}
	return n, err
}

// Close releases the connection and the request's context.
func (b *body) Close() error {
	if b.timer != nil {
		b.timer.Stop()
	}
	if b.whole != nil {
		b.whole.Stop()
	}
	err := b.rc.Close()
	b.cancel()
	return err
}

// drainLimit is how much of an unread body is discarded so that the
// connection can be reused; beyond it the connection is dropped.
const drainLimit = 64 << 10

// discard drains a little of b and closes it.
func (b *body) discard() {
	_, _ = io.CopyN(io.Discard, b, drainLimit)
	_ = b.Close()
}

// send performs r with the retry rule: a GET is retried up to
// len(RetryBackoff) times on a connection reset, a timeout, 502, 503 and
// 504; a POST is sent once. On success the caller owns the body.
func (c *Client) send(ctx context.Context, r *request) (*http.Response, *body, error) {
	attempts := 1
	if r.get() {
		attempts += len(c.opts.RetryBackoff)
	}
	for i := 0; ; i++ {
		if i > 0 {
			if err := pause(ctx, c.opts.RetryBackoff[i-1]); err != nil {
				return nil, nil, c.interrupted(ctx, r, false)
			}
		}
		last := i == attempts-1
		resp, b, err, retry := c.attempt(ctx, r)
		if err != nil {
			if retry && !last {
				continue
			}
			if retry && i > 0 && strings.HasSuffix(err.Message, ")") {
				err.Message = strings.TrimSuffix(err.Message, ")") + ", " + itoa(i+1) + " attempts)"
			}
			return nil, nil, err
		}
		if r.get() && retryableStatus(resp.StatusCode) && !last {
			b.discard()
			continue
		}
		return resp, b, nil
	}
}

// attempt sends r once. retry tells whether a GET may try again.
func (c *Client) attempt(ctx context.Context, r *request) (*http.Response, *body, *Error, bool) {
	reqCtx, cancel := context.WithCancel(ctx)
	var rd io.Reader
	if r.body != nil {
		rd = bytes.NewReader(r.body)
	}
	u := c.endpoint(r.root, r.path, r.query)
	req, err := http.NewRequestWithContext(reqCtx, r.method, u.String(), rd)
	if err != nil {
		cancel()
		return nil, nil, c.fail(&Error{ErrCode: CodeUsage, Route: r.route(), Tool: r.tool,
			Message: "cannot build the request " + r.route() + ": " + causeText(err)}), false
	}
	c.setHeaders(req.Header, r)
	var timedOut, expired atomic.Bool
	var timer, whole *time.Timer
	if r.get() {
		timer = time.AfterFunc(c.opts.HeaderTimeout, func() {
			timedOut.Store(true)
			cancel()
		})
	}
	if r.get() && !r.records {
		whole = time.AfterFunc(c.opts.GetTimeout, func() {
			expired.Store(true)
			cancel()
		})
	}
	resp, err := c.hc.Do(req)
	if timer != nil && !timer.Stop() {
		timedOut.Store(true)
	}
	if err == nil && (timedOut.Load() || expired.Load()) {
		_ = resp.Body.Close()
		err = context.DeadlineExceeded
	}
	if err != nil {
		if whole != nil {
			whole.Stop()
		}
		cancel()
		e, retry := c.transportError(ctx, r, err, timedOut.Load() || expired.Load())
		return nil, nil, e, retry && r.get()
	}
	in := &boundedReader{r: resp.Body, limit: c.opts.MaxListingBytes}
	in.maxValues = in.limit / listingBytesPerValue
	if !r.get() {
		in.limit = c.opts.MaxAnswerBytes
		in.maxValues = in.limit / callBytesPerValue
	}
	if r.records {
		// Bounded per event by the reader; a record may be gigabytes.
		in.limit, in.maxValues = 1<<62, 0
	}
	b := &body{rc: resp.Body, in: in, cancel: cancel,
		whole: whole, expired: &expired}
	b.idle = c.opts.StallTimeout
	if r.get() {
		b.idle = c.opts.HeaderTimeout
	}
	if !r.live {
		b.timer = time.AfterFunc(time.Hour, func() {
			b.timedOut.Store(true)
			cancel()
		})
		b.timer.Stop()
	}
	resp.Body = b
	return resp, b, nil, false
}

// setHeaders sets the headers of r (PrepareCall shows them too).
func (c *Client) setHeaders(h http.Header, r *request) {
	h.Set("Accept", "application/json")
	if r.body != nil {
		h.Set("Content-Type", "application/json")
	}
	if c.opts.BearerToken != "" {
		h.Set("Authorization", "Bearer "+c.opts.BearerToken)
	}
	if c.opts.UserAgent != "" {
		h.Set("User-Agent", c.opts.UserAgent)
	}
}

// pause waits d or until ctx is done.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fail finishes an error built by the client: the secret is scrubbed.
func (c *Client) fail(e *Error) *Error { return redactError(e, c.opts.BearerToken) }

// rowsKey marks a context of WithRows.
type rowsKey struct{}

// WithRows is ctx asking a call's answer for its result's rows: when the
// result is an array of objects, the pass that checks it also indexes its
// members (CallResult.Rows), for a table that then reads them without
// scanning the bytes again (docs/rendering.md#table-layout). Nothing else
// changes.
func WithRows(ctx context.Context) context.Context {
	return context.WithValue(ctx, rowsKey{}, true)
}

// callTimeoutKey holds the time limit of WithCallTimeout in a context.
type callTimeoutKey struct{}

// WithCallTimeout is ctx with a time limit d on a call's whole answer: past
// it the call ends with a timeout (exit 5) whose message says that the call
// may still complete on the deployment (or that it completed, when its
// answer had begun to arrive).
func WithCallTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithValue(ctx, callTimeoutKey{}, d), d)
}

// interrupted is the error of a request cancelled by ctx (exit 130), or a
// timeout when ctx's own deadline passed. answered: the POST's answer had
// begun to arrive, so the call itself completed.
func (c *Client) interrupted(ctx context.Context, r *request, answered bool) *Error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		msg := "deployment did not answer " + r.route() + " in the time allowed"
		if d, ok := ctx.Value(callTimeoutKey{}).(time.Duration); ok && !r.get() {
			name := r.tool
			if name == "" {
				name = r.path
			}
			limit := " within " + d.String() + " (" + SettingCallTimeout.mark() + ")"
			if answered {
				msg = "the answer to the call to " + name + " did not arrive in full" + limit + "; the call completed on the deployment"
			} else {
				msg = "no answer to the call to " + name + limit + "; the call may still complete on the deployment"
			}
		}
		return c.fail(&Error{ErrCode: CodeTimeout, Route: r.route(), Tool: r.tool, Err: ctx.Err(), Message: msg})
	}
	msg := "interrupted"
	if !r.get() {
		name := r.tool
		if name == "" {
			name = r.path
		}
		if answered {
			msg = "interrupted while receiving the answer; the call to " + name + " completed on the deployment"
		} else {
			msg = "interrupted; the call to " + name + " may still complete on the deployment"
		}
	}
	return c.fail(&Error{ErrCode: CodeInterrupted, Route: r.route(), Tool: r.tool, Err: context.Canceled,
		Message: msg})
}

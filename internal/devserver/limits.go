package devserver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of the connection and body bounds.
const (
	// DefaultMaxConns caps the connections open at once.
	DefaultMaxConns = 1024
	// DefaultBodyStallTimeout is how long a request body may send nothing
	// before the request is answered 408 and the connection closed.
	DefaultBodyStallTimeout = 30 * time.Second
	// DefaultBodyTimeout is how long a whole request body may take, plus a
	// second per MiB it holds (minBodyRate): a body trickling in, however
	// steadily, ends with 408 too.
	DefaultBodyTimeout = 30 * time.Second
)

const (
	// minBodyRate and minAnswerRate are the slowest a large body may arrive
	// and a large answer may be read, past the first DefaultBodyTimeout or
	// answerWriteTimeout.
	minBodyRate   = 1 << 20 // bytes a second
	minAnswerRate = 1 << 20
	// answerWriteTimeout bounds each write of an answer (streams keep
	// their own deadlines): a client that reads nothing loses the answer.
	answerWriteTimeout = 30 * time.Second
)

// answerTimeout and answerRate are answerWriteTimeout and minAnswerRate,
// variables so that tests can make the bound short.
var answerTimeout, answerRate = answerWriteTimeout, int64(minAnswerRate)

// codeRequestTimeout answers a request whose body stalled or trickled;
// codeTooManyConnections a connection over the cap.
const (
	codeRequestTimeout     = "request_timeout"
	codeTooManyConnections = "too_many_connections"
)

// errBodyStalled is what reading a stalled request body returns,
// errBodyTooSlow what reading one past its whole deadline returns.
var (
	errBodyStalled = errors.New("the request body stalled")
	errBodyTooSlow = errors.New("the request body arrived too slowly")
)

// stallBody is a request body that must arrive steadily and in time: each
// read must make progress within stall, and the whole body must be in
// within whole (from its first read) plus a second per MiB read. The
// connection's read deadline is the nearer of the two, pushed ahead before
// each read; it is cleared once the body ends (the connection then waits
// for the handler, not for the client), and kept once it passed (what is
// left of the body is then not waited for either: the connection closes).
// Once the body is whole, the connection is no longer one that has not sent
// its request (capListener).
type stallBody struct {
	io.ReadCloser
	rc      *http.ResponseController
	stall   time.Duration
	whole   time.Duration
	started time.Time
	read    int64
	length  int64 // the Content-Length, -1 when unknown
	conn    *cappedConn
	ended   bool
}

// guardBody sets the first deadline (a handler that never reads the body
// is covered too: the server's own read of the rest then times out) and
// wraps the body.
func guardBody(w http.ResponseWriter, r *http.Request, stall, whole time.Duration, conn *cappedConn) {
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(stall)) != nil {
		return // not a real connection (a test recorder): no bound
	}
	r.Body = &stallBody{ReadCloser: r.Body, rc: rc, stall: stall, whole: whole, length: r.ContentLength, conn: conn}
}

func (b *stallBody) Read(p []byte) (int, error) {
	if b.ended {
		return b.ReadCloser.Read(p)
	}
	now := time.Now()
	if b.started.IsZero() {
		b.started = now
	}
	wholeBy := b.started.Add(b.whole + time.Duration(b.read)*time.Second/minBodyRate)
	deadline, late := now.Add(b.stall), errBodyStalled
	if wholeBy.Before(deadline) {
		deadline, late = wholeBy, errBodyTooSlow
	}
	_ = b.rc.SetReadDeadline(deadline)
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		return n, late
	}
	if err != nil || b.read == b.length {
		b.ended = true
		_ = b.rc.SetReadDeadline(time.Time{})
		if err == nil || err == io.EOF {
			b.conn.setWaiting(false)
		}
	}
	return n, err
}

// answerWriter bounds the writes of an answer: each must be done within
// answerWriteTimeout plus a second per MiB it holds, so that a client that
// reads nothing cannot hold its connection (and the handler) forever.
type answerWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	until time.Time // the deadline set
}

func newAnswerWriter(w http.ResponseWriter) *answerWriter {
	return &answerWriter{ResponseWriter: w, rc: http.NewResponseController(w)}
}

// Write moves the deadline ahead for a write that goes out at once (4 KiB
// or more) or when less than half the bound is left; a small write only
// fills the server's buffer, flushed under the deadline already set.
func (a *answerWriter) Write(p []byte) (int, error) {
	by := time.Now().Add(answerTimeout + time.Duration(int64(len(p))*int64(time.Second)/answerRate))
	if len(p) >= 4<<10 || by.Sub(a.until) > answerTimeout/2 {
		a.until = by
		_ = a.rc.SetWriteDeadline(by)
	}
	return a.ResponseWriter.Write(p)
}

// finish writes what the server buffered of the answer under the same
// bound, then clears the deadline for the connection's next request.
func (a *answerWriter) finish() {
	_ = a.rc.SetWriteDeadline(time.Now().Add(answerTimeout))
	_ = a.rc.Flush()
	_ = a.rc.SetWriteDeadline(time.Time{})
}

// Unwrap gives http.ResponseController the underlying writer.
func (a *answerWriter) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// capListener admits at most max connections at once, and at most
// maxWaiting of them that have not sent a whole request (new ones, ones
// whose headers or body are still arriving, idle ones between requests):
// the rest of the slots are kept for connections being answered. A
// connection that comes when either is full takes the slot of the one that
// has waited longest for its request; when none has (every slot is
// answering), it is answered 503 too_many_connections and closed, without
// reaching the server. So connections that trickle their requests (a
// "slow loris") cannot keep the others out: the newest always gets in.
type capListener struct {
	net.Listener
	max, maxWaiting int
	logf            func(string, ...any)

	mu      sync.Mutex
	conns   map[*cappedConn]struct{}
	open    int
	waiting int
	seq     uint64 // orders the connections by when they began to wait

	rejecting atomic.Int64 // rejections being written
	logFull   sync.Once
	logEvict  sync.Once
}

func newCapListener(ln net.Listener, max int, logf func(string, ...any)) *capListener {
	return &capListener{Listener: ln, max: max, maxWaiting: max - max/8, logf: logf, conns: map[*cappedConn]struct{}{}}
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		cc := &cappedConn{Conn: c, l: l, waiting: true}
		var evicted []*cappedConn
		l.mu.Lock()
		l.seq++
		cc.since = l.seq
		l.conns[cc] = struct{}{}
		l.open++
		l.waiting++
		for l.open > l.max || l.waiting > l.maxWaiting {
			v := l.longestWaitingLocked(cc)
			if v == nil {
				break
			}
			l.dropLocked(v)
			evicted = append(evicted, v)
		}
		refused := l.open > l.max || l.waiting > l.maxWaiting
		if refused {
			l.dropLocked(cc)
		}
		l.mu.Unlock()
		for _, v := range evicted {
			_ = v.Conn.Close()
		}
		if len(evicted) > 0 {
			l.logEvict.Do(func() {
				l.logf("devserver: %d connections are open or waiting for their requests, the most allowed; closing the one that waited longest for each new one (logged once)", l.max)
			})
		}
		if !refused {
			return cc, nil
		}
		l.logFull.Do(func() {
			l.logf("devserver: %d connections are open, the most allowed; refusing more (logged once)", l.max)
		})
		if l.rejecting.Add(1) > 64 {
			l.rejecting.Add(-1)
			_ = c.Close()
			continue
		}
		go l.reject(c)
	}
}

// longestWaitingLocked is the connection other than except that has
// waited longest for its request, or nil.
func (l *capListener) longestWaitingLocked(except *cappedConn) *cappedConn {
	var best *cappedConn
	for c := range l.conns {
		if c != except && c.waiting && (best == nil || c.since < best.since) {
			best = c
		}
	}
	return best
}

// dropLocked gives c's slot back, once.
func (l *capListener) dropLocked(c *cappedConn) {
	if c.done {
		return
	}
	c.done = true
	delete(l.conns, c)
	l.open--
	if c.waiting {
		l.waiting--
	}
}

var tooManyBody = []byte(`{"ok":false,"error":"too_many_connections","message":"the server has too many open connections; retry later"}`)

// reject answers an over-cap connection 503 and closes it: it reads what
// the client sent first (briefly), so that closing does not reset the
// answer away.
func (l *capListener) reject(c net.Conn) {
	defer l.rejecting.Add(-1)
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	buf := make([]byte, 4096)
	_, _ = c.Read(buf)
	_, _ = c.Write([]byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n" +
		"Retry-After: 1\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(tooManyBody)) + "\r\n\r\n"))
	_, _ = c.Write(tooManyBody)
}

// cappedConn is an admitted connection: whether it waits for a request
// (and since when), and its slot, given back when it closes or is evicted.
// The fields are the listener's, under its lock.
type cappedConn struct {
	net.Conn
	l       *capListener
	waiting bool
	since   uint64 // the listener's seq when it began to wait
	done    bool
}

func (c *cappedConn) Close() error {
	c.l.mu.Lock()
	c.l.dropLocked(c)
	c.l.mu.Unlock()
	return c.Conn.Close()
}

// setWaiting marks c as waiting for its request (idle, or still reading
// it: from now) or not (its request is whole). A nil c (a request that did
// not come through the listener) is ignored.
func (c *cappedConn) setWaiting(w bool) {
	if c == nil {
		return
	}
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	if c.done {
		return
	}
	if w {
		c.l.seq++
		c.since = c.l.seq
	}
	if c.waiting != w {
		c.waiting = w
		if w {
			c.l.waiting++
		} else {
			c.l.waiting--
		}
	}
}

// connKey finds a request's cappedConn in its context.
type connKey struct{}

// trackConn is the server's ConnContext: it puts the connection in the
// context of its requests.
func trackConn(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(*cappedConn); ok {
		return context.WithValue(ctx, connKey{}, cc)
	}
	return ctx
}

// connOf is the request's cappedConn, nil when none.
func connOf(r *http.Request) *cappedConn {
	cc, _ := r.Context().Value(connKey{}).(*cappedConn)
	return cc
}

// connState is the server's ConnState: a connection between requests
// waits for one (from now); one whose next request's headers arrived
// waits from now for its body; a hijacked one (an injected hang) is being
// answered.
func connState(c net.Conn, st http.ConnState) {
	cc, ok := c.(*cappedConn)
	if !ok {
		return
	}
	switch st {
	case http.StateIdle, http.StateActive:
		cc.setWaiting(true)
	case http.StateHijacked:
		cc.setWaiting(false)
	}
}

package devserver

import (
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
)

// codeRequestTimeout answers a request whose body stalled;
// codeTooManyConnections a connection over the cap.
const (
	codeRequestTimeout     = "request_timeout"
	codeTooManyConnections = "too_many_connections"
)

// errBodyStalled is what reading a stalled request body returns.
var errBodyStalled = errors.New("the request body stalled")

// stallBody is a request body whose every read must make progress within
// d: each read pushes the connection's read deadline d ahead. The deadline
// is cleared once the body ends (the connection then waits for the
// handler, not for the client), and kept once it passed (what is left of
// the body is then not waited for either: the connection closes).
type stallBody struct {
	io.ReadCloser
	rc *http.ResponseController
	d  time.Duration
}

// guardBody sets the first deadline (a handler that never reads the body
// is covered too: the server's own read of the rest then times out) and
// wraps the body.
func guardBody(w http.ResponseWriter, r *http.Request, d time.Duration) {
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(d)) != nil {
		return // not a real connection (a test recorder): no bound
	}
	r.Body = &stallBody{ReadCloser: r.Body, rc: rc, d: d}
}

func (b *stallBody) Read(p []byte) (int, error) {
	_ = b.rc.SetReadDeadline(time.Now().Add(b.d))
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return n, errBodyStalled
		}
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// capListener admits at most max connections at once; one over the cap is
// answered 503 too_many_connections and closed, without reaching the
// server.
type capListener struct {
	net.Listener
	max       int64
	open      atomic.Int64
	rejecting atomic.Int64 // rejections being written
	logf      func(string, ...any)
	logOnce   sync.Once
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) <= l.max {
			return &cappedConn{Conn: c, l: l}, nil
		}
		l.open.Add(-1)
		l.logOnce.Do(func() {
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

// cappedConn gives its slot back when it closes.
type cappedConn struct {
	net.Conn
	l    *capListener
	once sync.Once
}

func (c *cappedConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}

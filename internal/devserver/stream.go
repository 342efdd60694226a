package devserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// GET /v1/session/{id}/stream?startIndex=N answers NDJSON, one event a
// line: the record from index N, then each new event as it happens,
// flushed as it is written, until the client goes away or the server
// shuts down (docs/wire.md#session-records-and-console-routes). An index
// past the end waits for it. A stream is not an ordinary request: no
// request deadline covers its lifetime (only each write has one, so a
// client that stops reading cannot hold it forever), and streams have caps
// of their own, per principal and in all. An idle stream writes a
// heartbeat, streamHeartbeatSize empty lines, every streamHeartbeat: so
// there is always something to write, and enough of it that a client that
// reads nothing fills its connection's buffers (its receive buffer does
// not grow while it reads nothing) and loses its stream within about a
// minute even when the session does nothing, while a live reader (and
// whatever proxy sits between) sees the stream alive and skips the lines.

// Defaults of the stream caps.
const (
	// DefaultMaxStreams caps the streams open at once.
	DefaultMaxStreams = 256
	// DefaultMaxStreamsPerPrincipal caps one principal's open streams.
	DefaultMaxStreamsPerPrincipal = 16
)

const (
	// streamBatch is how many events one pass writes before it looks again.
	streamBatch = 4096
	// streamWriteTimeout bounds one pass's writes, a heartbeat's included:
	// a client that reads nothing for that long loses its stream. Once the
	// server shuts down, the last pass has streamLastWrite.
	streamWriteTimeout = 30 * time.Second
	streamLastWrite    = time.Second
	// streamHeartbeat is how long a stream stays silent before it writes
	// a heartbeat: streamHeartbeatSize empty lines (NDJSON readers skip
	// them; agsh does). 32 KiB every 5 s fills the buffers of a loopback
	// connection nobody reads (a few hundred KiB with the defaults) in
	// under a minute, and costs a live reader 6.4 KB/s of a silent stream.
	streamHeartbeat     = 5 * time.Second
	streamHeartbeatSize = 32 << 10
	// streamSendBuffer is the kernel's send buffer of a stream's
	// connection: what a client that reads nothing can leave unread on the
	// server's side before the writes block (and the write deadline runs).
	// The connection closes when its stream ends.
	streamSendBuffer = 64 << 10
	// ndjsonType is the Content-Type of a stream.
	ndjsonType = "application/x-ndjson"
)

// streamTiming is a server's streamWriteTimeout, streamHeartbeat and
// streamSendBuffer (tests make them small).
type streamTiming struct {
	writeTimeout, heartbeat time.Duration
	sendBuffer              int
}

var defaultStreamTiming = streamTiming{streamWriteTimeout, streamHeartbeat, streamSendBuffer}

// streamLimiter counts open streams, per principal and in all.
type streamLimiter struct {
	timing streamTiming

	mu    sync.Mutex
	max   int
	per   int
	total int
	by    map[string]int
}

func newStreamLimiter(max, per int) *streamLimiter {
	if max <= 0 {
		max = DefaultMaxStreams
	}
	if per <= 0 {
		per = DefaultMaxStreamsPerPrincipal
	}
	return &streamLimiter{timing: defaultStreamTiming, max: max, per: per, by: map[string]int{}}
}

// acquire takes a stream slot for principal, or answers the 429.
func (l *streamLimiter) acquire(principal string) *apiError {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.by[principal] >= l.per:
		return errorf(http.StatusTooManyRequests, codeTooManyStreams, fmt.Sprintf(
			"this principal has %d session streams open, the most allowed; close one first", l.per))
	case l.total >= l.max:
		return errorf(http.StatusTooManyRequests, codeTooManyStreams, fmt.Sprintf(
			"the server has %d session streams open, the most allowed; retry later", l.max))
	}
	l.by[principal]++
	l.total++
	return nil
}

func (l *streamLimiter) release(principal string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total--
	if l.by[principal]--; l.by[principal] <= 0 {
		delete(l.by, principal)
	}
}

// startIndex reads the stream's startIndex (0 when absent): a whole number,
// not negative.
func startIndex(r *http.Request) (int64, *apiError) {
	q := r.URL.Query()
	if !q.Has("startIndex") {
		return 0, nil
	}
	v := q.Get("startIndex")
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, invalidField(fmt.Sprintf("startIndex must be a whole number, 0 or more, not %q", clip(v, 40)),
			"expected a whole number ≥ 0", "startIndex")
	}
	return n, nil
}

// serveStream answers GET /v1/session/{id}/stream.
func (a *agent) serveStream(c *reqCtx) {
	id := c.segs[0]
	if _, aerr := a.resolve(c.principal, &id, nil); aerr != nil {
		writeError(c.w, aerr)
		return
	}
	pos, aerr := startIndex(c.r)
	if aerr != nil {
		writeError(c.w, aerr)
		return
	}
	if aerr := a.hub.streams.acquire(c.principal); aerr != nil {
		c.w.Header().Set("Retry-After", "1")
		writeError(c.w, aerr)
		return
	}
	defer a.hub.streams.release(c.principal)
	timing := a.hub.streams.timing
	if tc, ok := tcpConn(c.r); ok {
		_ = tc.SetWriteBuffer(timing.sendBuffer)
	}
	rc := http.NewResponseController(c.w)
	// Whatever deadline covered the request's headers and body does not
	// cover the stream's life.
	_ = rc.SetReadDeadline(time.Time{})
	defer func() { _ = rc.SetWriteDeadline(time.Time{}) }()
	stopWatch := context.AfterFunc(a.hub.ended, func() { _ = rc.SetWriteDeadline(time.Now().Add(streamLastWrite)) })
	defer stopWatch()
	h := c.w.Header()
	h.Set("Content-Type", ndjsonType)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	// The connection's send buffer is a stream's: it is not kept for the
	// next request.
	h.Set("Connection", "close")
	c.w.WriteHeader(http.StatusOK)
	if c.r.Method == http.MethodHead {
		return
	}
	// A writer that cannot flush (an injected fault records the answer)
	// gets the replay and the end.
	live := rc.Flush() == nil
	bw := bufio.NewWriterSize(c.w, 64<<10)
	beat := time.NewTimer(timing.heartbeat)
	defer beat.Stop()
	// deadline is the write deadline of the pass about to write.
	deadline := func() {
		d := timing.writeTimeout
		if a.hub.ended.Err() != nil {
			d = streamLastWrite
		}
		_ = rc.SetWriteDeadline(time.Now().Add(d))
	}
	for {
		var evs []event
		var note []byte
		var notify <-chan struct{}
		next := pos
		found := a.sessions.with(id, func(s *session) bool {
			evs, note, next, notify = s.log().from(pos, streamBatch)
			return false
		})
		if !found {
			return // the session was forgotten (the caps on sessions)
		}
		if note != nil || len(evs) > 0 {
			deadline()
			if note != nil {
				bw.Write(note)
				bw.WriteByte('\n')
			}
			for i := range evs {
				bw.Write(evs[i].line)
				bw.WriteByte('\n')
			}
			if bw.Flush() != nil || (live && rc.Flush() != nil) {
				return
			}
			pos = next
			beat.Reset(timing.heartbeat)
			continue
		}
		if !live {
			return
		}
		select {
		case <-beat.C:
			deadline()
			if _, err := c.w.Write(heartbeat); err != nil || rc.Flush() != nil {
				return
			}
			beat.Reset(timing.heartbeat)
		case <-notify:
		case <-c.r.Context().Done():
			return
		case <-a.hub.closed:
			// The turns have recorded their ends: one more pass writes
			// them, then the stream ends.
			live = false
		}
	}
}

// heartbeat is what an idle stream writes: streamHeartbeatSize empty
// lines.
var heartbeat = bytes.Repeat([]byte("\n"), streamHeartbeatSize)

// tcpConn is the TCP connection a request came on, when it came through
// the server's listener.
func tcpConn(r *http.Request) (*net.TCPConn, bool) {
	cc := connOf(r)
	if cc == nil {
		return nil, false
	}
	tc, ok := cc.Conn.(*net.TCPConn)
	return tc, ok
}

package devserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// injectedFaultBody is the answer of a fault that sets only a status.
var injectedFaultBody = []byte(`{"ok":false,"error":"injected_fault"}`)

// applyFault answers a request that matched an armed fault: it waits
// (delayMs), hangs (hangMs), answers the fault's status or body, or cuts the
// body short (truncate); what the fault leaves unset comes from the real
// route, next.
func (s *Server) applyFault(c *reqCtx, f *fault, next func()) {
	if f.DelayMs > 0 && !s.sleep(c.r.Context(), time.Duration(f.DelayMs)*time.Millisecond) {
		if c.r.Context().Err() == nil { // the server is closing; the caller is still there
			writeError(c.w, errorf(http.StatusServiceUnavailable, codeShuttingDown, "the server is shutting down"))
		}
		return
	}
	if f.HangMs > 0 {
		s.hang(c, time.Duration(f.HangMs)*time.Millisecond)
		return
	}
	if f.Status == 0 && f.Body == nil && !f.Truncate {
		next()
		return
	}
	header := http.Header{}
	var status int
	var body []byte
	switch {
	case f.Body != nil:
		status, body = f.Status, f.Body
		if status == 0 {
			status = http.StatusOK
		}
		header.Set("Content-Type", sniff(body))
	case f.Status != 0:
		status, body = f.Status, injectedFaultBody
		header.Set("Content-Type", "application/json; charset=utf-8")
	default: // truncate alone: cut the real answer short
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		real := c.w
		c.w = rec
		next()
		c.w = real
		status, header, body = rec.status, rec.header, rec.body.Bytes()
	}
	if f.Truncate {
		s.truncate(c, status, header, body)
		return
	}
	for k, v := range header {
		c.w.Header()[k] = v
	}
	c.w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	c.w.WriteHeader(status)
	_, _ = c.w.Write(body)
}

// sniff picks the Content-Type of a raw fault body: JSON when it looks like
// JSON, else what net/http detects (text/html, text/plain…).
func sniff(body []byte) string {
	t := bytes.TrimSpace(body)
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		return "application/json; charset=utf-8"
	}
	return http.DetectContentType(body)
}

// sleep waits d, or less if the request or the server ends; it reports
// whether the whole wait passed.
func (s *Server) sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

// hang takes the connection over, writes nothing for d (or until the server
// closes), then closes it.
func (s *Server) hang(c *reqCtx, d time.Duration) {
	conn, _, err := http.NewResponseController(c.w).Hijack()
	if err != nil {
		s.logf("devserver: hang fault: %v", err)
		return
	}
	defer conn.Close()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-s.done:
	}
}

// truncate writes the status and headers with the full Content-Length, then
// half the body, and closes the connection.
func (s *Server) truncate(c *reqCtx, status int, header http.Header, body []byte) {
	conn, _, err := http.NewResponseController(c.w).Hijack()
	if err != nil {
		s.logf("devserver: truncate fault: %v", err)
		return
	}
	defer conn.Close()
	bw := bufio.NewWriter(conn)
	fmt.Fprintf(bw, "HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
	header = header.Clone()
	header.Set("Content-Length", strconv.Itoa(len(body)))
	header.Set("Connection", "close")
	header.Del("Transfer-Encoding")
	_ = header.Write(bw)
	_, _ = bw.WriteString("\r\n")
	_, _ = bw.Write(body[:len(body)/2])
	_ = bw.Flush()
}

// recorder keeps a route's answer for a truncate fault.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}

package cli

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestOneShotRoundTrips: a one-shot call to a URL target costs two sequential
// round trips (docs/wire.md#session-binding): the tool detail and the session
// lookup in parallel, then the call. A proxy in front of the deployment holds
// the first GET until the second arrives — a client that sent them one after
// the other would stall there — and records the order of everything.
func TestOneShotRoundTrips(t *testing.T) {
	t.Parallel()
	srv := startDeployment(t)
	up, _ := url.Parse(srv.URL())
	// Rewrite (unlike Director) adds no X-Forwarded-For, which the
	// loopback-only deployment would refuse.
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(up) }}

	var (
		mu      sync.Mutex
		log     []string
		gets    int
		both    = make(chan struct{})
		stalled bool
	)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		log = append(log, r.Method+" "+strings.TrimPrefix(r.URL.Path, "/executor"))
		first := false
		if r.Method == http.MethodGet {
			gets++
			first = gets == 1
			if gets == 2 {
				close(both)
			}
		}
		mu.Unlock()
		if first {
			select {
			case <-both:
			case <-time.After(10 * time.Second):
				mu.Lock()
				stalled = true
				mu.Unlock()
			}
		}
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()

	out, status := runAgsh(t, proxy.URL+"/executor", "read", "/repo/README.md")
	if status != 0 || out != "# demo\n" {
		t.Fatalf("read: status %d, output %q", status, out)
	}
	mu.Lock()
	defer mu.Unlock()
	if stalled {
		t.Errorf("the tool detail and the session lookup were not sent in parallel: %v", log)
	}
	if len(log) != 3 || log[2] != "POST /v1/tools/read" {
		t.Errorf("requests = %v; want the two GETs (detail, sessions) then the POST", log)
	}
	joined := strings.Join(log[:2], " ")
	if !strings.Contains(joined, "GET /v1/tools/read") || !strings.Contains(joined, "GET /v1/sessions") {
		t.Errorf("the first round trip was %v; want the detail and the sessions", log[:2])
	}
}

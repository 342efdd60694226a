package catalog

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestOneConnectionForARun checks keep-alive: a run's requests, errors
// included, reuse one connection.
func TestOneConnectionForARun(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/sessions":
			writeJSON(w, 200, sessionsBody)
		case "/v1/tools/missing":
			writeJSON(w, 404, `{"ok":false,"error":"unknown_tool","available":["read"]}`)
		case "/v1/tools":
			writeJSON(w, 200, `{"ok":true,"tools":[{"name":"read"}]}`)
		default:
			writeJSON(w, 200, `{"ok":true,"tool":{"name":"read"},"toolName":"read","result":1}`)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c, err := New(srv.URL, fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t)
	for range 5 {
		if _, err := c.Tools(ctx, Binding{}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Call(ctx, "read", nil, Binding{SessionID: "s"}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Tool(ctx, "missing", Binding{}); err == nil {
			t.Fatal("want unknown_tool")
		}
		if _, err := c.Sessions(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections for 20 sequential requests, want 1", n)
	}
}

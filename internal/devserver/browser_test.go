package devserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// browserReq is one request of the browser-style set.
type browserReq struct {
	name        string
	method      string
	path        string // under the host
	host        string // "" keeps the server's own; "SELF" too
	header      map[string]string
	body        string
	contentType string // "-" sends none
	chunked     bool   // the body is sent without a length
	status      int
	code        string // the envelope's error code when status is not 200
}

// doBrowser sends r to the server at base (http://127.0.0.1:PORT).
func doBrowser(t *testing.T, base string, r browserReq) (int, []byte) {
	t.Helper()
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
		if r.chunked {
			body = io.MultiReader(body) // hides the length: sent chunked
		}
	}
	req, err := http.NewRequest(r.method, base+r.path, body)
	if err != nil {
		t.Fatal(err)
	}
	if r.host != "" {
		u, _ := url.Parse(base)
		req.Host = strings.ReplaceAll(r.host, "PORT", u.Port())
	}
	switch r.contentType {
	case "":
		if r.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
	case "-":
	default:
		req.Header.Set("Content-Type", r.contentType)
	}
	for k, v := range r.header {
		u, _ := url.Parse(base)
		req.Header.Set(k, strings.ReplaceAll(v, "PORT", u.Port()))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// TestBrowserRequests is the browser-style request set
// (docs/devserver.md#browser-protections): what a web page can make a browser
// send — a foreign Host after DNS rebinding, a cross-origin Origin, a form or
// text/plain POST — is refused in every mode where it matters, and what the
// agsh client sends passes.
func TestBrowserRequests(t *testing.T) {
	const (
		info    = "/executor/v1/info"
		call    = "/executor/v1/tools/echo_read"
		session = "/executor/v1/session"
	)
	big := strings.Repeat("x", 2<<20)
	loopback := []browserReq{
		// What the agsh client sends: its Host is the target's, POSTs are JSON.
		{name: "client GET", method: "GET", path: info, status: 200},
		{name: "client POST", method: "POST", path: call, body: `{"input":{}}`, status: 200},
		{name: "POST json with charset", method: "POST", path: call, body: `{"input":{}}`, contentType: "application/json; charset=utf-8", status: 200},
		{name: "POST without content type", method: "POST", path: call, body: `{"input":{}}`, contentType: "-", status: 200},
		{name: "host localhost", method: "GET", path: info, host: "localhost:PORT", status: 200},
		{name: "host localhost upper", method: "GET", path: info, host: "LOCALHOST:PORT", status: 200},
		{name: "host ipv6 loopback", method: "GET", path: info, host: "[::1]:PORT", status: 200},
		{name: "host other loopback", method: "GET", path: info, host: "127.0.0.2:PORT", status: 200},
		{name: "same origin", method: "GET", path: info, header: map[string]string{"Origin": "http://127.0.0.1:PORT"}, status: 200},
		{name: "same-origin POST", method: "POST", path: call, body: `{"input":{}}`, header: map[string]string{"Origin": "http://127.0.0.1:PORT"}, status: 200},
		{name: "fetch from the address bar", method: "GET", path: info, header: map[string]string{"Sec-Fetch-Site": "none"}, status: 200},
		// DNS rebinding: the page's own name, now resolving to 127.0.0.1.
		{name: "rebound host", method: "GET", path: info, host: "evil.example:PORT", status: 403, code: "forbidden"},
		{name: "rebound host, agents listing", method: "GET", path: "/v1/agents", host: "evil.example:PORT", status: 403, code: "forbidden"},
		{name: "rebound host looking local", method: "GET", path: info, host: "127.0.0.1.nip.io:PORT", status: 403, code: "forbidden"},
		{name: "rebound host POST", method: "POST", path: call, body: `{"input":{}}`, host: "evil.example:PORT", status: 403, code: "forbidden"},
		// Cross-origin requests.
		{name: "cross origin GET", method: "GET", path: info, header: map[string]string{"Origin": "http://evil.example"}, status: 403, code: "forbidden"},
		{name: "cross origin POST", method: "POST", path: call, body: `{"input":{}}`, header: map[string]string{"Origin": "http://evil.example"}, status: 403, code: "forbidden"},
		{name: "null origin", method: "POST", path: call, body: `{"input":{}}`, header: map[string]string{"Origin": "null"}, status: 403, code: "forbidden"},
		{name: "other port origin", method: "GET", path: info, header: map[string]string{"Origin": "http://127.0.0.1:1"}, status: 403, code: "forbidden"},
		{name: "https origin", method: "GET", path: info, header: map[string]string{"Origin": "https://127.0.0.1:PORT"}, status: 403, code: "forbidden"},
		{name: "cross-site fetch metadata", method: "GET", path: info, header: map[string]string{"Sec-Fetch-Site": "cross-site"}, status: 403, code: "forbidden"},
		// Simple requests a page sends without a CORS preflight.
		{name: "text/plain POST", method: "POST", path: call, body: `{"input":{}}`, contentType: "text/plain", status: 415, code: "unsupported_media_type"},
		{name: "form POST", method: "POST", path: session, body: "message=hi", contentType: "application/x-www-form-urlencoded", status: 415, code: "unsupported_media_type"},
		{name: "multipart POST", method: "POST", path: session, body: "--x--", contentType: "multipart/form-data; boundary=x", status: 415, code: "unsupported_media_type"},
		{name: "fault arming as text/plain", method: "POST", path: "/executor/v1/dev/faults", body: `{"route":"GET /v1/info","status":500}`, contentType: "text/plain", status: 415, code: "unsupported_media_type"},
		{name: "too large text/plain is 413 first", method: "POST", path: session, body: big, contentType: "text/plain", status: 413, code: "request_too_large"},
		{name: "too large chunked text/plain is 413 first", method: "POST", path: session, body: big, contentType: "text/plain", chunked: true, status: 413, code: "request_too_large"},
		{name: "chunked text/plain POST", method: "POST", path: call, body: `{"input":{}}`, contentType: "text/plain", chunked: true, status: 415, code: "unsupported_media_type"},
		{name: "chunked client POST", method: "POST", path: call, body: `{"input":{}}`, chunked: true, status: 200},
	}
	shared := []browserReq{
		{name: "client GET", method: "GET", path: info, status: 200},
		{name: "any host", method: "GET", path: info, host: "devserver.lan:PORT", status: 200},
		{name: "same origin on its name", method: "GET", path: info, host: "devserver.lan:PORT", header: map[string]string{"Origin": "http://devserver.lan:PORT"}, status: 200},
		{name: "cross origin", method: "GET", path: info, header: map[string]string{"Origin": "http://evil.example"}, status: 403, code: "forbidden"},
		{name: "text/plain POST", method: "POST", path: call, body: `{"input":{}}`, contentType: "text/plain", status: 415, code: "unsupported_media_type"},
	}
	tokenOnLoopback := []browserReq{
		{name: "rebound host", method: "GET", path: "/v1/agents", host: "evil.example:PORT", status: 403, code: "forbidden"},
		{name: "own host", method: "GET", path: "/v1/agents", status: 200},
	}
	modes := []struct {
		name string
		cfg  func(*devserver.Config)
		reqs []browserReq
	}{
		{"loopback", func(*devserver.Config) {}, loopback},
		{"anonymous", func(c *devserver.Config) { c.AllowAnonymous = true }, shared},
		{"token on loopback", func(c *devserver.Config) { c.BearerTokens = []string{"s3cret"} }, tokenOnLoopback},
	}
	for _, m := range modes {
		cfg := testConfig()
		m.cfg(&cfg)
		s := devservertest.Start(t, cfg)
		for _, r := range m.reqs {
			t.Run(m.name+"/"+r.name, func(t *testing.T) {
				status, body := doBrowser(t, s.URL(), r)
				if status != r.status {
					t.Fatalf("got %d %s, want %d", status, clipBody(body), r.status)
				}
				if r.code != "" {
					var e struct {
						OK    bool   `json:"ok"`
						Error string `json:"error"`
					}
					if json.Unmarshal(body, &e) != nil || e.OK || e.Error != r.code {
						t.Fatalf("got %s, want the %s envelope", clipBody(body), r.code)
					}
				}
			})
		}
	}
}

// A token server listening beyond loopback is shared: any Host is taken
// (a LAN name, a proxy's), while a cross-origin page is still refused.
func TestBrowserSharedTokenMode(t *testing.T) {
	cfg := testConfig()
	cfg.Addr = "0.0.0.0:39400" // never started: the handler is driven directly
	cfg.BearerTokens = []string{"s3cret"}
	s, err := devserver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	auth := map[string]string{"Authorization": "Bearer s3cret", "Host": "devserver.lan:39400"}
	if status, body := serveAs(t, s, "192.0.2.7:1", "GET", "/executor/v1/info", auth); status != 200 {
		t.Fatalf("host not taken in the shared mode: %d %s", status, body)
	}
	auth["Origin"] = "http://evil.example"
	if status, body := serveAs(t, s, "192.0.2.7:1", "GET", "/executor/v1/info", auth); status != 403 {
		t.Fatalf("cross origin in the shared mode: %d %s", status, body)
	}
	// The loopback mode of the same listen address checks the Host.
	cfg.BearerTokens = nil
	if s, err = devserver.New(cfg); err != nil {
		t.Fatal(err)
	}
	delete(auth, "Origin")
	delete(auth, "Authorization")
	if status, body := serveAs(t, s, "127.0.0.1:1", "GET", "/executor/v1/info", auth); status != 403 || !strings.Contains(body, "Host header") {
		t.Fatalf("a foreign host in the loopback mode: %d %s", status, body)
	}
}

func clipBody(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

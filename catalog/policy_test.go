package catalog

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// Every spelling of a secret a JSON answer can give is masked, also split
// across reads; what only resembles it is left alone.
func TestRedactReaderSpellings(t *testing.T) {
	const tok = "tok_a/b&c"
	cases := []struct{ in, want string }{
		{`{"a":"tok_a/b&c"}`, `{"a":"***"}`},
		{`{"a":"tok_a\/b\u0026c"}`, `{"a":"***"}`},
		{`{"a":"\u0074\u006F\u006b\u005f\u0061\u002f\u0062\u0026\u0063"}`, `{"a":"***"}`},
		{`{"a":"t\u006fk_a/b&c!","b":"tok_a/b&"}`, `{"a":"***!","b":"tok_a/b&"}`},
		{`{"a":"tok_a\\/b&c"}`, `{"a":"tok_a\\/b&c"}`},
		{`xx tok_a/b&c xx tok_a/b&c`, `xx *** xx ***`},
		{`\u00`, `\u00`},
	}
	for _, c := range cases {
		for _, size := range []int{1, 3, 7, 1000} {
			r := newRedactReader(&chunked{s: c.in, size: size}, []string{tok, "ab"})
			b, err := io.ReadAll(r)
			if err != nil || string(b) != c.want {
				t.Errorf("%s (chunks of %d) = %s, %v; want %s", c.in, size, b, err, c.want)
			}
		}
	}
	// A secret with a character outside the BMP, as a surrogate pair.
	r := newRedactReader(strings.NewReader(`"k\ud83d\ude00y-1"`), []string{"k😀y-1"})
	if b, _ := io.ReadAll(r); string(b) != `"***"` {
		t.Errorf("surrogate pair: %s", b)
	}
	// Decoding a masked answer gives no secret.
	var v map[string]string
	r = newRedactReader(strings.NewReader(`{"a":"x\u0074ok_a/b&cx"}`), []string{tok})
	if err := json.NewDecoder(r).Decode(&v); err != nil || strings.Contains(v["a"], tok) {
		t.Errorf("decoded %q, %v", v["a"], err)
	}
}

// chunked reads s size bytes at a time.
type chunked struct {
	s    string
	size int
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.size)], c.s)
	c.s = c.s[n:]
	return n, nil
}

// The token goes only to the exact origin it was meant for: a redirect to
// another port of the same host drops it; a POST follows only a same-origin
// 307/308.
func TestRedirectPolicy(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"ok":true,"tools":[{"name":"auth:`+r.Header.Get("Authorization")+`"}],"result":"other","isError":false}`)
	}))
	defer other.Close()
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a/v1/tools":
			http.Redirect(w, r, other.URL+"/a/v1/tools", http.StatusFound)
		case "/b/v1/tools":
			http.Redirect(w, r, "/c/v1/tools", http.StatusFound)
		case "/c/v1/tools":
			writeJSON(w, 200, `{"ok":true,"tools":[{"name":"auth:`+r.Header.Get("Authorization")+`"}]}`)
		case "/a/v1/tools/found":
			http.Redirect(w, r, "/a/v1/tools/echo", http.StatusFound)
		case "/a/v1/tools/moved":
			http.Redirect(w, r, "/a/v1/tools/echo", http.StatusMovedPermanently)
		case "/a/v1/tools/same":
			http.Redirect(w, r, "/a/v1/tools/echo", http.StatusTemporaryRedirect)
		case "/a/v1/tools/away":
			http.Redirect(w, r, other.URL+"/a/v1/tools/echo", http.StatusPermanentRedirect)
		case "/a/v1/tools/choices":
			// A 3xx that net/http does not follow (no Location).
			writeJSON(w, http.StatusMultipleChoices, `{"ok":true,"isError":false,"result":"x"}`)
		case "/a/v1/tools/bare":
			writeJSON(w, http.StatusFound, `{"ok":true,"isError":false,"result":"x"}`)
		case "/a/v1/tools/echo":
			b, _ := io.ReadAll(r.Body)
			writeJSON(w, 200, `{"ok":true,"isError":false,"result":`+strings.TrimSpace(string(mustJSON(r.Method+" "+string(b))))+`}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer target.Close()
	opts := fastOptions()
	opts.HTTPClient = NewHTTPClient()
	ca, _ := New(target.URL+"/a", opts)
	tools, err := ca.Tools(ctxT(t), Binding{})
	if err != nil || len(tools) != 1 || tools[0].Name != "auth:" {
		t.Errorf("redirect to another port: %v %v (the token must not follow)", tools, err)
	}
	cb, _ := New(target.URL+"/b", opts)
	tools, err = cb.Tools(ctxT(t), Binding{})
	if err != nil || len(tools) != 1 || tools[0].Name != "auth:Bearer "+testToken {
		t.Errorf("same-origin redirect lost the token: %v %v", tools, err)
	}
	res, err := ca.Call(ctxT(t), "same", json.RawMessage(`{"x":1}`), Binding{})
	if err != nil || string(res.Result) != `"POST {\"input\":{\"x\":1}}"` {
		t.Errorf("same-origin 307: %s %v", resultOf(res), err)
	}
	for name, want := range map[string]string{
		"found":   "deployment answered POST /v1/tools/found with 302 Found; agsh follows no such redirect for a call, so the call did not run",
		"moved":   "deployment answered POST /v1/tools/moved with 301 Moved Permanently; agsh follows no such redirect for a call, so the call did not run",
		"choices": "deployment answered POST /v1/tools/choices with 300 Multiple Choices; agsh follows no such redirect for a call, so the call did not run",
		"bare":    "deployment answered POST /v1/tools/bare with 302 Found; agsh follows no such redirect for a call, so the call did not run",
		"away": "deployment redirected POST /v1/tools/away to another origin (" + origin(mustURL(other.URL)) +
			"); refused: a call and its credential go only to " + origin(mustURL(target.URL)) + ", so the call did not run",
	} {
		_, err := ca.Call(ctxT(t), name, nil, Binding{})
		wantError(t, err, CodeBadResponse, ExitUnreachable, want)
	}
}

func mustJSON(s string) []byte { b, _ := json.Marshal(s); return b }

func mustURL(s string) *url.URL { u, _ := url.Parse(s); return u }

func resultOf(r *CallResult) string {
	if r == nil {
		return "<nil>"
	}
	return string(r.Result)
}

// A redirect from https:// to plain http:// is not followed (the credential
// would go in clear), except to a loopback host.
func TestRedirectDowngrade(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "plain "+r.Header.Get("Authorization"))
	}))
	defer plain.Close()
	tls := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	defer tls.Close()
	hc := NewHTTPClient()
	hc.Transport.(*http.Transport).TLSClientConfig = tls.Client().Transport.(*http.Transport).TLSClientConfig
	_, err := hc.Get(tls.URL + "/?to=" + url.QueryEscape("http://user:pw@deploy.example/x"))
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if err == nil || !strings.Contains(err.Error(), "it redirected from https:// to http://deploy.example/x; refused") ||
		strings.Contains(err.Error(), "pw@") {
		t.Errorf("downgrade: err = %v", err)
	}
	resp, err := hc.Get(tls.URL + "/?to=" + url.QueryEscape(plain.URL+"/y"))
	if err != nil {
		t.Fatalf("loopback: %v", err)
	}
	resp.Body.Close()
}

// The policy's client masks the secrets in every answer.
func TestPolicyClientMasks(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"ok":true,"isError":false,"result":["tok&en-1234","tok\u0026en-1234","\u0074ok&en-1234","tok&en-12"]}`)
	}))
	defer srv.Close()
	opts := fastOptions()
	opts.HTTPClient = NewHTTPClientWith(HTTPPolicy{Secrets: []string{"tok&en-1234"}})
	c, _ := New(srv.URL, opts)
	res, err := c.Call(context.Background(), "echo", nil, Binding{})
	if err != nil || string(res.Result) != `["***","***","***","tok&en-12"]` {
		t.Errorf("result = %s, %v", resultOf(res), err)
	}
}

func TestURLPasswordAndWarning(t *testing.T) {
	if p := URLPassword("https://user:s3cret-pw@host/agent"); p != "s3cret-pw" {
		t.Errorf("URLPassword = %q", p)
	}
	// The password and the basic credential net/http sends for it.
	if s := URLSecrets("https://user:s3cret-pw@host/agent"); len(s) != 2 || s[0] != "s3cret-pw" ||
		s[1] != base64.StdEncoding.EncodeToString([]byte("user:s3cret-pw")) {
		t.Errorf("URLSecrets = %q", s)
	}
	if s := URLSecrets("https://user@host/agent"); s != nil {
		t.Errorf("URLSecrets without a password = %q", s)
	}
	for target, want := range map[string]string{
		"http://deploy.example:8080/a": "warning: the credential goes to deploy.example over plain http://, unencrypted; use https://",
		"https://deploy.example/a":     "",
		"http://127.0.0.1:8080/a":      "",
		"http://localhost/a":           "",
		"http://u:pw@deploy.example/a": "warning: the credential goes to deploy.example over plain http://, unencrypted; use https://",
	} {
		c, err := New(target, Options{BearerToken: "tok-12345"})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.PlainHTTPWarning(); got != want {
			t.Errorf("%s: warning %q, want %q", target, got, want)
		}
	}
	c, _ := New("http://deploy.example/a", Options{})
	if w := c.PlainHTTPWarning(); w != "" {
		t.Errorf("no credential, warning %q", w)
	}
}

// NoHTTP2 speaks HTTP/1.1 even to a server offering h2 (GODEBUG=http2debug
// would log the Authorization header of h2 frames).
func TestPolicyNoHTTP2(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Proto)
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	for _, no := range []bool{false, true} {
		hc := NewHTTPClientWith(HTTPPolicy{NoHTTP2: no, Secrets: []string{"tok-1234"}})
		pool := x509.NewCertPool()
		pool.AddCert(srv.Certificate())
		hc.Transport.(redactTransport).base.(*http.Transport).TLSClientConfig = &tls.Config{RootCAs: pool}
		resp, err := hc.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if want := map[bool]string{false: "HTTP/2.0", true: "HTTP/1.1"}[no]; string(b) != want {
			t.Errorf("NoHTTP2=%v: %s, want %s", no, b, want)
		}
	}
}

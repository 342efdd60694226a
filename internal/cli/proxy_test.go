package cli

import (
	"encoding/base64"
	"encoding/pem"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// echoBackend is a deployment of one tool, echo, answering "ok".
func echoBackend(w http.ResponseWriter, r *http.Request) {
	switch p := r.URL.Path; {
	case strings.HasSuffix(p, "/v1/sessions"):
		answer(w, `{"ok":true,"sessions":[]}`)
	case strings.HasSuffix(p, "/v1/info"):
		answer(w, `{"ok":true,"name":"behind a proxy","tools":[]}`)
	case r.Method == http.MethodGet && strings.HasSuffix(p, "/v1/tools"):
		answer(w, `{"ok":true,"tools":[{"name":"echo"}]}`)
	case r.Method == http.MethodGet:
		answer(w, `{"ok":true,"tool":{"name":"echo","inputSchema":{"type":"object"}}}`)
	default:
		answer(w, `{"ok":true,"isError":false,"result":"ok from the deployment"}`)
	}
}

// testProxy is an HTTP proxy asking for Basic credentials (user:want):
// without them it answers 407 with a body that echoes what it was sent;
// with them it carries plain http:// requests to plain (answering calls
// itself, its answer echoing the credential) and tunnels CONNECT to tls,
// whatever host was named.
type testProxy struct {
	*httptest.Server
	hits atomic.Int64
}

func newTestProxy(t *testing.T, user, want string, plain, tls string) *testProxy {
	t.Helper()
	p := &testProxy{}
	good := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+want))
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.hits.Add(1)
		got := r.Header.Get("Proxy-Authorization")
		if got != good {
			w.Header().Set("Proxy-Authenticate", `Basic realm="test"`)
			w.WriteHeader(http.StatusProxyAuthRequired)
			io.WriteString(w, "you sent Proxy-Authorization: "+got)
			return
		}
		if r.Method == http.MethodConnect {
			up, err := net.Dial("tcp", tls)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			w.WriteHeader(http.StatusOK)
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				up.Close()
				return
			}
			go func() { io.Copy(up, buf); up.Close() }()
			io.Copy(conn, up)
			conn.Close()
			return
		}
		if r.Method == http.MethodPost {
			answer(w, `{"ok":true,"isError":false,"result":"the proxy saw `+got+` (`+user+`, `+want+`)"}`)
			return
		}
		u, _ := url.Parse(plain)
		r.URL.Scheme, r.URL.Host, r.RequestURI = u.Scheme, u.Host, ""
		r.Header.Del("Proxy-Authorization")
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(p.Close)
	return p
}

// TestProxy: HTTP_PROXY, HTTPS_PROXY (a CONNECT tunnel), NO_PROXY and
// SSL_CERT_FILE work; a proxy's 407 is exit 5, proxy_auth, naming the
// proxy; the proxy's user, password and their basic-auth form are never
// printed, also when the proxy echoes them.
func TestProxy(t *testing.T) {
	t.Parallel()
	plain := httptest.NewServer(http.HandlerFunc(echoBackend))
	defer plain.Close()
	tls := httptest.NewUnstartedServer(http.HandlerFunc(echoBackend))
	tls.Config.ErrorLog = log.New(io.Discard, "", 0) // the case without the CA fails its handshakes
	tls.StartTLS()
	defer tls.Close()
	const user, pass = "proxy-user-77", "proxy-Pass-913"
	p := newTestProxy(t, user, pass, plain.URL, tls.Listener.Addr().String())
	proxyHost := strings.TrimPrefix(p.URL, "http://")
	withCreds := strings.Replace(p.URL, "http://", "http://"+user+":"+pass+"@", 1)
	wrongCreds := strings.Replace(p.URL, "http://", "http://"+user+":wrong-Pass-55@", 1)
	certFile := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tls.Certificate().Raw}), 0o600)
	secrets := []string{pass, "wrong-Pass-55", user, base64.StdEncoding.EncodeToString([]byte(user + ":" + pass)),
		base64.StdEncoding.EncodeToString([]byte(user + ":wrong-Pass-55"))}

	run := func(env []string, args ...string) (string, string, int) {
		t.Helper()
		cmd := agshCommand(args...)
		cmd.Env = append(cmd.Env, "HTTP_PROXY=", "HTTPS_PROXY=", "NO_PROXY=", "http_proxy=", "https_proxy=", "no_proxy=",
			"AGENT_SHELL_BEARER_TOKEN=", "SSL_CERT_FILE="+certFile)
		cmd.Env = append(cmd.Env, env...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Run()
		for _, s := range secrets {
			if strings.Contains(out.String()+errb.String(), s) {
				t.Errorf("%v %q: the proxy credential %q was printed:\n%s%s", env, args, s, out.String(), errb.String())
			}
		}
		return out.String(), errb.String(), cmd.ProcessState.ExitCode()
	}
	// (Loopback is never proxied: the targets are names the proxy maps.)
	for _, tc := range []struct {
		name   string
		env    []string
		args   []string
		exit   int
		stdout string
		stderr []string
	}{
		{"http, no credentials", []string{"HTTP_PROXY=" + p.URL, "AGENT_SHELL_TARGET=http://deploy.example/agent"},
			[]string{"echo", "--output", "json"}, 5, "",
			[]string{"agsh: the proxy " + proxyHost + " asked for proxy credentials on GET /v1/tools/echo (407 Proxy Authentication Required)",
				"check HTTPS_PROXY/HTTP_PROXY", `"error":"proxy_auth"`, `"exit":5`}},
		{"http, wrong credentials echoed", []string{"HTTP_PROXY=" + wrongCreds, "AGENT_SHELL_TARGET=http://deploy.example/agent"},
			[]string{"echo"}, 5, "", []string{"the proxy " + proxyHost + " asked for proxy credentials"}},
		{"http, credentials echoed in the answer", []string{"HTTP_PROXY=" + withCreds, "AGENT_SHELL_TARGET=http://deploy.example/agent"},
			[]string{"echo"}, 0, "the proxy saw Basic *** (***, ***)\n", nil},
		{"https tunnel, wrong credentials", []string{"HTTPS_PROXY=" + wrongCreds, "AGENT_SHELL_TARGET=https://example.com/agent"},
			[]string{"echo"}, 5, "", []string{"the proxy " + proxyHost + " asked for proxy credentials", "407"}},
		{"https tunnel and SSL_CERT_FILE", []string{"HTTPS_PROXY=" + withCreds, "AGENT_SHELL_TARGET=https://example.com/agent"},
			[]string{"echo"}, 0, "ok from the deployment\n", nil},
		{"https, the CA not given", []string{"HTTPS_PROXY=" + withCreds, "AGENT_SHELL_TARGET=https://example.com/agent", "SSL_CERT_FILE=/nonexistent"},
			[]string{"echo"}, 5, "", []string{"TLS certificate is not trusted"}},
		// Loopback over TLS, reached directly (never proxied): the CA of
		// SSL_CERT_FILE is the one trusted.
		{"loopback https and SSL_CERT_FILE", []string{"HTTPS_PROXY=" + withCreds, "AGENT_SHELL_TARGET=" + tls.URL + "/agent"},
			[]string{"echo"}, 0, "ok from the deployment\n", nil},
		{"loopback https, the CA not given", []string{"AGENT_SHELL_TARGET=" + tls.URL + "/agent", "SSL_CERT_FILE=" + filepath.Join(t.TempDir(), "none.pem")},
			[]string{"echo"}, 5, "", []string{"TLS certificate is not trusted"}},
		{"NO_PROXY", []string{"HTTP_PROXY=" + withCreds, "NO_PROXY=deploy.invalid", "AGENT_SHELL_TARGET=http://deploy.invalid/agent"},
			[]string{"echo"}, 5, "", []string{"deploy.invalid"}},
		{"proxy down", []string{"HTTP_PROXY=http://" + user + ":" + pass + "@127.0.0.1:1", "AGENT_SHELL_TARGET=http://deploy.example/agent"},
			[]string{"echo"}, 5, "", []string{"cannot reach the proxy 127.0.0.1:1 (for http://deploy.example/agent): connection refused"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := p.hits.Load()
			out, errOut, exit := run(tc.env, tc.args...)
			t.Logf("exit %d, stderr:\n%s", exit, errOut)
			if exit != tc.exit || out != tc.stdout {
				t.Errorf("exit %d, stdout %q; want %d, %q\nstderr: %s", exit, out, tc.exit, tc.stdout, errOut)
			}
			for _, w := range tc.stderr {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			if (tc.name == "NO_PROXY" || strings.HasPrefix(tc.name, "loopback")) && p.hits.Load() != before {
				t.Errorf("%s: the request went through the proxy", tc.name)
			}
		})
	}
}

// TestHelpNamesProxyVariables: agsh --help documents the proxy, CA and
// color variables.
func TestHelpNamesProxyVariables(t *testing.T) {
	t.Parallel()
	out, err := agshCommand("--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	env := string(out[strings.Index(string(out), "ENVIRONMENT"):])
	for _, v := range []string{"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "SSL_CERT_FILE",
		"NO_COLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "CLICOLOR=0", "TERM=dumb", "no telemetry"} {
		if !strings.Contains(env, v) {
			t.Errorf("ENVIRONMENT lacks %s:\n%s", v, env)
		}
	}
}

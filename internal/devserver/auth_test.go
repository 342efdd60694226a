package devserver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// serveAs drives the handler directly so the remote address can be chosen.
func serveAs(t *testing.T, s *devserver.Server, remote, method, path string, header map[string]string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(method, "http://127.0.0.1"+path, nil)
	req.RemoteAddr = remote
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

const (
	forbiddenRemote = `{"ok":false,"error":"forbidden","message":"this server admits only loopback callers (start it with --bearer-token or --allow-anonymous to share it)"}`
	forbiddenProxy  = `{"ok":false,"error":"forbidden","message":"requests relayed by a proxy (Forwarded, X-Forwarded-For) are refused: this server admits only direct loopback callers"}`
	missingToken    = `{"ok":false,"error":"unauthorized","message":"this server requires Authorization: Bearer <token> on every request"}`
	wrongToken      = `{"ok":false,"error":"unauthorized","message":"the bearer token is not accepted by this server"}`
)

func TestAuthAdmission(t *testing.T) {
	ok := func(body string) bool { return strings.HasPrefix(body, `{"ok":true`) }
	tests := []struct {
		name      string
		tokens    []string
		anonymous bool
		remote    string
		header    map[string]string
		status    int
		body      string // "" means any ok answer
	}{
		{"loopback v4", nil, false, "127.0.0.1:5000", nil, 200, ""},
		{"loopback v6", nil, false, "[::1]:5000", nil, 200, ""},
		{"remote refused", nil, false, "192.0.2.7:5000", nil, 403, forbiddenRemote},
		{"forwarded refused", nil, false, "127.0.0.1:5000", map[string]string{"Forwarded": "for=192.0.2.7"}, 403, forbiddenProxy},
		{"x-forwarded-for refused", nil, false, "127.0.0.1:5000", map[string]string{"X-Forwarded-For": "192.0.2.7"}, 403, forbiddenProxy},
		{"anonymous admits remote", nil, true, "192.0.2.7:5000", nil, 200, ""},
		{"anonymous admits proxied", nil, true, "127.0.0.1:5000", map[string]string{"X-Forwarded-For": "192.0.2.7"}, 200, ""},
		{"token missing", []string{"s3cret"}, false, "127.0.0.1:5000", nil, 401, missingToken},
		{"token wrong", []string{"s3cret"}, false, "127.0.0.1:5000", map[string]string{"Authorization": "Bearer guess"}, 401, wrongToken},
		{"token wrong scheme", []string{"s3cret"}, false, "127.0.0.1:5000", map[string]string{"Authorization": "Basic s3cret"}, 401, wrongToken},
		{"token right", []string{"s3cret"}, false, "127.0.0.1:5000", map[string]string{"Authorization": "Bearer s3cret"}, 200, ""},
		{"second token right", []string{"one", "two"}, false, "127.0.0.1:5000", map[string]string{"Authorization": "bearer two"}, 200, ""},
		{"token admits remote", []string{"s3cret"}, false, "192.0.2.7:5000", map[string]string{"Authorization": "Bearer s3cret"}, 200, ""},
		{"token with anonymous, none sent", []string{"s3cret"}, true, "192.0.2.7:5000", nil, 200, ""},
		{"token with anonymous, wrong sent", []string{"s3cret"}, true, "192.0.2.7:5000", map[string]string{"Authorization": "Bearer nope"}, 401, wrongToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.BearerTokens, cfg.AllowAnonymous = tt.tokens, tt.anonymous
			s, err := devserver.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range []string{"/executor/v1/sessions", "/executor/v1/dev/sessions/ses_0/calls"} {
				status, body := serveAs(t, s, tt.remote, http.MethodGet, path, tt.header)
				if path != "/executor/v1/sessions" && tt.status == 200 {
					// Dev routes are admitted the same way (and then look the session up).
					if status != 404 {
						t.Fatalf("%s: got %d %s", path, status, body)
					}
					continue
				}
				if status != tt.status || (tt.body == "" && !ok(body)) || (tt.body != "" && body != tt.body) {
					t.Fatalf("%s: got %d %s\nwant %d %s", path, status, body, tt.status, tt.body)
				}
				if strings.Contains(body, "s3cret") {
					t.Fatalf("the answer echoes the token: %s", body)
				}
			}
		})
	}
}

func TestUnauthorizedCarriesChallenge(t *testing.T) {
	cfg := testConfig()
	cfg.BearerTokens = []string{"s3cret"}
	s := devservertest.Start(t, cfg)
	req, _ := http.NewRequest(http.MethodGet, s.AgentURL("executor")+"/v1/tools", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != `Bearer realm="agsh-devserver"` {
		t.Fatalf("got %d, WWW-Authenticate %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}

func TestAgentsListingNeedsNoAuth(t *testing.T) {
	cfg := testConfig()
	cfg.BearerTokens = []string{"s3cret"}
	s, err := devserver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if status, body := serveAs(t, s, "192.0.2.7:1", http.MethodGet, "/v1/agents", nil); status != 200 {
		t.Fatalf("got %d %s", status, body)
	}
}

func TestBadTokensRefused(t *testing.T) {
	for _, tok := range []string{"", " padded"} {
		cfg := testConfig()
		cfg.BearerTokens = []string{tok}
		if _, err := devserver.New(cfg); err == nil || err.Error() != "devserver: a bearer token must be non-empty and have no surrounding spaces" {
			t.Fatalf("token %q: got %v", tok, err)
		}
	}
}

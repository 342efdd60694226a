package catalog

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A control plane out of reach is named as such, with the setting that
// names it (not the deployment and --target).
func TestResolveUnreachableControlPlane(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, _, err = Resolve(ctxT(t), "http://"+addr, "x", "", Credentials{Token: testToken, Source: "CURSOR_API_KEY"}, nil)
	wantError(t, err, CodeUnreachable, ExitUnreachable,
		"cannot reach the control plane at http://"+addr+": connection refused; is it running, and is the API URL right?")
}

// An AGENT_SHELL_API_URL that is no URL is named as the control plane's
// setting, not as a target, and without its userinfo.
func TestResolveUnusableControlPlaneURL(t *testing.T) {
	for _, api := range []string{"api.cursor.com", "127.0.0.1:4000", "ftp://ops:pw@cp.example", "http://"} {
		_, _, err := Resolve(ctxT(t), api, "x", "", Credentials{Token: testToken}, nil)
		shown := api
		if api == "ftp://ops:pw@cp.example" {
			shown = "ftp://cp.example"
		}
		wantError(t, err, CodeUsage, ExitUsage, `control plane URL (the API URL) is not usable: "`+shown+
			`" is not an http:// or https:// URL with a host, such as https://api.cursor.com`)
	}
}

// A control plane that fails or answers nonsense is named as the control
// plane (exit 5), not as "deployment".
func TestResolveControlPlaneFailures(t *testing.T) {
	cases := []struct {
		status   int
		ct, body string
		code     string
		err      string
	}{
		{500, "application/json", `{"ok":false,"error":"internal","message":"oops"}`, "internal",
			"the control plane at {srv} failed the request: HTTP 500: internal: oops"},
		{503, "application/json", `{"ok":false}`, "",
			"the control plane at {srv} failed the request: error (HTTP 503)"},
		{502, "text/html", "<html>bad gateway</html>", CodeBadResponse,
			`the control plane answered GET /internal/agentsdk/deployments with 502 Bad Gateway (text/html): "<html>bad gateway</html>"`},
		{200, "text/plain", `hello`, CodeBadResponse,
			"the control plane answered GET /internal/agentsdk/deployments with "},
	}
	for _, c := range cases {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", c.ct)
			w.WriteHeader(c.status)
			w.Write([]byte(c.body))
		}))
		_, _, err := Resolve(ctxT(t), srv.URL, "x", "", Credentials{Token: testToken, Source: "CURSOR_API_KEY"}, srv.Client())
		want := strings.ReplaceAll(c.err, "{srv}", srv.URL)
		var e *Error
		if !errors.As(err, &e) || e.ExitCode() != ExitUnreachable || e.ErrCode != c.code || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("HTTP %d: got %v (%#v), want exit 5, code %q, text starting %q", c.status, err, e, c.code, want)
		}
		srv.Close()
	}
}

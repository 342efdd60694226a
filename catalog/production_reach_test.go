package catalog

import (
	"net"
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
		"cannot reach the control plane at http://"+addr+": connection refused; is it running, and is AGENT_SHELL_API_URL right?")
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
		wantError(t, err, CodeUsage, ExitUsage, `control plane URL (AGENT_SHELL_API_URL) is not usable: "`+shown+
			`" is not an http:// or https:// URL with a host, such as https://api.cursor.com`)
	}
}

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

package devserver_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// The extra round trip of a production name, in process over loopback with
// one keep-alive client: the resolution itself, and an agent route reached
// directly and through the control plane's forwarding.

func BenchmarkControlPlaneResolve(b *testing.B) {
	cfg := testConfig()
	cfg.ControlPlane = testControlPlane()
	cfg.Logf = func(string, ...any) {} // a log line per request would be measured too
	s := devservertest.Start(b, cfg)
	hc := catalog.NewHTTPClient()
	cred := catalog.Credentials{Token: acmeKey, Source: "CURSOR_API_KEY"}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := catalog.Resolve(ctx, s.URL(), "change-monitor-executor", "", cred, hc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkControlPlaneInfo(b *testing.B) {
	cfg := testConfig()
	cfg.ControlPlane = testControlPlane()
	cfg.Logf = func(string, ...any) {} // a log line per request would be measured too
	s := devservertest.Start(b, cfg)
	hc := catalog.NewHTTPClient()
	for _, bc := range []struct{ name, target, token, teamID string }{
		{"direct", s.AgentURL("executor"), "", ""},
		{"forwarded", s.URL() + "/internal/agentsdk/deployments/change-monitor-executor", acmeKey, "42"},
	} {
		c, err := catalog.New(bc.target, catalog.Options{BearerToken: bc.token, Query: catalog.TeamQuery(bc.teamID), HTTPClient: hc})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.Info(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The forwarding keeps the agent's answer byte for byte.
func TestControlPlaneForwardsSameAnswer(t *testing.T) {
	s := startControlPlane(t)
	_, direct := devservertest.Do(t, http.MethodGet, s.AgentURL("executor")+"/v1/tools", "", nil)
	_, fwd := devservertest.Do(t, http.MethodGet,
		s.URL()+"/internal/agentsdk/deployments/change-monitor-executor/v1/tools?teamId=42", acmeKey, nil)
	if string(direct) != string(fwd) {
		t.Fatalf("forwarded listing differs:\n%s\n%s", direct, fwd)
	}
}

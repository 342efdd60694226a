package cli

import (
	"context"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// The extra round trip of a production name, the real client against the
// development deployment's control plane in process over loopback with one
// keep-alive client: the resolution itself, and an agent route reached
// directly and through the control plane's forwarding.
//
//	go test ./internal/cli -run '^$' -bench ControlPlane

// benchControlPlaneKey is the API key of the benchmarks' control plane:
// team 42, which hosts every agent.
const benchControlPlaneKey = "acme-key-secret"

// startBenchControlPlane starts the development deployment's default agent
// (change-monitor-executor, mounted as executor) in control-plane mode,
// without a log line per request (it would be measured too).
func startBenchControlPlane(b *testing.B) *devserver.Server {
	return devservertest.Start(b, devserver.Config{
		ControlPlane: devserver.ControlPlane{
			Teams: []devserver.Team{{ID: "42", Name: "Acme"}},
			Keys:  []devserver.APIKey{{Key: benchControlPlaneKey, Teams: []string{"42"}}},
		},
		Logf: func(string, ...any) {},
	})
}

func BenchmarkControlPlaneResolve(b *testing.B) {
	s := startBenchControlPlane(b)
	hc := catalog.NewHTTPClient()
	cred := catalog.Credentials{Token: benchControlPlaneKey, Source: "CURSOR_API_KEY"}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := catalog.Resolve(ctx, s.URL(), "change-monitor-executor", "", cred, hc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkControlPlaneInfo(b *testing.B) {
	s := startBenchControlPlane(b)
	hc := catalog.NewHTTPClient()
	for _, bc := range []struct{ name, target, token, teamID string }{
		{"direct", s.AgentURL("executor"), "", ""},
		{"forwarded", s.URL() + "/internal/agentsdk/deployments/change-monitor-executor", benchControlPlaneKey, "42"},
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

package devservertest

import (
	"context"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
)

// StartDeployment builds the real development deployment (devserver.Build:
// workspace file tools over opts.Root, the JSON tools, the datadog
// connection, opts' --mcp and --echo-tools connections) and starts it on a
// free loopback port; the server and its connections close when the test
// ends. opts.Root defaults to a fresh empty directory.
func StartDeployment(t testing.TB, opts devserver.Options) *devserver.Server {
	t.Helper()
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.Root == "" {
		opts.Root = t.TempDir()
	}
	if opts.Logf == nil {
		opts.Logf = testLogf(t)
	}
	s, cleanup, err := devserver.Build(context.Background(), opts)
	if err != nil {
		t.Fatalf("devservertest: %v", err)
	}
	t.Cleanup(func() { _ = cleanup() })
	if err := s.Start(); err != nil {
		t.Fatalf("devservertest: %v", err)
	}
	return s
}

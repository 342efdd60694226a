package devserver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// BenchmarkStatefulCall is one session-bound call with --state on a
// session that already holds 1,000 calls of about 1 KB each: the cost of
// saving a call (an append, not a rewrite of the whole session).
func BenchmarkStatefulCall(b *testing.B) {
	cfg := testConfig()
	cfg.StateDir = b.TempDir()
	cfg.Logf = func(string, ...any) {}
	s := devservertest.Start(b, cfg)
	exec := s.AgentURL("executor")
	id, _ := devservertest.NewSession(b, exec, "", "bench")
	body := fmt.Sprintf(`{"sessionId":%q,"input":{"pad":%q}}`, id, strings.Repeat("p", 1000))
	for range 1000 {
		devservertest.Do(b, "POST", exec+"/v1/tools/echo_read", "", body)
	}
	b.ResetTimer()
	for range b.N {
		devservertest.Do(b, "POST", exec+"/v1/tools/echo_read", "", body)
	}
}

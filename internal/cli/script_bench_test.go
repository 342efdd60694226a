package cli

import (
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/iostreams"
)

// scriptOfReads is a script of n reads of the deployment's README.
func scriptOfReads(n int) string {
	return strings.Repeat("read /repo/README.md\n", n)
}

// BenchmarkScript1000InProcess is a script of 1,000 reads of a small file
// run by Main in this process (BenchmarkRows/script1000 runs the built
// binary), for a CPU or allocation profile of agsh's side (the
// deployment's work shows in it too).
func BenchmarkScript1000InProcess(b *testing.B) {
	const n = 1000
	exe := startDeployment(&testing.T{}).AgentURL("executor")
	script := scriptOfReads(n)
	b.ReportAllocs()
	for b.Loop() {
		ios, out, errOut := iostreams.Test(script)
		if status := Main([]string{"--target", exe}, ios, ttySafeEnv{}); status != 0 {
			b.Fatalf("exit %d: %s", status, errOut)
		}
		if got := strings.Count(out.String(), "# demo"); got != n {
			b.Fatalf("%d of %d reads answered", got, n)
		}
	}
}

package cli

import (
	"bytes"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/agsh-dev/agsh/internal/iostreams"
)

// scriptOfReads is a script of n reads of the deployment's README.
func scriptOfReads(n int) string {
	return strings.Repeat("read /repo/README.md\n", n)
}

// BenchmarkScript1000 runs the built agsh (AGSH_HOSTILE_BIN names another
// build) on a script of 1,000 reads of a small file against the
// development deployment on loopback: the process's CPU per command and
// its peak RSS, from its rusage (the deployment runs in this process, not
// counted). docs/shell.md#the-cost-of-a-command says what sets them.
func BenchmarkScript1000(b *testing.B) {
	const n = 1000
	bin := builtAgsh(b)
	exe := startDeployment(&testing.T{}).AgentURL("executor")
	script := scriptOfReads(n)
	var cpu, rss int64
	for b.Loop() {
		cmd := exec.Command(bin, "--target", exe)
		cmd.Env = []string{"NO_COLOR=1"}
		cmd.Stdin = strings.NewReader(script)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		if got := strings.Count(out.String(), "# demo"); got != n {
			b.Fatalf("%d of %d reads answered", got, n)
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu += ru.Utime.Nano() + ru.Stime.Nano()
		rss = max(rss, ru.Maxrss)
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/n/1e3, "cpu-µs/cmd")
	b.ReportMetric(float64(rss)/1024, "peak-RSS-MiB")
}

// BenchmarkScript1000InProcess is the same script run by Main in this
// process, for a CPU or allocation profile of agsh's side (the
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

package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/agsh-dev/agsh/internal/benchdata"
	"github.com/agsh-dev/agsh/internal/iostreams"
)

// BenchmarkConsoleMain runs :trace (the timeline, and --output json) and
// :export of a 100,000-event record (the events route armed) through Main
// in this process, with the real command table writing the calls: for a
// CPU or allocation profile of the whole command (scripts/bench-large.sh's
// trace100k row runs the built binary).
//
//	go test ./internal/cli -run '^$' -bench ConsoleMain -benchtime 3x -cpuprofile cpu.out
func BenchmarkConsoleMain(b *testing.B) {
	srv := startDeployment(&testing.T{})
	exe := srv.AgentURL("executor")
	fault, _ := json.Marshal(map[string]any{"route": "GET /v1/session/ses_1/events", "count": 1 << 20, "status": 200,
		"body": json.RawMessage(benchdata.RecordEnvelope("ses_1", 100_000))})
	resp, err := http.Post(exe+"/v1/dev/faults", "application/json", bytes.NewReader(fault))
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("arming the fault: %v %v", err, resp)
	}
	resp.Body.Close()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"trace", []string{":trace", "ses_1"}},
		{"trace-json", []string{":trace", "ses_1", "--output", "json"}},
		{"export-script", []string{":export", "ses_1", "--as", "script"}},
		{"export-md", []string{":export", "ses_1", "--as", "md"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ios, out, errOut := iostreams.Test("")
				if status := Main(append([]string{"--target", exe}, c.args...), ios, ttySafeEnv{"COLUMNS": "120"}); status != 0 {
					b.Fatalf("exit %d: %s", status, errOut)
				}
				b.SetBytes(int64(out.Len()))
			}
		})
	}
}

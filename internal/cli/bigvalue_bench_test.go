package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkFiftyMBPipeline runs `read | grep | wc -l`, `read | head` and
// `read | wc -c` through the real agsh against a fault-injected 50 MB
// answer of the deployment's read (numbered lines, as read answers).
//
//	go test ./cmd/agsh -run '^$' -bench FiftyMB -benchtime 3x
func BenchmarkFiftyMBPipeline(b *testing.B) {
	srv := startDeployment(&testing.T{})
	exe := srv.AgentURL("executor")
	var text strings.Builder
	lines := 0
	for text.Len() < 50<<20 {
		lines++
		fmt.Fprintf(&text, "%6d|log line %d of the big file", lines, lines)
		if lines%1000 == 0 {
			text.WriteString(" needle")
		}
		text.WriteByte('\n')
	}
	// read's text has no final newline.
	result := strings.TrimSuffix(text.String(), "\n")
	envelope, _ := json.Marshal(map[string]any{"ok": true, "toolName": "read", "callId": "c1", "isError": false, "result": result})
	fault, _ := json.Marshal(map[string]any{"route": "POST /v1/tools/read", "count": 1 << 20, "status": 200, "body": json.RawMessage(envelope)})
	resp, err := http.Post(exe+"/v1/dev/faults", "application/json", bytes.NewReader(fault))
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("arming the fault: %v %v", err, resp)
	}
	resp.Body.Close()
	for _, c := range []struct{ name, script, want string }{
		{"grep-wc", "read /repo/big.log | grep needle | wc -l\n", strconv.Itoa(lines / 1000)},
		{"head", "read /repo/big.log | head -n 2\n", "log line 1 of the big file\nlog line 2 of the big file"},
		{"wc-c", "read /repo/big.log | wc -l\n", strconv.Itoa(lines)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				cmd := agshCommand("--target", exe)
				cmd.Stdin = strings.NewReader(c.script)
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("%s: %v", c.name, err)
				}
				if got := strings.TrimSpace(string(out)); got != c.want {
					b.Fatalf("%s = %.200q, want %q", c.name, got, c.want)
				}
			}
			b.SetBytes(int64(text.Len()))
		})
	}
}

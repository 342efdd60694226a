package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/iostreams"
)

// Benchmarks of the whole pipeline, in-process, on large answers armed in
// the development deployment: a streamed 200 MiB read, a streamed 50 MiB
// text under --output json, and a held 100,000-row table. The output goes
// to io.Discard; scripts/bench-large.sh times the built binaries against
// curl and compares their outputs.
//
//	go test ./internal/cli -run '^$' -bench LargeAnswer -benchtime 3x

// readEnvelope is a read answer whose result is mb MiB of numbered lines,
// ok and isError before it (the answer may stream).
func readEnvelope(mb int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"ok":true,"toolName":"read","callId":"c1","isError":false,"result":"`)
	n := 0
	for i := 1; n < mb<<20; i++ {
		if i > 1 {
			b.WriteString(`\n`)
			n++
		}
		k, _ := fmt.Fprintf(&b, "%6d|log line %d of the big file, with some text to make it longer", i, i)
		n += k
	}
	b.WriteString(`","durationMs":12}`)
	return b.Bytes()
}

// tableEnvelope is a list_changes answer whose result is an array of rows
// objects of eight members.
func tableEnvelope(rows int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"ok":true,"toolName":"list_changes","callId":"c1","isError":false,"result":[`)
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","status":"active","owner":"user%d@example.com","score":%d.5,"tags":["a","b"],"region":"eu-west-%d","note":"row %d of the benchmark table"}`,
			i, i, i%97, i%1000, i%3, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

func armAnswer(b *testing.B, exe, route string, body []byte) {
	b.Helper()
	fault, _ := json.Marshal(map[string]any{"route": route, "count": 1 << 20, "status": 200, "body": json.RawMessage(body)})
	resp, err := http.Post(exe+"/v1/dev/faults", "application/json", bytes.NewReader(fault))
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("arming the fault: %v %v", err, resp)
	}
	resp.Body.Close()
}

func disarmAnswers(b *testing.B, exe string) {
	b.Helper()
	req, _ := http.NewRequest(http.MethodDelete, exe+"/v1/dev/faults", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
}

func BenchmarkLargeAnswer(b *testing.B) {
	srv := startDeployment(&testing.T{})
	exe := srv.AgentURL("executor")
	for _, c := range []struct {
		name, route string
		body        []byte
		args        []string
	}{
		{"read200", "POST /v1/tools/read", readEnvelope(200), []string{"read", "/repo/big.log"}},
		{"json50", "POST /v1/tools/read", readEnvelope(50), []string{"--output", "json", "read", "/repo/big.log"}},
		{"table100k", "POST /v1/tools/list_changes", tableEnvelope(100000), []string{"list_changes"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			disarmAnswers(b, exe)
			armAnswer(b, exe, c.route, c.body)
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				ios, _, errOut := iostreams.Test("")
				ios.Out = io.Discard
				ios.Width = 120
				if status := Main(append([]string{"--target", exe}, c.args...), ios, ttySafeEnv{}); status != 0 {
					b.Fatalf("%s: exit %d: %s", strings.Join(c.args, " "), status, errOut)
				}
			}
		})
	}
}

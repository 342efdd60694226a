//go:build unix

package devserver_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// BenchmarkToolsRead measures POST /v1/tools/read of the real deployment
// over loopback with keep-alive: a small file, one of exactly 1 MiB (read
// whole, sized from its stat), one just over 1 MiB and one of 8 MiB (read
// as a stream to the page returned), the first page each time. Besides wall
// time it reports the process's CPU per request (client included), which a
// loaded machine distorts less.
func BenchmarkToolsRead(b *testing.B) {
	root := b.TempDir()
	line := strings.Repeat("abcdefghij", 9) + "\n"
	for _, f := range []struct {
		name string
		size int
	}{{"small.txt", 2 << 10}, {"1MiB.txt", 1 << 20}, {"over1MiB.txt", 1<<20 + 4096}, {"8MiB.txt", 8 << 20}} {
		data := []byte(strings.Repeat(line, f.size/len(line)+1)[:f.size])
		if err := os.WriteFile(filepath.Join(root, f.name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	s := devservertest.StartDeployment(b, devserver.Options{Root: root, Logf: func(string, ...any) {}})
	url := s.AgentURL("executor") + "/v1/tools/read"
	for _, name := range []string{"small", "1MiB", "over1MiB", "8MiB"} {
		b.Run(name, func(b *testing.B) {
			body := []byte(`{"input":{"path":"/repo/` + name + `.txt"}}`)
			client := &http.Client{}
			cpu0 := processCPU()
			for b.Loop() {
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				out, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 || !bytes.Contains(out, []byte(`"isError":false`)) {
					b.Fatalf("%d %.200s", resp.StatusCode, out)
				}
			}
			b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// processCPU is the CPU time the process used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

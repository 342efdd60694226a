package devserver_test

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// benchRecord starts a quiet server holding one session whose record has
// n events, and answers the agent's URL and the session.
func benchRecord(b *testing.B, n int) (string, string) {
	b.Helper()
	cfg := testConfig()
	cfg.Logf = func(string, ...any) {}
	srv := devservertest.Start(b, cfg)
	exec := srv.AgentURL("executor")
	id, _ := devservertest.NewSession(b, exec, "", "hi") // 4 events
	devserver.AppendEvents(srv, "executor", id, n-4, "Checked the change: the nil map write in handler.go is fixed.")
	return exec, id
}

// BenchmarkSessionEvents100k serves GET /v1/session/{id}/events of a
// 100,000-event record (read by the client to the end).
func BenchmarkSessionEvents100k(b *testing.B) {
	exec, id := benchRecord(b, 100000)
	b.ReportAllocs()
	for b.Loop() {
		resp, err := http.Get(exec + "/v1/session/" + id + "/events")
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		b.SetBytes(n)
	}
}

// BenchmarkSessionStreamReplay100k replays a 100,000-event record over
// GET …/stream?startIndex=0, read line by line until the last event.
func BenchmarkSessionStreamReplay100k(b *testing.B) {
	exec, id := benchRecord(b, 100000)
	b.ReportAllocs()
	for b.Loop() {
		resp, err := http.Get(exec + "/v1/session/" + id + "/stream?startIndex=0")
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(resp.Body)
		lines, size := 0, 0
		for lines < 100000 && sc.Scan() {
			lines++
			size += len(sc.Bytes()) + 1
		}
		resp.Body.Close()
		if lines != 100000 {
			b.Fatalf("%d lines", lines)
		}
		b.SetBytes(int64(size))
	}
}

// BenchmarkInterruptSleep measures, for a turn sleeping 10m, the time from
// the interrupt POST to the turn.failed event on an open stream
// (interrupt-ns/op) and to the POST's answer (answer-ns/op); the session's
// setup is outside both.
func BenchmarkInterruptSleep(b *testing.B) {
	cfg := testConfig()
	cfg.Logf = func(string, ...any) {}
	exec := devservertest.Start(b, cfg).AgentURL("executor")
	var toEvent, toAnswer time.Duration
	for b.Loop() {
		c := devservertest.Do
		status, body := c(b, http.MethodPost, exec+"/v1/session", "", map[string]any{"message": "sleep 10m"})
		id := jsonField(b, body, "sessionId")
		if status != 200 || id == "" {
			b.Fatalf("create: %d %s", status, body)
		}
		resp, err := http.Get(exec + "/v1/session/" + id + "/stream?startIndex=0")
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(resp.Body)
		if !sc.Scan() || !strings.Contains(sc.Text(), `"turn.started"`) {
			b.Fatalf("first event: %s", sc.Text())
		}
		got := make(chan time.Time, 1)
		go func() {
			for sc.Scan() {
				if strings.Contains(sc.Text(), `"turn.failed"`) {
					got <- time.Now()
					return
				}
			}
			close(got)
		}()
		begin := time.Now()
		status, body = c(b, http.MethodPost, exec+"/v1/session/"+id+"/interrupt", "", nil)
		answered := time.Now()
		if status != 200 || !strings.Contains(string(body), `"interrupted":true`) {
			b.Fatalf("interrupt: %d %s", status, body)
		}
		at, ok := <-got
		if !ok {
			b.Fatal("no turn.failed on the stream")
		}
		resp.Body.Close()
		toEvent += at.Sub(begin)
		toAnswer += answered.Sub(begin)
	}
	b.ReportMetric(float64(toEvent.Nanoseconds())/float64(b.N), "interrupt-ns/op")
	b.ReportMetric(float64(toAnswer.Nanoseconds())/float64(b.N), "answer-ns/op")
}

// jsonField reads a top-level string member of a JSON object.
func jsonField(tb testing.TB, body []byte, key string) string {
	tb.Helper()
	i := strings.Index(string(body), `"`+key+`":"`)
	if i < 0 {
		return ""
	}
	rest := string(body)[i+len(key)+4:]
	return rest[:strings.IndexByte(rest, '"')]
}

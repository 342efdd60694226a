package console

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/render"
)

// syntheticRecord is an NDJSON record of n events: turns of a call of read,
// one of grep, their results and a message, like an agent's.
func syntheticRecord(n int) []byte {
	var b bytes.Buffer
	writeSynthetic(&b, n)
	return b.Bytes()
}

// writeSynthetic writes syntheticRecord(n) to w as it makes it.
func writeSynthetic(w io.Writer, n int) {
	b := bufio.NewWriterSize(w, 64<<10)
	defer b.Flush()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := 0; i < n; i++ {
		ts := at.Add(time.Duration(i) * time.Millisecond).Format(time.RFC3339Nano)
		var data string
		switch i % 7 {
		case 0:
			data = `{"turnId":"t","source":"message","message":"look at the repo"}`
			fmt.Fprintf(b, `{"index":%d,"type":"turn.started","data":%s,"at":%q}`+"\n", i, data, ts)
			continue
		case 1:
			data = fmt.Sprintf(`{"turnId":"t","calls":[{"callId":"call_%016x","toolName":"read","input":{"path":"/repo/src/file%d.go","limit":40}},`+
				`{"callId":"call_%016x","toolName":"grep","input":{"pattern":"TODO|FIXME","path":"/repo","-i":true}}]}`, i, i, i+1)
			fmt.Fprintf(b, `{"index":%d,"type":"actions.requested","data":%s,"at":%q}`+"\n", i, data, ts)
			continue
		case 2:
			data = fmt.Sprintf(`{"callId":"call_%016x","toolName":"read","isError":false,"result":"package main\nfunc main() {}","durationMs":12}`, i-1)
		case 3:
			data = fmt.Sprintf(`{"callId":"call_%016x","toolName":"grep","isError":false,"result":"Found 2 matching lines","durationMs":40}`, i-1)
		case 4:
			data = `{"text":"I looked at the file and found two TODOs.","finishReason":"stop"}`
			fmt.Fprintf(b, `{"index":%d,"type":"message.completed","data":%s,"at":%q}`+"\n", i, data, ts)
			continue
		case 5:
			fmt.Fprintf(b, `{"index":%d,"type":"turn.completed","data":{"turnId":"t"},"at":%q}`+"\n", i, ts)
			continue
		default:
			fmt.Fprintf(b, `{"index":%d,"type":"session.waiting","data":{},"at":%q}`+"\n", i, ts)
			continue
		}
		fmt.Fprintf(b, `{"index":%d,"type":"action.result","data":%s,"at":%q}`+"\n", i, data, ts)
	}
}

// liveLines writes calls with real commands: the generated shape of each
// tool's schema, through the encoder and its check.
func liveLines() CallLine {
	cmds := map[string]*generated.Command{}
	for name, schema := range map[string]string{
		"read": `{"type":"object","required":["path"],"properties":{"path":{"type":"string"},"limit":{"type":"integer"}}}`,
		"grep": `{"type":"object","required":["pattern"],"properties":{"pattern":{"type":"string"},"path":{"type":"string"},"-i":{"type":"boolean"}}}`,
	} {
		c, err := generated.Build(json.RawMessage(schema), generated.BuildOptions{})
		if err != nil {
			panic(err)
		}
		cmds[name] = c
	}
	return func(_ context.Context, tool string, input json.RawMessage) (string, bool, error) {
		words, inJSON, err := cmds[tool].Argv(input)
		return generated.Line(tool, words), inJSON, err
	}
}

// serveBytes serves a record from memory: as the whole record, and as the
// stream (from its start) unless streamOnly, when the record is empty and
// the stream has it all.
func serveBytes(tb testing.TB, record []byte, streamOnly ...bool) *catalog.Client {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		if len(streamOnly) > 0 && streamOnly[0] && r.URL.Path == "/a/v1/session/ses_1/events" {
			_, _ = io.WriteString(w, `{"ok":true,"events":[]}`)
			return
		}
		_, _ = w.Write(record)
	}))
	tb.Cleanup(srv.Close)
	c, err := catalog.New(srv.URL+"/a", catalog.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// BenchmarkTrace100k renders a 100,000-event record as the timeline, on a
// terminal 120 columns wide, every call written as its command line.
func BenchmarkTrace100k(b *testing.B) {
	c := serveBytes(b, syntheticRecord(100_000))
	e := Env{Client: c, Out: io.Discard, Opts: render.Options{TTY: true, Width: 120}, CallLine: liveLines(), Location: time.UTC}
	b.ReportAllocs()
	for b.Loop() {
		if err := Trace(context.Background(), e, "ses_1", TraceOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTrace100kJSON is the same record as --output json.
func BenchmarkTrace100kJSON(b *testing.B) {
	c := serveBytes(b, syntheticRecord(100_000))
	e := Env{Client: c, Out: io.Discard, Opts: render.Options{}, Location: time.UTC}
	b.ReportAllocs()
	for b.Loop() {
		if err := Trace(context.Background(), e, "ses_1", TraceOptions{JSON: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTailThroughput follows a stream of 100,000 events from memory to
// a pipe, as text lines: the events a second it keeps up with.
func BenchmarkTailThroughput(b *testing.B) {
	const n = 100_000
	record := syntheticRecord(n)
	c := serveBytes(b, record, true)
	for _, jsonOut := range []bool{false, true} {
		name := "text"
		if jsonOut {
			name = "ndjson"
		}
		b.Run(name, func(b *testing.B) {
			pr, pw, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			defer pr.Close()
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); _, _ = io.Copy(io.Discard, pr) }()
			e := Env{Client: c, Out: pw, Opts: render.Options{}, CallLine: liveLines(), Location: time.UTC}
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				// --follow past the waits; the stream's end ends a pass.
				ctx, cancel := context.WithCancel(context.Background())
				e.Note = func(string) { cancel() } // the stream ended: "connection lost"
				_ = Tail(ctx, e, "ses_1", TailOptions{JSON: jsonOut, Follow: true})
				cancel()
			}
			el := time.Since(start)
			b.ReportMetric(float64(n*b.N)/el.Seconds(), "events/s")
			pw.Close()
			wg.Wait()
		})
	}
}

// A trace of 300,000 events (60 MB of record, 130,000 calls written as
// command lines) streams through: its heap stays flat (not under -race,
// whose memory is not agsh's).
func TestTraceRecordFlat(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("a long record (and the race detector's memory is not agsh's)")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeSynthetic(w, 300_000) // made as it is sent: the test holds nothing
	}))
	defer srv.Close()
	c, err := catalog.New(srv.URL+"/a", catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := Env{Client: c, Out: io.Discard, Opts: render.Options{TTY: true, Width: 120}, CallLine: liveLines(), Location: time.UTC}
	peak := peakHeap(func() { err = Trace(context.Background(), e, "ses_1", TraceOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("300,000 events: peak heap %d KiB", peak>>10)
	if !raceEnabled && peak > 32<<20 {
		t.Errorf("peak heap %d MiB", peak>>20)
	}
}

// peakHeap runs f and answers the most the live heap grew meanwhile.
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tk := time.NewTicker(2 * time.Millisecond)
		defer tk.Stop()
		for {
			if v := read(); v > peak {
				peak = v
			}
			select {
			case <-done:
				return
			case <-tk.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	if peak < base {
		return 0
	}
	return peak - base
}

// A tail that follows 300,000 events keeps a flat heap (not under -race).
func TestTailFlat(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("a long stream (and the race detector's memory is not agsh's)")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a/v1/session/ses_1/events" {
			_, _ = io.WriteString(w, `{"ok":true,"events":[]}`)
			return
		}
		writeSynthetic(w, 300_000)
	}))
	defer srv.Close()
	c, err := catalog.New(srv.URL+"/a", catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := Env{Client: c, Out: io.Discard, Opts: render.Options{}, CallLine: liveLines(), Location: time.UTC,
		Note: func(string) { cancel() }} // the stream's end: stop there
	peak := peakHeap(func() { err = Tail(ctx, e, "ses_1", TailOptions{Follow: true}) })
	if _, ok := err.(Detached); !ok {
		t.Fatalf("tail: %v", err)
	}
	t.Logf("300,000 events followed: peak heap %d KiB", peak>>10)
	if peak > 32<<20 {
		t.Errorf("peak heap %d MiB", peak>>20)
	}
}

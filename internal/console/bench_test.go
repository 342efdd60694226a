package console

import (
	"context"
	"encoding/json"
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
	"github.com/agsh-dev/agsh/internal/benchdata"
	"github.com/agsh-dev/agsh/render"
)

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
// terminal 120 columns wide, every call written as its command line; it
// reports the peak of the live heap too (docs/console.md#bounds: 0.5 s
// and 100 MiB at most).
func BenchmarkTrace100k(b *testing.B) {
	c := serveBytes(b, benchdata.Record(100_000))
	e := Env{Client: c, Out: io.Discard, Opts: render.Options{TTY: true, Width: 120}, CallLine: liveLines(), Location: time.UTC}
	run := func() {
		if err := Trace(context.Background(), e, "ses_1", TraceOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
	reportPeak(b, run)
}

// reportPeak runs f once more, after the timed loop, and reports the most
// the live heap grew meanwhile (peak-MiB).
func reportPeak(b *testing.B, f func()) {
	b.ReportMetric(float64(peakHeap(f))/(1<<20), "peak-MiB")
}

// BenchmarkExport100k exports a 100,000-event record as a script, a
// report and JSON, every call written as its command line
// (docs/console.md#export: 2 s and 150 MiB at most).
func BenchmarkExport100k(b *testing.B) {
	const n = 100_000
	c := serveBytes(b, benchdata.Record(n))
	for _, as := range ExportFormats {
		b.Run(as, func(b *testing.B) {
			e := Env{Client: c, Out: io.Discard, CallLine: liveLines(), Location: time.UTC}
			run := func() {
				if err := Export(context.Background(), e, "ses_1", ExportOptions{As: as}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				run()
			}
			b.ReportMetric(float64(n*b.N)/time.Since(start).Seconds(), "events/s")
			reportPeak(b, run)
		})
	}
}

// BenchmarkTrace100kJSON is the same record as --output json.
func BenchmarkTrace100kJSON(b *testing.B) {
	c := serveBytes(b, benchdata.Record(100_000))
	e := Env{Client: c, Out: io.Discard, Opts: render.Options{}, Location: time.UTC}
	b.ReportAllocs()
	for b.Loop() {
		if err := Trace(context.Background(), e, "ses_1", TraceOptions{Format: render.JSON}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTailPipe follows a stream of 100,000 events from memory to a
// pipe, as text lines (and as NDJSON): the events a second it keeps up
// with (docs/console.md#bounds: 50,000 at least, as text).
func BenchmarkTailPipe(b *testing.B) {
	const n = 100_000
	record := benchdata.Record(n)
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
			run := func() {
				// --follow past the waits; the stream's end ends a pass.
				ctx, cancel := context.WithCancel(context.Background())
				e.Note = func(string) { cancel() } // the stream ended: "connection lost"
				f := render.Text
				if jsonOut {
					f = render.JSON
				}
				_ = Tail(ctx, e, "ses_1", TailOptions{Format: f, Follow: true})
				cancel()
			}
			b.ReportAllocs()
			start := time.Now()
			for b.Loop() {
				run()
			}
			el := time.Since(start)
			b.ReportMetric(float64(n*b.N)/el.Seconds(), "events/s")
			reportPeak(b, run)
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
		benchdata.WriteRecord(w, 300_000) // made as it is sent: the test holds nothing
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
		benchdata.WriteRecord(w, 300_000)
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

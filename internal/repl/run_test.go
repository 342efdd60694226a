package repl

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

func TestRunEndToEnd(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	out := &syncBuffer{}
	r := &fakeRunner{out: "row 1\nrow 2\n", status: 6}
	cfg := Config{AgentName: "agent", Target: "https://x.example", Runner: r, In: inR, Out: out, ErrOut: io.Discard, NoColor: true}
	done := make(chan int)
	go func() {
		st, err := Run(context.Background(), cfg)
		if err != nil {
			t.Error(err)
		}
		done <- st
	}()
	waitFor(t, func() bool { return strings.Contains(out.String(), "session: none (calls run unbound)") })
	_, _ = io.WriteString(inW, "ls /\r")
	waitFor(t, func() bool { return strings.Contains(out.String(), "row 2") })
	_, _ = io.WriteString(inW, "\x04")
	select {
	case st := <-done:
		if st != 6 {
			t.Fatalf("status %d, want 6", st)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Run did not end on Ctrl-D")
	}
	got := out.String()
	for _, want := range []string{"agent ❯ ls /", "row 1", "row 2"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%q", want, got)
		}
	}
}

func TestRunContextCancelled(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	cfg := Config{Runner: &fakeRunner{block: true}, In: inR, Out: &syncBuffer{}, ErrOut: io.Discard}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		st, _ := Run(ctx, cfg)
		done <- st
	}()
	_, _ = io.WriteString(inW, "slow\r")
	waitFor(t, func() bool { return len(cfg.Runner.(*fakeRunner).ran()) == 1 })
	cancel()
	select {
	case st := <-done:
		if st != 130 {
			t.Fatalf("status %d, want 130", st)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Run did not end when ctx was cancelled")
	}
}

// markWriter records what is written and notes when a marker shows up.
type markWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	keep   bool
	n      int
	marker []byte
	seen   chan struct{}
	once   sync.Once
}

func (w *markWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n += len(p)
	if w.keep {
		w.buf.Write(p)
	}
	if bytes.Contains(p, w.marker) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

// table makes rows lines of about 100 bytes, the last one ending in "end".
func table(rows int) string {
	var b strings.Builder
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&b, "row %05d  %-40s  %-30s  %10d\n", i, "datadog-monitor-"+fmt.Sprint(i), "status: ok", i*7)
	}
	b.WriteString("end of table\n")
	return b.String()
}

// largeOutput runs one line printing tbl through a real bubbletea program
// and returns how long it took from Enter to the last line on the
// terminal, and what the terminal received.
// With perRow the Runner writes the table one row per Write call.
func largeOutput(tb testing.TB, tbl string, keep, perRow bool) (time.Duration, *markWriter) {
	inR, inW := io.Pipe()
	defer inW.Close()
	w := &markWriter{keep: keep, marker: []byte("end of table"), seen: make(chan struct{})}
	r := &fakeRunner{out: tbl}
	if perRow {
		r.fn = func(_ context.Context, _ string, stdout, _ io.Writer) (int, bool) {
			for _, row := range strings.SplitAfter(tbl, "\n") {
				_, _ = io.WriteString(stdout, row)
			}
			return 0, false
		}
	}
	m := newModel(context.Background(), Config{AgentName: "agent", Runner: r, NoColor: true})
	p := tea.NewProgram(m, tea.WithInput(inR), tea.WithOutput(w), tea.WithoutSignals())
	done := make(chan struct{})
	go func() {
		_, _ = p.Run()
		close(done)
	}()
	p.Send(tea.WindowSizeMsg{Width: 200, Height: 50})
	start := time.Now()
	_, _ = io.WriteString(inW, "big\r")
	select {
	case <-w.seen:
	case <-time.After(20 * time.Second):
		tb.Fatal("the table never reached the terminal")
	}
	elapsed := time.Since(start)
	_, _ = io.WriteString(inW, "\x04")
	<-done
	return elapsed, w
}

func TestLargeOutputExact(t *testing.T) {
	const rows = 10000
	tbl := table(rows)
	_, w := largeOutput(t, tbl, true, true)
	// Every row arrives whole and in order; the renderer only adds line
	// clearing and carriage returns around them.
	term := w.buf.String()
	at := 0
	for _, row := range strings.Split(strings.TrimSuffix(tbl, "\n"), "\n") {
		i := strings.Index(term[at:], row+"\x1b[K\r\n")
		if i < 0 {
			t.Fatalf("row %q missing or out of order", row)
		}
		at += i + len(row)
	}
	t.Logf("table %d bytes, terminal received %d bytes", len(tbl), w.n)
}

// BenchmarkLargeOutput measures a 10,000-row table (about 1 MB) from Enter
// to its last row on the terminal, written at once and row by row.
func BenchmarkLargeOutput(b *testing.B) {
	tbl := table(10000)
	for _, perRow := range []bool{false, true} {
		name := "oneWrite"
		if perRow {
			name = "writePerRow"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(tbl)))
			var total time.Duration
			for i := 0; i < b.N; i++ {
				d, _ := largeOutput(b, tbl, false, perRow)
				total += d
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/table")
		})
	}
}

func BenchmarkOutPipe(b *testing.B) {
	line := []byte(strings.Repeat("x", 99) + "\n")
	b.SetBytes(int64(len(line)) * 10000)
	for i := 0; i < b.N; i++ {
		p := newOutPipe()
		go func() {
			for j := 0; j < 10000; j++ {
				_, _ = p.Write(line)
			}
			p.close()
		}()
		for {
			if _, eof := p.next(); eof {
				break
			}
		}
	}
}

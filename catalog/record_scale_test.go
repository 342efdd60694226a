package catalog

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// peakHeap runs f and samples the live heap meanwhile: the highest value
// seen, in bytes, above what was live before.
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
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			if v := read(); v > peak {
				peak = v
			}
			select {
			case <-done:
				return
			case <-t.C:
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

// eventSource is an NDJSON record of n small events, made as it is read.
type eventSource struct {
	n, i int
	sep  string // after each event but the last; "" is "\n"
	buf  []byte
	off  int
}

func (s *eventSource) Read(p []byte) (int, error) {
	if s.off == len(s.buf) {
		s.buf, s.off = s.buf[:0], 0
		for len(s.buf) < 32<<10 && s.i < s.n {
			s.buf = append(s.buf, `{"index":`...)
			s.buf = strconv.AppendInt(s.buf, int64(s.i), 10)
			s.buf = append(s.buf, `,"type":"message.completed","data":{"text":"hi"},"at":"2026-01-01T00:00:00Z"}`...)
			s.i++
			switch {
			case s.sep == "":
				s.buf = append(s.buf, '\n')
			case s.i < s.n:
				s.buf = append(s.buf, s.sep...)
			}
		}
		if len(s.buf) == 0 {
			return 0, io.EOF
		}
	}
	n := copy(p, s.buf[s.off:])
	s.off += n
	return n, nil
}

// Ten million events are read one at a time: memory stays flat.
// (Not parallel: the heap measured is the process's.)
func TestRecordTenMillionEventsFlat(t *testing.T) {
	n := 10_000_000
	if testing.Short() || raceEnabled {
		n = 200_000
	}
	count := 0
	var err error
	peak := peakHeap(func() {
		r := newEventReader(&eventSource{n: n}, func(ev *Event) error { count++; return nil }, nil)
		err = r.readBody()
	})
	if err != nil || count != n {
		t.Fatalf("%d events, %v", count, err)
	}
	t.Logf("%d events: peak heap %d KiB", n, peak>>10)
	if !raceEnabled && peak > 16<<20 {
		t.Errorf("peak heap %d MiB reading %d events", peak>>20, n)
	}
}

// The same, as the envelope over HTTP, and as NDJSON from a stream.
func TestRecordMillionOverHTTPFlat(t *testing.T) {
	n := 1_000_000
	if raceEnabled {
		n = 100_000
	}
	for _, form := range []string{"envelope", "stream"} {
		t.Run(form, func(t *testing.T) {
			c, _ := serve(t, "/a", func(w http.ResponseWriter, r *http.Request) {
				if form == "envelope" {
					_, _ = io.WriteString(w, `{"ok":true,"events":[`)
					_, _ = io.Copy(w, &eventSource{n: n, sep: ","})
					_, _ = io.WriteString(w, `]}`)
					return
				}
				src := &eventSource{n: n}
				_, _ = io.Copy(w, src)
			})
			count := 0
			var last int64 = -1
			var err error
			peak := peakHeap(func() {
				each := func(ev *Event) error { count++; last = ev.Index; return nil }
				if form == "envelope" {
					err = c.Record(context.Background(), "ses_1", each, func(s string) { t.Log(s) })
				} else {
					err = c.Follow(context.Background(), "ses_1", 0, each, func(s string) { t.Log(s) })
				}
			})
			if err != nil || count != n || last != int64(n-1) {
				t.Fatalf("%d events (last %d), %v", count, last, err)
			}
			t.Logf("%s, %d events: peak heap %d KiB", form, n, peak>>10)
			if !raceEnabled && peak > 16<<20 {
				t.Errorf("peak heap %d MiB", peak>>20)
			}
		})
	}
}

// A 1 GiB event is skipped with a note, in flat memory, and the events
// after it are read; a line that never ends stops the read past the skip
// bound (2 GiB), in flat memory too. (Not parallel: the heap measured is
// the process's; not under -race or -short: gigabytes go by.)
func TestRecordHugeEventsFlat(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("gigabytes of record")
	}
	huge := int64(1 << 30)
	for _, tt := range []struct {
		name  string
		line  int64 // the huge line's length; -1: endless
		notes int
	}{{"1 GiB event", huge, 1}, {"endless line", -1, 0}} {
		c, _ := serve(t, "/agent", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, `{"index":0,"type":"a"}`+"\n"+`{"index":1,"type":"huge","data":"`)
			n := tt.line
			if n < 0 {
				n = 1 << 40
			}
			_, _ = io.Copy(w, &endlessX{n: n})
			_, _ = io.WriteString(w, "\"}\n"+`{"index":2,"type":"after"}`+"\n")
		})
		c.opts.HeaderTimeout = time.Minute
		var got []string
		var notes []string
		var err error
		peak := peakHeap(func() {
			err = c.Record(context.Background(), "ses_1", func(ev *Event) error {
				got = append(got, ev.Type)
				return nil
			}, func(s string) { notes = append(notes, s) })
		})
		t.Logf("%s: peak heap %d KiB, events %q, notes %q, %v", tt.name, peak>>10, got, notes, err)
		if tt.line > 0 && (err != nil || len(got) != 3-1 || got[1] != "after" || len(notes) != 1 ||
			!strings.HasPrefix(notes[0], `event 1 (type "huge") is 10737418`)) {
			t.Errorf("%s: events %q, notes %q, %v", tt.name, got, notes, err)
		}
		if tt.line < 0 && !strings.Contains(fmt.Sprint(err), "has a line of more than 2 GiB without a line break") {
			t.Errorf("%s: %v", tt.name, err)
		}
		if peak > 64<<20 { // the server writing it is in this process too
			t.Errorf("%s: peak heap %d MiB", tt.name, peak>>20)
		}
	}
}

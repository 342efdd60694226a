package catalog

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"
)

// TestCallStreamBounds: a streamed answer may pass the held bound
// (MaxAnswerBytes) up to MaxStreamedBytes, every byte counted; a held
// answer may not; a streamed answer is still checked as a call's answer.
func TestCallStreamBounds(t *testing.T) {
	streamSmall(t)
	text := strings.Repeat("x", 3<<20)
	for _, tt := range []struct {
		name, body string
		streamed   int64
		want       string
	}{
		{"streamed past the held bound", `{"ok":true,"isError":false,"result":"` + text + `"}`, 8 << 20, ""},
		{"streamed past its own bound", `{"ok":true,"isError":false,"result":"` + text + `"}`, 2 << 20, "larger than 2 MiB"},
		{"held past the bound", `{"ok":true,"result":"` + text + `","isError":false}`, 8 << 20, "larger than 1 MiB"},
		{"streamed, then a second result", `{"ok":true,"isError":false,"result":"a","result":"b"}`, 8 << 20, `"result" appears more than once`},
		{"streamed, then bytes after", `{"ok":true,"isError":false,"result":"a"} {}`, 8 << 20, "more follows the JSON object"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := fastOptions()
			o.MaxAnswerBytes, o.MaxStreamedBytes = 1<<20, tt.streamed
			srv := serveBody(t, []byte(tt.body))
			c, err := New(srv.URL, o)
			if err != nil {
				t.Fatal(err)
			}
			var n countWriter
			_, err = c.CallStream(context.Background(), "read", nil, Binding{}, func() io.Writer { return &n })
			if tt.want == "" {
				if err != nil || int(n) != len(text) {
					t.Fatalf("streamed %d bytes: %v", n, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestCallStreamTailBound: what follows a streamed result is held, so it
// is bounded by the held bound (with the head before the result), not the
// streamed one: an endless member after the result ends the call at the
// held bound instead of growing agsh to the streamed bound.
func TestCallStreamTailBound(t *testing.T) {
	streamSmall(t)
	pad := strings.Repeat("p", 3<<20)
	for _, tt := range []struct {
		name, body string
		want       string
	}{
		{"a long member after the result", `{"ok":true,"isError":false,"result":"text","junk":"` + pad + `"}`, "larger than 1 MiB"},
		{"head and tail together past the bound", `{"ok":true,"isError":false,"h":"` + pad[:600<<10] + `","result":"text","t":"` + pad[:600<<10] + `"}`, "larger than 1 MiB"},
		{"a short tail", `{"ok":true,"isError":false,"result":"` + pad + `","durationMs":3}`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := fastOptions()
			o.MaxAnswerBytes, o.MaxStreamedBytes = 1<<20, 64<<20
			srv := serveBody(t, []byte(tt.body))
			c, err := New(srv.URL, o)
			if err != nil {
				t.Fatal(err)
			}
			var n countWriter
			_, err = c.CallStream(context.Background(), "read", nil, Binding{}, func() io.Writer { return &n })
			if tt.want == "" {
				if err != nil || int(n) != len(pad) {
					t.Fatalf("streamed %d bytes: %v", n, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "POST /v1/tools/read") {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// An answer past its bound is not joined into one buffer (nothing uses
// it): the held bound costs its size once, not twice (an endless call
// answer once peaked at 445 MiB, 151 MiB without the join).
func TestReadBodyPastBoundHoldsNothing(t *testing.T) {
	in := &boundedReader{r: zeros{}, limit: 4 << 20}
	data, err := readBody(in, 0, in.limit)
	if _, big := isTooLarge(err); !big || data != nil {
		t.Fatalf("%d bytes, %v; want nothing and the bound's error", len(data), err)
	}
}

// zeros is an endless answer.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// The redacting reader copies what it read only when a held tail goes
// before it: reading 8 MiB allocates a small fraction of that.
func TestRedactReaderCopiesLittle(t *testing.T) {
	r := newRedactReader(io.LimitReader(zeros{}, 8<<20), []string{"tok_secret_1234"})
	buf := make([]byte, 64<<10)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for {
		if _, err := r.Read(buf); err != nil {
			break
		}
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Fatalf("reading 8 MiB allocated %d KiB", got>>10)
	}
}

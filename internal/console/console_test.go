package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/internal/termsafe"
	"github.com/agsh-dev/agsh/render"
)

var update = flag.Bool("update", false, "rewrite the goldens under testdata/")

// ev is one event line.
func ev(i int, typ, data string) string {
	at := time.Date(2026, 1, 2, 3, 4, 5+i, 0, time.UTC).Format(time.RFC3339Nano)
	if data == "" {
		data = "{}"
	}
	return fmt.Sprintf(`{"index":%d,"type":%q,"data":%s,"at":%q}`, i, typ, data, at)
}

// sampleRecord is a session with every kind of row.
var sampleRecord = []string{
	ev(0, "turn.started", `{"turnId":"t1","source":"message","message":"call read {\"path\":\"/repo/README.md\"}\nsay done"}`),
	ev(1, "actions.requested", `{"turnId":"t1","calls":[`+
		`{"callId":"call_0123456789abcdef","toolName":"read","input":{"path":"/repo/README.md"}},`+
		`{"callId":"call_fedcba9876543210","toolName":"grep","input":{"pattern":"TODO","path":"/repo"}}]}`),
	ev(2, "action.result", `{"callId":"call_0123456789abcdef","toolName":"read","isError":false,"result":"# Demo\nline 2","durationMs":12}`),
	ev(3, "action.result", `{"callId":"call_fedcba9876543210","toolName":"grep","isError":true,"result":{"content":[{"type":"text","text":"No such path"}]},"durationMs":1530}`),
	ev(4, "message.completed", `{"text":"I read it.\nSecond line.","finishReason":"stop"}`),
	ev(5, "turn.completed", `{"turnId":"t1"}`),
	ev(6, "session.waiting", ``),
	ev(7, "turn.queued", `{"turnId":"t2","position":2}`),
	ev(8, "turn.started", `{"turnId":"t2","source":"follow-up"}`),
	ev(9, "approval.requested", `{"callId":"call_aaaa000011112222","toolName":"report_change_issue","input":{"title":"x"}}`),
	ev(10, "approval.resolved", `{"callId":"call_aaaa000011112222","decision":"deny","reason":"not now\nlater"}`),
	ev(11, "vendor.thing", `{"a":"\u001b[31mred\u202e","n":1}`),
	ev(12, "turn.failed", `{"turnId":"t2","reason":"interrupted"}`),
}

// fakeLine writes a call as its tool and compact input.
func fakeLine(_ context.Context, tool string, input json.RawMessage) (string, bool, error) {
	return tool + " " + string(jsontext.AppendCompact(nil, input)), false, nil
}

// recordServer serves the record of ses_1 (the lines given) and its
// stream through h (nil: the record from startIndex, then the end).
func recordServer(t *testing.T, lines []string, stream http.HandlerFunc) *catalog.Client {
	t.Helper()
	return listedServer(t, lines, stream, `{"sessionId":"ses_1","mode":"chat"}`)
}

// listedServer is recordServer whose listing holds the row given.
func listedServer(t *testing.T, lines []string, stream http.HandlerFunc, row string) *catalog.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a/v1/session/ses_1/events":
			fmt.Fprintf(w, `{"ok":true,"events":[%s]}`, strings.Join(lines, ","))
		case "/a/v1/session/ses_1/stream":
			if stream != nil {
				stream(w, r)
				return
			}
			start, _ := strconv.Atoi(r.URL.Query().Get("startIndex"))
			for i := start; i < len(lines); i++ {
				fmt.Fprintln(w, lines[i])
			}
		case "/a/v1/sessions":
			fmt.Fprint(w, `{"ok":true,"sessions":[`+row+`]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := catalog.New(srv.URL+"/a", catalog.Options{HeaderTimeout: time.Minute}) // a loaded machine may pause the server
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func env(c *catalog.Client, out io.Writer, o render.Options, notes *[]string) Env {
	var mu sync.Mutex
	return Env{Client: c, Out: out, Opts: o, CallLine: fakeLine, Location: time.UTC,
		Note: func(s string) { mu.Lock(); *notes = append(*notes, s); mu.Unlock() }}
}

// golden compares got with testdata/<name>.golden (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/console -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s:\n%s\nwant:\n%s", name, got, want)
	}
}

func TestTraceTable(t *testing.T) {
	t.Parallel()
	c := recordServer(t, sampleRecord, nil)
	for _, tt := range []struct {
		name string
		o    render.Options
	}{
		{"trace_80", render.Options{TTY: true, Width: 80}},
		{"trace_200", render.Options{TTY: true, Width: 200}},
		{"trace_piped", render.Options{Width: 80}},
	} {
		var b strings.Builder
		var notes []string
		if err := Trace(context.Background(), env(c, &b, tt.o, &notes), "ses_1", TraceOptions{}); err != nil {
			t.Fatal(err)
		}
		golden(t, tt.name, b.String())
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		// Structure the goldens must keep: the header, a date row, one row
		// per call paired with its outcome, no raw escapes, the width.
		if !strings.HasPrefix(lines[0], " #  TIME") && !strings.HasPrefix(lines[0], "#  TIME") {
			t.Errorf("%s: header %q", tt.name, lines[0])
		}
		for _, want := range []string{"call ok", "12ms", "call ERROR", "1.5s", "turn QUEUED", "turn FAILED", "denied", "APPROVAL?", "2026-01-02"} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: no %q", tt.name, want)
			}
		}
		for _, l := range lines {
			if strings.ContainsAny(l, "\x1b\u202e") {
				t.Errorf("%s: raw escape in %q", tt.name, l)
			}
			if tt.o.TTY && len([]rune(l)) > tt.o.Width {
				t.Errorf("%s: %q is wider than %d", tt.name, l, tt.o.Width)
			}
		}
		if len(notes) != 0 {
			t.Errorf("%s: notes %q", tt.name, notes)
		}
	}
}

func TestTraceFilters(t *testing.T) {
	t.Parallel()
	c := recordServer(t, sampleRecord, nil)
	tests := []struct {
		o    TraceOptions
		want []string // the indexes and events of the rows
	}{
		{TraceOptions{Type: "approval"}, []string{"9 APPROVAL?", "10 denied"}},
		{TraceOptions{Type: "turn.started"}, []string{"0 turn started", "8 turn started"}},
		{TraceOptions{Tool: "read"}, []string{"1 call ok"}},
		{TraceOptions{Tool: "grep", Type: "actions"}, []string{"1 call ERROR"}},      // paired with a result of another type
		{TraceOptions{Type: "action.result"}, []string{"2 call ok", "3 call ERROR"}}, // without their calls' rows
		{TraceOptions{Last: 2}, []string{"11 vendor.thing", "12 turn FAILED"}},
		{TraceOptions{Type: "turn", Last: 1}, []string{"12 turn FAILED"}},
		{TraceOptions{Type: "nothing"}, nil},
	}
	for _, tt := range tests {
		var b strings.Builder
		var notes []string
		if err := Trace(context.Background(), env(c, &b, render.Options{Width: 200}, &notes), "ses_1", tt.o); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")[1:] {
			f := strings.Fields(l)
			if len(f) < 3 || f[0] == "2026-01-02" {
				continue
			}
			e := f[2]
			if len(f) > 3 && (f[3] == "ok" || f[3] == "ERROR" || f[3] == "started" || f[3] == "FAILED" || f[3] == "QUEUED") {
				e += " " + f[3]
			}
			got = append(got, f[0]+" "+e)
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%+v: rows %q, want %q\n%s", tt.o, got, tt.want, b.String())
		}
		if tt.want == nil && (len(notes) != 1 || notes[0] != "(no events match)") {
			t.Errorf("%+v: notes %q", tt.o, notes)
		}
	}
}

func TestTraceJSON(t *testing.T) {
	t.Parallel()
	c := recordServer(t, sampleRecord, nil)
	for _, tt := range []struct {
		o    TraceOptions
		tty  bool
		want []string
	}{
		{TraceOptions{Format: render.JSON}, false, sampleRecord},
		{TraceOptions{Format: render.JSON, Type: "approval"}, false, sampleRecord[9:11]},
		{TraceOptions{Format: render.JSON, Tool: "grep"}, false, []string{sampleRecord[1], sampleRecord[3]}},
		{TraceOptions{Format: render.JSON, Last: 1}, false, sampleRecord[12:]},
		{TraceOptions{Format: render.JSON, Type: "none"}, false, nil},
	} {
		var b strings.Builder
		var notes []string
		if err := Trace(context.Background(), env(c, &b, render.Options{TTY: tt.tty}, &notes), "ses_1", tt.o); err != nil {
			t.Fatal(err)
		}
		want := "[]\n"
		if len(tt.want) > 0 {
			want = "[\n" + strings.Join(tt.want, ",\n") + "\n]\n"
		}
		if b.String() != want {
			t.Errorf("%+v:\n%s\nwant\n%s", tt.o, b.String(), want)
		}
		if !json.Valid([]byte(b.String())) {
			t.Errorf("%+v: not JSON", tt.o)
		}
	}
	// On a terminal the same values, with the escapes and bidi controls
	// \u-escaped.
	var b strings.Builder
	var notes []string
	_ = Trace(context.Background(), env(c, &b, render.Options{TTY: true}, &notes), "ses_1", TraceOptions{Format: render.JSON, Type: "vendor"})
	if got := b.String(); strings.ContainsAny(got, "\x1b\u202e") || !strings.Contains(got, `\u202e`) {
		t.Errorf("terminal JSON %q", got)
	}
}

// A call that waits for its result holds the rows after it, up to a
// bound: then it is written without its outcome, and the rest go on.
func TestTracePairingBound(t *testing.T) {
	t.Parallel()
	lines := []string{ev(0, "actions.requested", `{"calls":[{"callId":"c1","toolName":"read","input":{}}]}`)}
	for i := 1; i <= maxPending+5; i++ {
		lines = append(lines, ev(i, "message.completed", `{"text":"m"}`))
	}
	lines = append(lines, ev(maxPending+6, "action.result", `{"callId":"c1","toolName":"read","durationMs":1}`))
	c := recordServer(t, lines, nil)
	var b strings.Builder
	var notes []string
	if err := Trace(context.Background(), env(c, &b, render.Options{Width: 200}, &notes), "ses_1", TraceOptions{}); err != nil {
		t.Fatal(err)
	}
	out := strings.Split(b.String(), "\n")
	if f := strings.Fields(out[2]); f[0] != "0" || f[2] != "call" || f[3] != "…" || f[4] != "c1" {
		t.Errorf("the held call: %q", out[2])
	}
	// Its result, which came too late to pair, is a row of its own.
	if last := out[len(out)-2]; !strings.Contains(last, "call ok") || !strings.Contains(last, "c1") {
		t.Errorf("the late result: %q", last)
	}
	if n := strings.Count(b.String(), "message"); n != maxPending+5 {
		t.Errorf("%d messages", n)
	}
	// A call the record has no result for at its end says so too.
	c = recordServer(t, []string{lines[0], ev(1, "message.completed", `{"text":"m"}`)}, nil)
	b.Reset()
	if err := Trace(context.Background(), env(c, &b, render.Options{Width: 200}, &notes), "ses_1", TraceOptions{}); err != nil {
		t.Fatal(err)
	}
	if out := strings.Split(b.String(), "\n"); !strings.Contains(out[2], "call …") || !strings.Contains(out[3], "message") {
		t.Errorf("a call without a result:\n%s", b.String())
	}
}

func TestFindCall(t *testing.T) {
	t.Parallel()
	lines := append(append([]string{}, sampleRecord...),
		ev(13, "actions.requested", `{"calls":[{"callId":"call_01239999","toolName":"ls","input":null,"inputTruncated":true}]}`))
	c := recordServer(t, lines, nil)
	ctx := context.Background()
	k, err := FindCall(ctx, c, "ses_1", "call_fedcba9876543210")
	if err != nil || k.Tool != "grep" || string(k.Input) != `{"pattern":"TODO","path":"/repo"}` || k.Index != 1 {
		t.Errorf("exact: %+v, %v", k, err)
	}
	if k, err := FindCall(ctx, c, "ses_1", "call_fed"); err != nil || k.ID != "call_fedcba9876543210" {
		t.Errorf("prefix: %+v, %v", k, err)
	}
	if k, err := FindCall(ctx, c, "ses_1", "call_aaaa"); err != nil || k.Tool != "report_change_issue" {
		t.Errorf("parked: %+v, %v", k, err)
	}
	if k, err := FindCall(ctx, c, "ses_1", "call_01239"); err != nil || !k.Truncated || k.Input != nil {
		t.Errorf("cut: %+v, %v", k, err)
	}
	_, err = FindCall(ctx, c, "ses_1", "call_0123")
	var re *ReplayError
	if !errors.As(err, &re) || re.ExitCode() != 2 || re.Error() != `call id "call_0123" is ambiguous in the record of session ses_1: call_0123456789abcdef, call_01239999; give more of it` {
		t.Errorf("ambiguous: %v", err)
	}
	_, err = FindCall(ctx, c, "ses_1", "nope")
	if !errors.As(err, &re) || re.ExitCode() != 3 || re.Error() != `no call "nope" in the record of session ses_1; :trace lists its calls` {
		t.Errorf("none: %v", err)
	}
	ids, err := CallIDs(ctx, c, "ses_1", 2)
	if err != nil || strings.Join(ids, " ") != "call_01239999 call_fedcba9876543210" {
		t.Errorf("ids %q, %v", ids, err)
	}
}

// A tail shows the last events, then follows the stream; a dropped
// connection resumes from the last index + 1: nothing twice, nothing lost.
func TestTailReconnects(t *testing.T) {
	t.Parallel()
	initial := sampleRecord[:7] // up to session.waiting at 6
	more := []string{
		ev(7, "turn.started", `{"source":"follow-up"}`),
		ev(8, "message.completed", `{"text":"a"}`),
		ev(9, "message.completed", `{"text":"b"}`),
		ev(10, "turn.completed", ``),
		ev(11, "session.waiting", ``),
	}
	var mu sync.Mutex
	var starts []string
	conn := 0
	// The record ends waiting, but a turn started before the listing was
	// read (between the record read and the stream): it is followed.
	c := listedServer(t, initial, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		conn++
		n := conn
		starts = append(starts, r.URL.Query().Get("startIndex"))
		mu.Unlock()
		start, _ := strconv.Atoi(r.URL.Query().Get("startIndex"))
		switch n {
		case 1:
			// Two events, then the connection drops mid-line.
			fmt.Fprintln(w, more[0])
			fmt.Fprintln(w, more[1])
			fmt.Fprint(w, more[2][:10])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		case 2:
			http.Error(w, `{"ok":false,"error":"unavailable"}`, http.StatusServiceUnavailable)
		default:
			// A deployment that replays from 0 whatever was asked.
			_ = start
			for _, l := range append(append([]string{}, initial...), more...) {
				fmt.Fprintln(w, l)
			}
		}
	}, `{"sessionId":"ses_1","mode":"chat","running":true}`)
	var b strings.Builder
	var notes []string
	e := env(c, &b, render.Options{Width: 200}, &notes)
	err := Tail(context.Background(), e, "ses_1", TailOptions{Initial: 3, Backoff: []time.Duration{time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	var idx []string
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] != "2026-01-02" {
			idx = append(idx, f[0])
		}
	}
	if got := strings.Join(idx, " "); got != "4 5 6 7 8 9 10 11" {
		t.Errorf("indexes %q\n%s", got, b.String())
	}
	if got := strings.Join(starts, " "); !strings.HasPrefix(got, "7 9 9") {
		t.Errorf("startIndex asked %q", got)
	}
	joined := strings.Join(notes, "\n")
	if !strings.Contains(joined, "connection lost") || !strings.Contains(joined, "reconnected") {
		t.Errorf("notes %q", notes)
	}
}

// Ctrl-C (the context) detaches at once, even from a stream that trickles.
func TestTailDetach(t *testing.T) {
	t.Parallel()
	c := recordServer(t, sampleRecord[:2], func(w http.ResponseWriter, r *http.Request) {
		for i := 2; ; i++ {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
			fmt.Fprintln(w, ev(i, "message.completed", `{"text":"tick"}`))
			w.(http.Flusher).Flush()
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	var b lockedBuffer
	var notes []string
	done := make(chan error, 1)
	go func() {
		done <- Tail(ctx, env(c, &b, render.Options{TTY: true, Width: 80}, &notes), "ses_1", TailOptions{Live: true})
	}()
	for !strings.Contains(b.String(), "tick") {
		time.Sleep(time.Millisecond)
	}
	cancel()
	err := <-done
	if _, ok := err.(Detached); !ok || err.Error() != "detached; the agent goes on" {
		t.Fatalf("err %v", err)
	}
}

// Piped, a tail of a task session ends when its turn ends; --follow goes
// on past a wait.
func TestTailEnds(t *testing.T) {
	t.Parallel()
	lines := []string{ev(0, "turn.started", ``), ev(1, "turn.completed", ``), ev(2, "session.waiting", ``),
		ev(3, "turn.started", ``), ev(4, "turn.completed", ``)}
	c := recordServer(t, lines[:1], func(w http.ResponseWriter, r *http.Request) {
		start, _ := strconv.Atoi(r.URL.Query().Get("startIndex"))
		for i := start; i < len(lines); i++ {
			fmt.Fprintln(w, lines[i])
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	for _, tt := range []struct {
		o    TailOptions
		last string
	}{
		{TailOptions{}, "2"},
		{TailOptions{Task: true}, "1"},
		{TailOptions{Format: render.JSON}, "2"},
	} {
		var b strings.Builder
		var notes []string
		if err := Tail(context.Background(), env(c, &b, render.Options{}, &notes), "ses_1", tt.o); err != nil {
			t.Fatal(err)
		}
		out := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		last := out[len(out)-1]
		if tt.o.Format.IsData() {
			var e struct{ Index json.Number }
			_ = json.Unmarshal([]byte(last), &e)
			last = string(e.Index)
		} else {
			last = strings.Fields(last)[0]
		}
		if last != tt.last {
			t.Errorf("%+v: ended after %s\n%s", tt.o, last, b.String())
		}
	}
	// A call parked on an approval ends it too (the operator is needed).
	parked := []string{ev(0, "turn.started", ``), ev(1, "approval.requested", `{"callId":"c1","toolName":"report_change_issue","input":{}}`),
		ev(2, "approval.resolved", `{"callId":"c1","decision":"approve"}`), ev(3, "session.waiting", ``)}
	pc := recordServer(t, parked[:1], func(w http.ResponseWriter, r *http.Request) {
		start, _ := strconv.Atoi(r.URL.Query().Get("startIndex"))
		for i := start; i < len(parked); i++ {
			fmt.Fprintln(w, parked[i])
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	var pb strings.Builder
	var pnotes []string
	if err := Tail(context.Background(), env(pc, &pb, render.Options{}, &pnotes), "ses_1", TailOptions{}); err != nil {
		t.Fatal(err)
	}
	if out := strings.Split(strings.TrimSuffix(pb.String(), "\n"), "\n"); strings.Fields(out[len(out)-1])[0] != "1" {
		t.Errorf("a parked call did not end the tail:\n%s", pb.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var b strings.Builder
	var notes []string
	err := Tail(ctx, env(c, &b, render.Options{}, &notes), "ses_1", TailOptions{Follow: true})
	if _, ok := err.(Detached); !ok || !strings.Contains(b.String(), "\n   4 ") {
		t.Errorf("--follow: %v\n%s", err, b.String())
	}
}

// Piped, a tail of a session that is not running ends after its initial
// events without opening the stream: waiting, a call waiting for an
// approval, a failed or stopped last turn, a task session's ended turn.
func TestTailEndsOnIdle(t *testing.T) {
	t.Parallel()
	started := ev(0, "turn.started", `{"turnId":"t1"}`)
	for _, tt := range []struct {
		name string
		last string
		row  string
		o    TailOptions
	}{
		{"waiting", ev(1, "session.waiting", ``), `"status":"waiting"`, TailOptions{}},
		{"approval", ev(1, "approval.requested", `{"callId":"c1","toolName":"x","input":{}}`), `"status":"waiting_approval"`, TailOptions{}},
		{"failed", ev(1, "turn.failed", `{"turnId":"t1","reason":"error","message":"boom"}`), `"status":"waiting"`, TailOptions{}},
		{"stopped", ev(1, "turn.failed", `{"turnId":"t1","reason":"interrupted"}`), `"status":"waiting"`, TailOptions{}},
		{"task done", ev(1, "turn.completed", `{"turnId":"t1"}`), `"status":"completed"`, TailOptions{Task: true}},
	} {
		streams := 0
		var mu sync.Mutex
		c := listedServer(t, []string{started, tt.last}, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			streams++
			mu.Unlock()
			<-r.Context().Done()
		}, `{"sessionId":"ses_1","mode":"chat",`+tt.row+`}`)
		var b strings.Builder
		var notes []string
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang detector
		err := Tail(ctx, env(c, &b, render.Options{}, &notes), "ses_1", tt.o)
		cancel()
		mu.Lock()
		n := streams
		mu.Unlock()
		if err != nil || n != 0 || !strings.Contains(b.String(), "\n   1 ") {
			t.Errorf("%s: %v, %d streams\n%s", tt.name, err, n, b.String())
		}
		// --follow still follows.
		ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
		err = Tail(ctx, env(c, &b, render.Options{}, &notes), "ses_1", TailOptions{Follow: true})
		cancel()
		if _, ok := err.(Detached); !ok {
			t.Errorf("%s --follow: %v", tt.name, err)
		}
	}
}

// A refusal ends a tail at once; so does a stream that never ends a line.
func TestTailRefusals(t *testing.T) {
	t.Parallel()
	c := recordServer(t, nil, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"ok":false,"error":"forbidden","message":"not yours"}`)
	})
	var b strings.Builder
	var notes []string
	err := Tail(context.Background(), env(c, &b, render.Options{}, &notes), "ses_1", TailOptions{Live: true})
	if !catalog.IsCode(err, catalog.CodeForbidden) {
		t.Errorf("403: %v", err)
	}
}

// lockedBuffer is a buffer written by one goroutine and read by another.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// On a terminal :tail escapes what the text view does, as text and as
// NDJSON: a hostile event's override, escape and tag character never reach
// the screen raw.
func TestTailTerminalEscapes(t *testing.T) {
	t.Parallel()
	const hostile = "x\u202ey\\u001b]0;t\\u0007z\U000e0041\u200b"
	lines := []string{ev(0, "turn.started", ``), ev(1, "message.completed", `{"text":"`+hostile+`"}`),
		ev(2, "vendor.thing", `{"note":"`+hostile+`"}`)}
	for _, jsonOut := range []bool{false, true} {
		c := recordServer(t, lines, func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		})
		ctx, cancel := context.WithCancel(context.Background())
		var b lockedBuffer
		var notes []string
		done := make(chan error, 1)
		f := render.Text
		if jsonOut {
			f = render.JSON
		}
		go func() {
			done <- Tail(ctx, env(c, &b, render.Options{TTY: true, Width: 80}, &notes), "ses_1", TailOptions{Live: true, Format: f})
		}()
		for strings.Count(b.String(), `\u202e`) < 2 {
			time.Sleep(time.Millisecond)
		}
		cancel()
		<-done
		for _, r := range b.String() {
			if r != '\n' && r != '\t' && termsafe.Unsafe(r) {
				t.Errorf("json %v: %U raw in\n%q", jsonOut, r, b.String())
			}
		}
	}
}

package console

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/render"
)

// fleet is a fake deployment of many sessions: its listing, each record,
// and how many records were read.
type fleet struct {
	mu       sync.Mutex
	rows     []catalog.Session
	records  map[string][]string
	reads    atomic.Int64
	listings atomic.Int64
	down     atomic.Bool
}

func (f *fleet) serve(t *testing.T) *catalog.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f.down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if r.URL.Path == "/a/v1/sessions" {
			f.listings.Add(1)
			b, _ := json.Marshal(map[string]any{"ok": true, "sessions": f.rows})
			w.Write(b)
			return
		}
		id, ok := strings.CutPrefix(r.URL.Path, "/a/v1/session/")
		id, ok2 := strings.CutSuffix(id, "/events")
		if ok && ok2 {
			f.reads.Add(1)
			fmt.Fprintf(w, `{"ok":true,"events":[%s]}`, strings.Join(f.records[id], ","))
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := catalog.New(srv.URL+"/a", catalog.Options{HeaderTimeout: time.Minute, RetryBackoff: []time.Duration{}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func stamp(ago time.Duration) string { return time.Now().Add(-ago).UTC().Format(time.RFC3339Nano) }

// sampleFleet: one session in each state, records behind the idle ones.
func sampleFleet() *fleet {
	return &fleet{
		rows: []catalog.Session{
			{SessionID: "ses_run", Title: "Running job", Status: "running", Running: true, UpdatedAt: stamp(time.Minute)},
			{SessionID: "ses_appr", Title: "Needs me", Status: "waiting_approval", Running: true, UpdatedAt: stamp(2 * time.Minute)},
			{SessionID: "ses_que", Title: "Queued", Status: "waiting", Queued: true, UpdatedAt: stamp(3 * time.Minute)},
			{SessionID: "ses_fail", Title: "Broke the build", Status: "waiting", UpdatedAt: stamp(4 * time.Minute)},
			{SessionID: "ses_stop", Title: "Stopped by me", Status: "waiting", UpdatedAt: stamp(5 * time.Minute)},
			{SessionID: "ses_idle", Title: "Idle chat", Status: "waiting", UpdatedAt: stamp(3 * time.Hour)},
			{SessionID: "ses_task", Title: "A task", Mode: "task", Status: "completed", UpdatedAt: stamp(6 * time.Minute)},
		},
		records: map[string][]string{
			"ses_fail": {ev(0, "turn.started", `{"turnId":"t1"}`),
				ev(1, "actions.requested", `{"turnId":"t1","calls":[{"callId":"c1","toolName":"grep","input":{}}]}`),
				ev(2, "turn.failed", `{"turnId":"t1","reason":"error","message":"boom"}`), ev(3, "session.waiting", "")},
			"ses_stop": {ev(0, "turn.started", `{"turnId":"t1"}`), ev(1, "turn.failed", `{"turnId":"t1","reason":"interrupted"}`)},
			"ses_idle": {ev(0, "turn.started", `{"turnId":"t1"}`),
				ev(1, "actions.requested", `{"turnId":"t1","calls":[{"callId":"c2","toolName":"read","input":{}}]}`),
				ev(2, "turn.completed", `{"turnId":"t1"}`)},
			"ses_task": {ev(0, "turn.started", `{"turnId":"t1"}`), ev(1, "turn.completed", `{"turnId":"t1"}`)},
		},
	}
}

func ids(found Found) string {
	var out []string
	for _, s := range found.Sessions {
		out = append(out, s.SessionID+"="+s.State)
	}
	return strings.Join(out, " ")
}

func TestFindFilters(t *testing.T) {
	t.Parallel()
	fl := sampleFleet()
	c := fl.serve(t)
	for _, tt := range []struct {
		f     SessionFilter
		want  string
		reads int64
	}{
		{SessionFilter{}, "ses_run=running ses_appr=approval ses_que=queued ses_fail=waiting ses_stop=waiting ses_idle=waiting ses_task=done", 0},
		{SessionFilter{State: "running"}, "ses_run=running", 0},
		{SessionFilter{State: "approval"}, "ses_appr=approval", 0},
		{SessionFilter{State: "queued"}, "ses_que=queued", 0},
		{SessionFilter{State: "done"}, "ses_task=done", 0},
		{SessionFilter{State: "failed"}, "ses_fail=failed", 3},
		{SessionFilter{State: "stopped"}, "ses_stop=stopped", 3},
		{SessionFilter{State: "waiting"}, "ses_idle=waiting", 3},
		{SessionFilter{Since: time.Hour}, "ses_run=running ses_appr=approval ses_que=queued ses_fail=waiting ses_stop=waiting ses_task=done", 0},
		{SessionFilter{Title: "BUILD"}, "ses_fail=waiting", 0},
		{SessionFilter{Tool: "grep"}, "ses_fail=failed", 7},
		{SessionFilter{Tool: "read", Since: time.Hour}, "", 6},
		{SessionFilter{Tool: "read"}, "ses_idle=waiting", 7},
	} {
		before := fl.reads.Load()
		found, err := (&Finder{Client: c, Filter: tt.f}).Find(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(found); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.f, got, tt.want)
		}
		if n := fl.reads.Load() - before; n != tt.reads {
			t.Errorf("%+v: read %d records, want %d", tt.f, n, tt.reads)
		}
	}
}

// One find reads at most MaxRecordReads records, the most recently active
// first, and says how many it left unsearched; a finder that runs again
// reads again only the records of sessions whose activity changed, and
// goes on with those it has not read, within the bound.
func TestFindBounded(t *testing.T) {
	t.Parallel()
	fl := &fleet{records: map[string][]string{}}
	for i := range 10000 {
		id := fmt.Sprintf("ses_%05d", i)
		fl.rows = append(fl.rows, catalog.Session{SessionID: id, Status: "waiting", UpdatedAt: stamp(time.Duration(i) * time.Second)})
		if i%2 == 0 {
			fl.records[id] = []string{ev(0, "actions.requested", `{"calls":[{"callId":"c","toolName":"grep","input":{}}]}`)}
		}
	}
	c := fl.serve(t)
	f := &Finder{Client: c, Filter: SessionFilter{Tool: "grep"}}
	found, err := f.Find(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if fl.reads.Load() != MaxRecordReads || found.Unsearched != 10000-MaxRecordReads || len(found.Sessions) != MaxRecordReads/2 ||
		found.Sessions[0].SessionID != "ses_00000" || fl.listings.Load() != 1 {
		t.Fatalf("reads %d, listings %d, unsearched %d, kept %d (%s…)", fl.reads.Load(), fl.listings.Load(), found.Unsearched,
			len(found.Sessions), found.Sessions[0].SessionID)
	}
	// Again, one session changed: one record read.
	fl.mu.Lock()
	fl.rows[3].UpdatedAt = stamp(0)
	fl.mu.Unlock()
	again, err := f.Find(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// It reads the changed one and, within the bound, the next ones not
	// read yet: what it read before is kept.
	if n := fl.reads.Load(); n != 2*MaxRecordReads || again.Unsearched != 10000-2*MaxRecordReads+1 {
		t.Errorf("the second find read %d records in all, want %d; unsearched %d", n, 2*MaxRecordReads, again.Unsearched)
	}
}

// A piped watch prints the table, then one line per change; with --output
// json one object per session first, then per change ("was": the state
// before; "gone" once the listing drops it). Ctrl-C ends it (130); a lost
// deployment ends a piped watch after GiveUp failures (exit 5), a refusal
// at once.
func TestWatch(t *testing.T) {
	t.Parallel()
	fl := &fleet{rows: []catalog.Session{{SessionID: "ses_a", Title: "A", Status: "waiting"}, {SessionID: "ses_b", Title: "B", Running: true}}}
	c := fl.serve(t)
	rows := func(found Found) []SessionRow {
		var out []SessionRow
		for _, s := range found.Sessions {
			out = append(out, SessionRow{ID: s.SessionID, State: s.State, Title: s.Title})
		}
		return out
	}
	clock := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	// run starts a watch, waits until its output satisfies first, then
	// makes each step's change and waits for the output it brings (a hang
	// detector, never a timing assertion), and ends it with Ctrl-C.
	type step struct {
		do    func()
		until func(out string) bool
	}
	run := func(o WatchOptions, first func(string) bool, steps ...step) (string, error) {
		var b syncBuffer
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		o.Rows, o.Clock, o.Interval = rows, clock, 10*time.Millisecond
		go func() {
			done <- Watch(ctx, Env{Client: c, Out: &b, Opts: render.Options{Width: 80}}, &Finder{Client: c}, o)
		}()
		wait := func(until func(string) bool) {
			for deadline := time.Now().Add(30 * time.Second); !until(b.String()) && time.Now().Before(deadline); {
				time.Sleep(2 * time.Millisecond)
			}
		}
		wait(first)
		for _, s := range steps {
			s.do()
			wait(s.until)
		}
		cancel()
		return b.String(), <-done
	}
	has := func(sub string) func(string) bool { return func(out string) bool { return strings.Contains(out, sub) } }
	set := func(f func()) func() { return func() { fl.mu.Lock(); f(); fl.mu.Unlock() } }
	out, err := run(WatchOptions{}, has("ses_b  running"),
		step{set(func() { fl.rows[1].Running = false; fl.rows[1].Status = "waiting" }), has("(was running)  B\n")},
		step{set(func() { fl.rows = fl.rows[:1] }), has("(was waiting)\n")},
		step{set(func() {
			fl.rows = append(fl.rows, catalog.Session{SessionID: "ses_c", Title: "C", Status: "waiting_approval"})
		}), has("(new)  C\n")})
	want := "BOUND  ID     STATE    LASTACTIVITY  TITLE\n" +
		"       ses_a  waiting                A\n" +
		"       ses_b  running                B\n" +
		"03:04:05  ses_b  waiting  (was running)  B\n" +
		"03:04:05  ses_b  gone  (was waiting)\n" +
		"03:04:05  ses_c  approval  (new)  C\n"
	if _, ok := err.(Stopped); !ok || out != want {
		t.Errorf("piped watch: %v\n%s\nwant:\n%s", err, out, want)
	}
	fl.mu.Lock()
	fl.rows = []catalog.Session{{SessionID: "ses_a", Status: "waiting"}}
	fl.mu.Unlock()
	out, err = run(WatchOptions{Format: render.JSON}, has(`"was":null}`+"\n"),
		step{set(func() { fl.rows[0].Running = true }), has(`"was":"waiting"}` + "\n")})
	want = `{"session":"ses_a","state":"waiting","was":null}` + "\n" + `{"session":"ses_a","state":"running","was":"waiting"}` + "\n"
	if _, ok := err.(Stopped); !ok || out != want {
		t.Errorf("NDJSON watch: %v\n%s\nwant:\n%s", err, out, want)
	}
	// On a terminal: the table again, under the time, when it changes.
	tables := func(n int) func(string) bool {
		return func(out string) bool {
			return strings.Count(out, "BOUND") == n && strings.Count(out, "ses_a") == n && strings.HasSuffix(out, "\n")
		}
	}
	out, err = run(WatchOptions{Live: true}, tables(1), step{set(func() { fl.rows[0].Running = false }), tables(2)})
	if _, ok := err.(Stopped); !ok || strings.Count(out, "BOUND") != 2 || !strings.Contains(out, "\n03:04:05\nBOUND") {
		t.Errorf("live watch: %v\n%s", err, out)
	}
	// Lost: piped, GiveUp failures end it with exit 5; live, it goes on
	// until Ctrl-C.
	fl.down.Store(true)
	lost := func(o WatchOptions) error {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		o.Rows, o.Clock, o.Interval = rows, clock, 10*time.Millisecond
		go func() {
			done <- Watch(ctx, Env{Client: c, Out: io.Discard, Opts: render.Options{Width: 80}}, &Finder{Client: c}, o)
		}()
		if o.Live {
			select {
			case err := <-done:
				return err // it ended by itself: wrong
			case <-time.After(100 * time.Millisecond):
			}
			cancel()
		}
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			cancel()
			return <-done
		}
	}
	err = lost(WatchOptions{GiveUp: 3})
	if exitcode.Of(err) != 5 {
		t.Errorf("piped watch of a lost deployment: %v (exit %d)", err, exitcode.Of(err))
	}
	err = lost(WatchOptions{GiveUp: 3, Live: true})
	if _, ok := err.(Stopped); !ok {
		t.Errorf("live watch of a lost deployment: %v", err)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestDescribe(t *testing.T) {
	t.Parallel()
	fl := sampleFleet()
	fl.records["ses_x"] = []string{
		ev(0, "turn.started", `{"turnId":"t1","source":"message","message":"call write {}\nsay ok"}`),
		ev(1, "actions.requested", `{"turnId":"t1","calls":[{"callId":"c1","toolName":"write","input":{}},{"callId":"c2","toolName":"read","input":{}}]}`),
		ev(2, "action.result", `{"turnId":"t1","callId":"c1","toolName":"write","isError":false,"stubbed":true,"result":"x"}`),
		ev(3, "action.result", `{"turnId":"t1","callId":"c2","toolName":"read","isError":true,"result":"x"}`),
		ev(4, "turn.completed", `{"turnId":"t1"}`),
		ev(5, "turn.started", `{"turnId":"t2","source":"follow-up"}`),
		ev(6, "approval.requested", `{"turnId":"t2","callId":"c3","toolName":"report","input":{"a":1}}`),
	}
	c := fl.serve(t)
	d, err := Describe(context.Background(), c, "ses_x", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(d.Turns)
	want := `[{"turnId":"t1","source":"message","message":"call write {} …","started":"` + d.Turns[0].Started + `","ended":"` + d.Turns[0].Ended +
		`","outcome":"done","reason":"","calls":2,"errors":1,"stubbed":1},` +
		`{"turnId":"t2","source":"follow-up","message":"","started":"` + d.Turns[1].Started + `","ended":"","outcome":"running","reason":"","calls":0,"errors":0,"stubbed":0}]`
	if string(b) != want || len(d.Parked) != 1 || d.Parked[0].ID != "c3" || d.Events != 7 || d.LastEnd != "" {
		t.Errorf("description: %s\nwant %s\n%+v", b, want, d)
	}
}

// The sessions table keeps every id whole at 80 columns, even beside a
// 200-character title (the title gives way, cut with …), on a terminal
// and piped.
func TestWriteSessionsWholeIDs(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a long title ", 16)[:200]
	rows := []SessionRow{
		{Bound: "*", ID: "ses_93c211e50442fc32", State: "approval", LastActivity: "2026-12-02T04:12:01.112Z", Title: long},
		{ID: "ses_93c2aaaaaaaaaaaa", State: "waiting", LastActivity: "2026-12-02T04:02:36.805Z", Title: "short \x1b[31mred"},
	}
	for _, o := range []render.Options{{TTY: true, Width: 80}, {Width: 80}} {
		var b strings.Builder
		if err := WriteSessions(&b, o, rows); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, r := range rows {
			if !strings.Contains(out, " "+r.ID+" ") {
				t.Errorf("tty %v: id %s not whole:\n%s", o.TTY, r.ID, out)
			}
		}
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if o.TTY && len([]rune(l)) > 80 {
				t.Errorf("line wider than 80: %q", l)
			}
			if o.TTY && strings.Contains(l, "\x1b") {
				t.Errorf("raw escape on a terminal: %q", l)
			}
		}
		if o.TTY && !strings.Contains(out, "…") || !o.TTY && !strings.Contains(out, long) {
			t.Errorf("tty %v: the title:\n%s", o.TTY, out)
		}
	}
}

// TestListedStateQueued: a row whose queued is true is queued, whether a
// turn runs ahead of it (running: true, status running) or none does (the
// development deployment's status is then running too); a parked call
// still comes first.
func TestListedStateQueued(t *testing.T) {
	for _, tt := range []struct {
		row  catalog.Session
		want string
	}{
		{catalog.Session{Status: "running", Running: true, Queued: true}, StateQueued},
		{catalog.Session{Status: "running", Queued: true}, StateQueued},
		{catalog.Session{Status: "waiting", Queued: true}, StateQueued},
		{catalog.Session{Status: "running", Running: true}, StateRunning},
		{catalog.Session{Status: "waiting_approval", Running: true, Queued: true}, StateApproval},
	} {
		if got := ListedState(tt.row); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.row, got, tt.want)
		}
	}
}

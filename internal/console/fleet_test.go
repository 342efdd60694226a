package console

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/top"
	"github.com/agsh-dev/agsh/render"
)

// fleetServer is a deployment of n sessions in mixed states (every
// 2,000th parked on an approval, the first of them near the listing's
// end); it counts the requests it answered. A decision (POST
// …/approvals/…) resumes the parked turn: its row running, newer.
type fleetServer struct {
	client  *catalog.Client
	ids     []string
	hits    atomic.Int64
	records atomic.Int64

	mu      sync.Mutex
	parked  map[string]bool
	decided map[string]bool
	rows    []fleetServerRow
	listing string // "": made again from rows
	reads   map[string]int
}

// readOf is how many times session id's record was read.
func (fs *fleetServer) readOf(id string) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.reads[id]
}

type fleetServerRow struct {
	id, status, updated string
	running             bool
	i                   int
}

func newFleetServer(tb testing.TB, n int) *fleetServer {
	tb.Helper()
	fs := &fleetServer{parked: map[string]bool{}, decided: map[string]bool{}, reads: map[string]int{}}
	at := func(i int) string {
		return time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC).Add(-time.Duration(i) * time.Second).Format(time.RFC3339Nano)
	}
	for i := range n {
		id := fmt.Sprintf("ses_%016x", uint64(i+1)*0x9e3779b97f4a7c15)
		fs.ids = append(fs.ids, id)
		r := fleetServerRow{id: id, status: "waiting", updated: at(i), i: i}
		switch {
		case (n-1-i)%2000 == 0:
			r.status, r.running = "waiting_approval", true
			fs.parked[id] = true
		case i%4 == 1:
			r.status, r.running = "running", true
		case i%4 == 2:
			r.status = "completed"
		}
		fs.rows = append(fs.rows, r)
	}
	list := func() string {
		if fs.listing != "" {
			return fs.listing
		}
		var b strings.Builder
		b.WriteString(`{"ok":true,"sessions":[`)
		for k, r := range fs.rows {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"sessionId":%q,"continuationToken":"tok_%d","title":"Check the release notes of build %d","mode":"chat","status":%q,"running":%v,"queued":false,"createdAt":%q,"updatedAt":%q,"principal":"local"}`,
				r.id, r.i, r.i, r.status, r.running, at(r.i+3600), r.updated)
		}
		b.WriteString(`]}`)
		fs.listing = b.String()
		return fs.listing
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fs.hits.Add(1)
		fs.mu.Lock()
		defer fs.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/a/v1/sessions" {
			io.WriteString(w, list())
			return
		}
		rest, _ := strings.CutPrefix(r.URL.Path, "/a/v1/session/")
		if id, _, ok := strings.Cut(rest, "/approvals/"); ok && r.Method == http.MethodPost && fs.parked[id] {
			fs.parked[id], fs.decided[id] = false, true
			for k := range fs.rows {
				if fs.rows[k].id == id {
					fs.rows[k].status, fs.rows[k].updated = "running", at(-1)
				}
			}
			fs.listing = ""
			io.WriteString(w, `{"ok":true}`)
			return
		}
		id, ok := strings.CutSuffix(rest, "/events")
		if !ok {
			http.NotFound(w, r)
			return
		}
		fs.records.Add(1)
		fs.reads[id]++
		evs := []string{
			ev(0, "turn.started", `{"turnId":"t1","source":"message","message":"check"}`),
			ev(1, "actions.requested", `{"turnId":"t1","calls":[{"callId":"call_1","toolName":"read","input":{"path":"/repo/README.md"}}]}`),
			ev(2, "action.result", `{"callId":"call_1","toolName":"read","isError":false,"result":"# x","durationMs":3}`),
		}
		if fs.parked[id] || fs.decided[id] {
			evs = append(evs, ev(3, "approval.requested", `{"callId":"call_2","toolName":"report_change_issue","input":{"title":"flaky"}}`))
		}
		if fs.decided[id] {
			evs = append(evs, ev(4, "approval.resolved", `{"callId":"call_2","decision":"approve"}`))
		}
		fmt.Fprintf(w, `{"ok":true,"events":[%s]}`, strings.Join(evs, ","))
	}))
	tb.Cleanup(srv.Close)
	c, err := catalog.New(srv.URL+"/a", catalog.Options{HeaderTimeout: time.Minute})
	if err != nil {
		tb.Fatal(err)
	}
	fs.client = c
	return fs
}

func fleetEnv(c *catalog.Client) Env {
	return Env{Client: c, Out: io.Discard, Opts: render.Options{Width: 200}, CallLine: fakeLine, Location: time.UTC, Note: func(string) {}}
}

// visibleIDs are the ids of the first rows the view would show.
func visibleIDs(rows []top.Row, n int) []string {
	top.Sort(rows, time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC), top.DefaultStale)
	var ids []string
	for i := 0; i < len(rows) && i < n; i++ {
		ids = append(ids, rows[i].ID)
	}
	return ids
}

// TestFleetRefreshBound: a refresh sends at most RecordsPerRefresh+1
// requests (the listing and the records) whether the deployment has 10,
// 1,000 or 10,000 sessions; the parked approvals' records are read in the
// first refresh wherever they stand in the listing (their calls' times
// order the first rows), and every parked row comes first.
func TestFleetRefreshBound(t *testing.T) {
	for _, n := range []int{10, 1000, 10000} {
		fs := newFleetServer(t, n)
		f := NewFleet(fleetEnv(fs.client))
		var visible []string
		var perRefresh []int64
		for refresh := range 5 {
			before := fs.hits.Load()
			rows, err := f.Refresh(context.Background(), visible)
			if err != nil {
				t.Fatal(err)
			}
			sent := fs.hits.Load() - before
			perRefresh = append(perRefresh, sent)
			if sent > RecordsPerRefresh+1 {
				t.Errorf("%d sessions, refresh %d: %d requests, over %d", n, refresh, sent, RecordsPerRefresh+1)
			}
			if len(rows) != n {
				t.Fatalf("%d sessions: %d rows", n, len(rows))
			}
			visible = visibleIDs(rows, 46)
			if refresh == 0 {
				for i := range rows {
					if fs.parked[rows[i].ID] != (i < len(fs.parked)) {
						t.Fatalf("%d sessions: row %d (%s, parked %v) out of place", n, i, rows[i].ID, fs.parked[rows[i].ID])
					}
					if fs.parked[rows[i].ID] && (rows[i].Call == "" || rows[i].State != top.StateApproval) {
						t.Errorf("%d sessions: the parked row %s was not read in the first refresh: %+v", n, rows[i].ID, rows[i])
					}
				}
			}
		}
		if got := int64(f.Requests()); got != sum(perRefresh) {
			t.Errorf("%d sessions: Requests() %d, the server answered %d", n, got, sum(perRefresh))
		}
		t.Logf("%d sessions: requests per refresh %v", n, perRefresh)
	}
}

func sum(xs []int64) (s int64) {
	for _, x := range xs {
		s += x
	}
	return s
}

// BenchmarkFleetRefresh is one refresh (the listing, decoded, and the
// records chosen) of 10, 1,000 and 10,000 sessions, the screen's 46 rows
// visible; requests/refresh and the heap in use after it are reported.
func BenchmarkFleetRefresh(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			fs := newFleetServer(b, n)
			f := NewFleet(fleetEnv(fs.client))
			rows, err := f.Refresh(context.Background(), nil)
			if err != nil {
				b.Fatal(err)
			}
			visible := visibleIDs(rows, 46)
			before := fs.hits.Load()
			var peak uint64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rows, err = f.Refresh(context.Background(), visible)
				if err != nil {
					b.Fatal(err)
				}
				visible = visibleIDs(rows, 46)
				if i%16 == 0 {
					var ms runtime.MemStats
					runtime.ReadMemStats(&ms)
					peak = max(peak, ms.HeapInuse)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(fs.hits.Load()-before)/float64(b.N), "requests/refresh")
			b.ReportMetric(float64(peak)/(1<<20), "heap-MiB")
		})
	}
}

// TestFleetAfterDecision: the refresh after an approval sent from the view
// reads the decided session's record first, though rows on the screen were
// never read (they would take every read of the refresh); a call decided
// elsewhere, its row changed but not read again, is no approval either: a
// read older than the listing's row says nothing of a call parked now.
func TestFleetAfterDecision(t *testing.T) {
	fs := newFleetServer(t, 4001) // parked: the rows 0, 2000 and 4000
	f := NewFleet(fleetEnv(fs.client))
	ctx := context.Background()
	rows, err := f.Refresh(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	visible := visibleIDs(rows, 46)
	for i := range 3 {
		if !fs.parked[rows[i].ID] || rows[i].State != top.StateApproval || rows[i].Call == "" {
			t.Fatalf("row %d is not a parked one, read: %+v", i, rows[i])
		}
	}
	here, elsewhere := rows[0].ID, rows[1].ID
	state := func(rows []top.Row, id string) top.Row {
		for _, r := range rows {
			if r.ID == id {
				return r
			}
		}
		t.Fatalf("%s not listed", id)
		return top.Row{}
	}

	// Decided elsewhere: the refresh's reads go to rows never read.
	post := func(id string) {
		resp, err := http.Post(fs.client.Target()+"/v1/session/"+id+"/approvals/call_2", "application/json", strings.NewReader(`{"decision":"approve"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	post(elsewhere)
	before := fs.readOf(elsewhere)
	if rows, err = f.Refresh(ctx, visible); err != nil {
		t.Fatal(err)
	}
	if fs.readOf(elsewhere) != before {
		t.Fatalf("the row decided elsewhere was read again: the test no longer shows a stale read")
	}
	if r := state(rows, elsewhere); r.State != top.StateRunning || !r.Parked.IsZero() {
		t.Errorf("decided elsewhere, the row is %s (parked %v), want running", r.State, r.Parked)
	}

	// Decided here: read first.
	p, err := f.Parked(ctx, here)
	if err != nil || p.CallID != "call_2" {
		t.Fatalf("Parked: %+v %v", p, err)
	}
	if err := f.Decide(ctx, here, p.CallID, true); err != nil {
		t.Fatal(err)
	}
	before = fs.readOf(here)
	if rows, err = f.Refresh(ctx, visible); err != nil {
		t.Fatal(err)
	}
	if fs.readOf(here) != before+1 {
		t.Errorf("the decided session's record was not read in the refresh after the decision")
	}
	if r := state(rows, here); r.State != top.StateRunning || !r.Parked.IsZero() {
		t.Errorf("after the approval the row is %s (parked %v), want running", r.State, r.Parked)
	}
}

// TestFleetRowQueued: :top's row of a session whose turn waits behind a
// running one (or for a slot) is queued, as :sessions says (ListedState),
// read or not.
func TestFleetRowQueued(t *testing.T) {
	f := NewFleet(Env{})
	for _, s := range []catalog.Session{
		{SessionID: "ses_1", Status: "running", Running: true, Queued: true, UpdatedAt: "2026-12-07T12:00:00Z"},
		{SessionID: "ses_2", Status: "running", Queued: true, UpdatedAt: "2026-12-07T12:00:00Z"},
	} {
		for _, sum := range []*fleetRecord{nil, {key: rowKey(&s), end: ""}} {
			if r := f.row(&s, sum); r.State != top.StateQueued || r.State != ListedState(s) {
				t.Errorf("%+v (read %v): %s, want %s", s, sum != nil, r.State, top.StateQueued)
			}
		}
	}
}

package console

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/top"
	"github.com/agsh-dev/agsh/render"
)

// fleetServer is a deployment of n sessions in mixed states (every
// 2,000th parked on an approval, the first of them near the listing's
// end); it counts the requests it answered.
type fleetServer struct {
	client  *catalog.Client
	ids     []string
	parked  map[string]bool
	hits    atomic.Int64
	records atomic.Int64
}

func newFleetServer(tb testing.TB, n int) *fleetServer {
	tb.Helper()
	fs := &fleetServer{parked: map[string]bool{}}
	at := func(i int) string {
		return time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC).Add(-time.Duration(i) * time.Second).Format(time.RFC3339Nano)
	}
	var b strings.Builder
	b.WriteString(`{"ok":true,"sessions":[`)
	for i := range n {
		id := fmt.Sprintf("ses_%016x", uint64(i+1)*0x9e3779b97f4a7c15)
		fs.ids = append(fs.ids, id)
		status, running := "waiting", false
		switch {
		case (n-1-i)%2000 == 0:
			status, running = "waiting_approval", true
			fs.parked[id] = true
		case i%4 == 1:
			status, running = "running", true
		case i%4 == 2:
			status = "completed"
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"sessionId":%q,"continuationToken":"tok_%d","title":"Check the release notes of build %d","mode":"chat","status":%q,"running":%v,"queued":false,"createdAt":%q,"updatedAt":%q,"principal":"local"}`,
			id, i, i, status, running, at(i+3600), at(i))
	}
	b.WriteString(`]}`)
	listing := b.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fs.hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/a/v1/sessions" {
			io.WriteString(w, listing)
			return
		}
		id, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/a/v1/session/"), "/events")
		if !ok {
			http.NotFound(w, r)
			return
		}
		fs.records.Add(1)
		evs := []string{
			ev(0, "turn.started", `{"turnId":"t1","source":"message","message":"check"}`),
			ev(1, "actions.requested", `{"turnId":"t1","calls":[{"callId":"call_1","toolName":"read","input":{"path":"/repo/README.md"}}]}`),
			ev(2, "action.result", `{"callId":"call_1","toolName":"read","isError":false,"result":"# x","durationMs":3}`),
		}
		if fs.parked[id] {
			evs = append(evs, ev(3, "approval.requested", `{"callId":"call_2","toolName":"report_change_issue","input":{"title":"flaky"}}`))
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

package cli

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// topMemoryBound is the bound on agsh's peak resident set while :top shows
// 10,000 sessions (docs/console.md#the-fleet-view).
const topMemoryBound = 100 << 20

// bigFleet is a deployment of n sessions (every 2,000th parked on an
// approval) that counts its listings and its record reads.
type bigFleet struct {
	url               string
	listings, records atomic.Int64
}

func newBigFleet(t *testing.T, n int) *bigFleet {
	t.Helper()
	bf := &bigFleet{}
	now := time.Now().UTC()
	var b strings.Builder
	b.WriteString(`{"ok":true,"sessions":[`)
	for i := range n {
		status, running := "waiting", false
		switch {
		case (n-1-i)%2000 == 0:
			status, running = "waiting_approval", true
		case i%4 == 1:
			status, running = "running", true
		case i%4 == 2:
			status = "completed"
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"sessionId":"ses_%016x","continuationToken":"tok_%d","title":"Check the release notes of build %d","mode":"chat","status":%q,"running":%v,"queued":false,"createdAt":%q,"updatedAt":%q,"principal":"local"}`,
			uint64(i+1)*0x9e3779b97f4a7c15, i, i, status, running,
			now.Add(-time.Duration(i+3600)*time.Second).Format(time.RFC3339Nano), now.Add(-time.Duration(i)*time.Second).Format(time.RFC3339Nano))
	}
	b.WriteString(`]}`)
	listing := b.String()
	at := now.Add(-time.Minute).Format(time.RFC3339Nano)
	record := `{"ok":true,"events":[` +
		`{"index":0,"type":"turn.started","data":{"turnId":"t1","source":"message","message":"check"},"at":"` + at + `"},` +
		`{"index":1,"type":"actions.requested","data":{"turnId":"t1","calls":[{"callId":"call_1","toolName":"read","input":{"path":"/repo/README.md"}}]},"at":"` + at + `"}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/big/v1/sessions":
			bf.listings.Add(1)
			io.WriteString(w, listing)
		case strings.HasSuffix(r.URL.Path, "/events"):
			bf.records.Add(1)
			io.WriteString(w, record)
		case r.URL.Path == "/big/v1/tools":
			io.WriteString(w, `{"ok":true,"tools":[]}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"ok":false,"error":"not_found","message":"no such route"}`)
		}
	}))
	t.Cleanup(srv.Close)
	bf.url = srv.URL + "/big"
	return bf
}

// procHWM is a process's peak resident set (VmHWM) in bytes, 0 when
// unknown.
func procHWM(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n << 10
		}
	}
	return 0
}

// paneProgram is the pid of the program the pane runs under its shells.
func (s *tmuxSession) paneProgram(name string) int {
	s.t.Helper()
	pid, _ := strconv.Atoi(s.format("#{pane_pid}"))
	for pid != 0 {
		comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		if strings.TrimSpace(string(comm)) == name {
			return pid
		}
		pid = childPid(pid)
	}
	s.t.Fatalf("no %s under the pane", name)
	return 0
}

// TestTopTenThousandSessionsInTmux: :top (the built binary, not the race
// build) over 10,000 sessions in a real terminal: the header counts them
// all, keys move and filter, each refresh reads at most 8 records beside
// its listing, and agsh's peak resident set stays within 100 MiB.
func TestTopTenThousandSessionsInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the runs through a real terminal")
	}
	requireTmux(t)
	bin := builtAgsh(t)
	bf := newBigFleet(t, 10000)
	s := startTmuxLineSize(t, 200, 50, []string{"AGENT_SHELL_TARGET=" + bf.url, "HOME=" + t.TempDir()}, shellQuote(bin)+` :top --interval 200ms`)
	s.waitFor("10000 sessions · 5 approval")
	pid := s.paneProgram("agsh")
	for range 30 {
		s.keys("j")
	}
	s.keys("/", "build 4242")
	s.waitUntil("the filtered row", func(scr string) bool {
		return len(listRows(scr)) == 1 && strings.Contains(scr, "of build 4242 ")
	})
	s.keys("Escape")
	// Let it refresh a while: at least 25 listings.
	for start := bf.listings.Load(); bf.listings.Load() < start+25; {
		s.waitUntil("another refresh", func(string) bool { return bf.listings.Load() >= start+25 })
	}
	hwm := procHWM(pid)
	listings, records := bf.listings.Load(), bf.records.Load()
	s.keys("q")
	s.waitFor("[exited 0]")
	if records > 8*listings {
		t.Errorf("%d record reads in %d refreshes: more than 8 a refresh", records, listings)
	}
	if hwm == 0 || hwm > topMemoryBound {
		t.Errorf("agsh's peak resident set %d MiB, over %d MiB (0: unknown)", hwm>>20, topMemoryBound>>20)
	}
	t.Logf("10,000 sessions: peak RSS %.1f MiB; %d listings, %d record reads (%.2f a refresh)", float64(hwm)/(1<<20), listings, records, float64(records)/float64(listings))
}

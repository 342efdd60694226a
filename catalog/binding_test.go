package catalog

import (
	"net/http"
	"reflect"
	"sort"
	"sync"
	"testing"
	"time"
)

func TestLatestSession(t *testing.T) {
	s := func(id, created, updated string) Session {
		return Session{SessionID: id, CreatedAt: created, UpdatedAt: updated}
	}
	tests := []struct {
		name string
		in   []Session
		want string // "" for nil
	}{
		{"empty", nil, ""},
		{"one", []Session{s("a", "", "")}, "a"},
		{"greatest updatedAt", []Session{
			s("a", "2026-11-29T10:00:00Z", "2026-11-29T10:05:00Z"),
			s("b", "2026-11-29T09:00:00Z", "2026-11-29T11:00:00Z"),
			s("c", "2026-11-29T12:00:00Z", "2026-11-29T10:30:00Z")}, "b"},
		{"createdAt when no updatedAt", []Session{
			s("a", "2026-11-29T10:00:00Z", ""),
			s("b", "2026-11-29T12:00:00Z", ""),
			s("c", "", "2026-11-29T11:00:00Z")}, "b"},
		{"tie: first listed", []Session{
			s("a", "", "2026-11-29T10:00:00Z"),
			s("b", "", "2026-11-29T10:00:00Z"),
			s("c", "", "2026-11-29T09:00:00Z")}, "a"},
		{"tie across offsets", []Session{
			s("a", "", "2026-11-29T12:00:00+02:00"),
			s("b", "", "2026-11-29T10:00:00Z")}, "a"},
		{"instant, not text", []Session{
			s("a", "", "2026-11-29T11:00:00+02:00"),
			s("b", "", "2026-11-29T10:00:00Z")}, "b"},
		{"fractions", []Session{
			s("a", "", "2026-11-29T10:00:00.5Z"),
			s("b", "", "2026-11-29T10:00:00.25Z")}, "a"},
		{"unparsable is oldest", []Session{
			s("a", "", "yesterday"),
			s("b", "", "2020-01-01T00:00:00Z")}, "b"},
		{"all unparsable: first", []Session{s("a", "", "x"), s("b", "", "")}, "a"},
	}
	for _, tt := range tests {
		got := LatestSession(tt.in)
		id := ""
		if got != nil {
			id = got.SessionID
		}
		if id != tt.want {
			t.Errorf("%s: latest = %q, want %q", tt.name, id, tt.want)
		}
	}
}

func TestSessionLine(t *testing.T) {
	tests := []struct {
		b      Binding
		answer string
		want   string
	}{
		{Binding{SessionID: "ses_a"}, "ses_b", "→ ses_b"},
		{Binding{SessionID: "ses_a"}, "", "→ ses_a"},
		{Binding{ContinuationToken: "http:7f3c"}, "", "→ http:7f3c"},
		{Binding{ContinuationToken: "http:7f3c"}, "ses_c", "→ ses_c"},
		{Binding{}, "", "→ no session (ephemeral workspace)"},
		{Binding{}, "ses_d", "→ ses_d"},
	}
	for _, tt := range tests {
		if got := SessionLine(tt.b, tt.answer); got != tt.want {
			t.Errorf("SessionLine(%+v, %q) = %q, want %q", tt.b, tt.answer, got, tt.want)
		}
	}
}

func TestBindingOf(t *testing.T) {
	if b := BindingOf(nil); !b.IsZero() {
		t.Errorf("nil → %+v", b)
	}
	if b := BindingOf(&Session{SessionID: "s", ContinuationToken: "t"}); b != (Binding{SessionID: "s"}) {
		t.Errorf("id → %+v", b)
	}
	if b := BindingOf(&Session{ContinuationToken: "t"}); b != (Binding{ContinuationToken: "t"}) {
		t.Errorf("token → %+v", b)
	}
}

// recorder records requests ("GET /path?query") and answers from a map.
type recorder struct {
	mu   sync.Mutex
	reqs []string
}

func (rc *recorder) add(r *http.Request) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	q := ""
	if r.URL.RawQuery != "" {
		q = "?" + r.URL.RawQuery
	}
	rc.reqs = append(rc.reqs, r.Method+" "+r.URL.Path+q)
}

func (rc *recorder) sorted() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := append([]string(nil), rc.reqs...)
	sort.Strings(out)
	return out
}

const sessionsBody = `{"ok":true,"sessions":[
	{"sessionId":"ses_old","updatedAt":"2026-11-29T10:00:00Z"},
	{"sessionId":"ses_new","updatedAt":"2026-11-29T11:00:00Z"}]}`

func TestBindExplicitAndDefault(t *testing.T) {
	var rec recorder
	sessions := sessionsBody
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		rec.add(r)
		writeJSON(w, 200, sessions)
	})
	ctx := ctxT(t)
	b, err := c.Bind(ctx, Binding{ContinuationToken: "http:1"})
	if err != nil || b != (Binding{ContinuationToken: "http:1"}) || len(rec.sorted()) != 0 {
		t.Fatalf("explicit: %+v %v %q", b, err, rec.sorted())
	}
	_, err = c.Bind(ctx, Binding{SessionID: "a", ContinuationToken: "b"})
	wantError(t, err, CodeUsage, ExitUsage, "a session id and a continuation token cannot be used together; pass only one")
	b, err = c.Bind(ctx, Binding{})
	if err != nil || b != (Binding{SessionID: "ses_new"}) {
		t.Fatalf("default: %+v %v", b, err)
	}
	sessions = `{"ok":true,"sessions":[]}`
	b, err = c.Bind(ctx, Binding{})
	if err != nil || !b.IsZero() {
		t.Fatalf("no session: %+v %v", b, err)
	}
}

// barrier makes the detail and the sessions requests wait for each other:
// they succeed only when both are in flight at once.
type barrier struct {
	wg   sync.WaitGroup
	done chan struct{}
}

func newBarrier(n int) *barrier {
	b := &barrier{done: make(chan struct{})}
	b.wg.Add(n)
	go func() { b.wg.Wait(); close(b.done) }()
	return b
}

// arrive reports whether every party arrived in time.
func (b *barrier) arrive() bool {
	b.wg.Done()
	select {
	case <-b.done:
		return true
	case <-time.After(5 * time.Second):
		return false
	}
}

func TestToolBound(t *testing.T) {
	const detail = `{"ok":true,"tool":{"name":"read"}}`
	const unknown = `{"ok":false,"error":"unknown_tool","available":["ls"]}`
	tests := []struct {
		name      string
		explicit  Binding
		sessions  string
		unbound   string // status:body of the unbound detail
		unboundSt int
		bound     int // status of the bound detail
		parallel  bool
		wantB     Binding
		wantErr   string
		wantReqs  []string
	}{
		{name: "default, found unbound", sessions: sessionsBody, unbound: detail, unboundSt: 200, parallel: true,
			wantB:    Binding{SessionID: "ses_new"},
			wantReqs: []string{"GET /v1/sessions", "GET /v1/tools/read"}},
		{name: "default, tenant tool", sessions: sessionsBody, unbound: unknown, unboundSt: 404, bound: 200, parallel: true,
			wantB:    Binding{SessionID: "ses_new"},
			wantReqs: []string{"GET /v1/sessions", "GET /v1/tools/read", "GET /v1/tools/read?sessionId=ses_new"}},
		{name: "default, unknown and no session", sessions: `{"ok":true,"sessions":[]}`, unbound: unknown, unboundSt: 404, parallel: true,
			wantErr:  CodeUnknownTool,
			wantReqs: []string{"GET /v1/sessions", "GET /v1/tools/read"}},
		{name: "default, unknown for the session too", sessions: sessionsBody, unbound: unknown, unboundSt: 404, bound: 404, parallel: true,
			wantB: Binding{SessionID: "ses_new"}, wantErr: CodeUnknownTool,
			wantReqs: []string{"GET /v1/sessions", "GET /v1/tools/read", "GET /v1/tools/read?sessionId=ses_new"}},
		{name: "default, other refusal: no bound fetch", sessions: sessionsBody, unbound: `{"ok":false,"error":"forbidden"}`, unboundSt: 403,
			wantErr: CodeForbidden},
		{name: "explicit session", explicit: Binding{SessionID: "ses_x"}, bound: 200, wantB: Binding{SessionID: "ses_x"},
			wantReqs: []string{"GET /v1/tools/read?sessionId=ses_x"}},
		{name: "explicit token", explicit: Binding{ContinuationToken: "http:7f"}, bound: 200, wantB: Binding{ContinuationToken: "http:7f"},
			wantReqs: []string{"GET /v1/tools/read?continuationToken=http%3A7f"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec recorder
			bar := newBarrier(2)
			c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
				rec.add(r)
				bound := r.URL.RawQuery != ""
				if tt.parallel && !bound && !bar.arrive() {
					writeJSON(w, 500, `{"ok":false,"error":"not_parallel"}`)
					return
				}
				switch {
				case r.URL.Path == "/v1/sessions":
					writeJSON(w, 200, tt.sessions)
				case bound && tt.bound == 200:
					writeJSON(w, 200, detail)
				case bound:
					writeJSON(w, tt.bound, unknown)
				default:
					writeJSON(w, tt.unboundSt, tt.unbound)
				}
			})
			d, b, err := c.ToolBound(ctxT(t), "read", tt.explicit)
			if tt.wantErr != "" {
				if e := asError(t, err); e.Code() != tt.wantErr {
					t.Errorf("error = %s %q, want %s", e.Code(), e, tt.wantErr)
				}
			} else if err != nil || d == nil || d.Name != "read" {
				t.Fatalf("detail = %+v, %v", d, err)
			}
			if b != tt.wantB {
				t.Errorf("binding = %+v, want %+v", b, tt.wantB)
			}
			if tt.wantReqs != nil && !reflect.DeepEqual(rec.sorted(), tt.wantReqs) {
				t.Errorf("requests = %q, want %q", rec.sorted(), tt.wantReqs)
			}
		})
	}
}

func TestToolsBoundParallel(t *testing.T) {
	var rec recorder
	bar := newBarrier(2)
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		rec.add(r)
		if !bar.arrive() {
			writeJSON(w, 500, `{"ok":false,"error":"not_parallel"}`)
			return
		}
		if r.URL.Path == "/v1/sessions" {
			writeJSON(w, 200, sessionsBody)
			return
		}
		writeJSON(w, 200, `{"ok":true,"tools":[{"name":"read"}]}`)
	})
	tools, b, err := c.ToolsBound(ctxT(t), Binding{})
	if err != nil || len(tools) != 1 || b != (Binding{SessionID: "ses_new"}) {
		t.Fatalf("tools = %+v, %+v, %v", tools, b, err)
	}
	if want := []string{"GET /v1/sessions", "GET /v1/tools"}; !reflect.DeepEqual(rec.sorted(), want) {
		t.Errorf("requests = %q, want %q", rec.sorted(), want)
	}
}

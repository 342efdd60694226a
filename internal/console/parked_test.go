package console

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
)

// recordClient serves events (one JSON object a line, indexes added) as a
// session's record.
func recordClient(t *testing.T, events ...string) *catalog.Client {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"ok":true,"events":[`)
	for i, e := range events {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"index":%d,"at":"2026-01-02T03:04:%02dZ",%s}`, i, i%60, e)
	}
	b.WriteString("]}")
	body := b.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c, err := catalog.New(srv.URL+"/executor", catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParkedCalls(t *testing.T) {
	start := func(turn, source string) string {
		return `"type":"turn.started","data":{"turnId":"` + turn + `","source":"` + source + `"}`
	}
	ask := func(call, turn string) string {
		tid := ""
		if turn != "" {
			tid = `,"turnId":"` + turn + `"`
		}
		return `"type":"approval.requested","data":{"callId":"` + call + `","toolName":"report_change_issue","input":{"title":"t"}` + tid + `}`
	}
	end := func(typ, turn string) string {
		return `"type":"` + typ + `","data":{"turnId":"` + turn + `","reason":"interrupted"}`
	}
	tests := []struct {
		name   string
		events []string
		want   string
	}{
		{"waiting", []string{start("t1", "message"), ask("c1", "t1")}, "c1"},
		{"resolved", []string{start("t1", "message"), ask("c1", "t1"), `"type":"approval.resolved","data":{"callId":"c1","decision":"deny"}`}, ""},
		{"ran", []string{start("t1", "message"), ask("c1", "t1"), `"type":"action.result","data":{"callId":"c1"}`}, ""},
		{"turn interrupted", []string{start("t1", "message"), ask("c1", "t1"), end("turn.failed", "t1")}, ""},
		{"a direct call beside it ends nothing", []string{start("t1", "message"), ask("c1", ""), start("d1", "direct"),
			end("turn.completed", "d1")}, "c1"},
		{"the turn is the running one without turnId", []string{start("t1", "message"), ask("c1", ""), end("turn.failed", "t1")}, ""},
		{"an end without turnId ends the model turn", []string{start("t1", "message"), ask("c1", ""), `"type":"turn.failed","data":{}`}, ""},
		{"two turns", []string{start("t1", "message"), ask("c1", "t1"), end("turn.failed", "t1"), start("t2", "follow-up"), ask("c2", "t2")}, "c2"},
		{"asked again", []string{start("t1", "message"), ask("c1", "t1"), ask("c2", "t1"), ask("c1", "t1")}, "c2 c1"},
		{"unknown types and odd data", []string{`"type":"x.y","data":[1]`, `"type":"approval.requested","data":"no"`, start("t1", "message"), ask("c1", "t1")}, "c1"},
	}
	for _, tt := range tests {
		ps, dropped, err := ParkedCalls(context.Background(), recordClient(t, tt.events...), "ses_1", nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var ids []string
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
		if got := strings.Join(ids, " "); got != tt.want || dropped != 0 {
			t.Errorf("%s: parked %q (dropped %d), want %q", tt.name, got, dropped, tt.want)
		}
	}
}

// A record asking for more approvals than MaxParked at once keeps the
// newest, counting the rest, in linear time.
func TestParkedCallsBounded(t *testing.T) {
	evs := []string{`"type":"turn.started","data":{"turnId":"t1","source":"message"}`}
	for i := 0; i < 3*MaxParked; i++ {
		evs = append(evs, fmt.Sprintf(`"type":"approval.requested","data":{"callId":"c%d","toolName":"x","input":{}}`, i))
	}
	ps, dropped, err := ParkedCalls(context.Background(), recordClient(t, evs...), "ses_1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != MaxParked || dropped != 2*MaxParked || ps[0].ID != fmt.Sprintf("c%d", 2*MaxParked) {
		t.Errorf("kept %d (first %s), dropped %d", len(ps), ps[0].ID, dropped)
	}
	if string(ps[0].Input) != "{}" || ps[0].At == "" || ps[0].TurnID != "t1" {
		t.Errorf("first kept: %+v", ps[0])
	}
}

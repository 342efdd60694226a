package console

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/render"
)

// A dry run's stub result (action.result with stubbed: true) is "call STUB"
// in :trace (paired with its call, or alone) and in :tail, never "call ok":
// the tool did not run.
func TestStubbedCall(t *testing.T) {
	t.Parallel()
	record := []string{
		ev(0, "turn.started", `{"turnId":"t1","source":"message"}`),
		ev(1, "actions.requested", `{"turnId":"t1","calls":[`+
			`{"callId":"call_aaaaaaaaaaaaaaaa","toolName":"read","input":{"path":"/a"}},`+
			`{"callId":"call_bbbbbbbbbbbbbbbb","toolName":"write","input":{"path":"/a"}}]}`),
		ev(2, "action.result", `{"callId":"call_aaaaaaaaaaaaaaaa","toolName":"read","isError":false,"result":"text","durationMs":3}`),
		ev(3, "action.result", `{"callId":"call_bbbbbbbbbbbbbbbb","toolName":"write","isError":false,"stubbed":true,"result":"(dry run) write was not run","durationMs":0}`),
		ev(4, "action.result", `{"callId":"call_cccccccccccccccc","toolName":"write","isError":true,"stubbed":true,"result":"x","durationMs":0}`),
		ev(5, "session.waiting", ``),
	}
	c := recordServer(t, record, nil)
	// :tail reads the first event, then the stream the rest, which stays
	// open (it ends after session.waiting).
	tc := recordServer(t, record[:1], func(w http.ResponseWriter, r *http.Request) {
		start, _ := strconv.Atoi(r.URL.Query().Get("startIndex"))
		for i := start; i < len(record); i++ {
			fmt.Fprintln(w, record[i])
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	has := func(out, id, event string) bool {
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, id) && strings.Contains(l, event) {
				return true
			}
		}
		return false
	}
	var trace strings.Builder
	var notes []string
	if err := Trace(context.Background(), env(c, &trace, render.Options{Width: 200}, &notes), "ses_1", TraceOptions{}); err != nil {
		t.Fatal(err)
	}
	var tail strings.Builder
	if err := Tail(context.Background(), env(tc, &tail, render.Options{Width: 200}, &notes), "ses_1", TailOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{":trace": trace.String(), ":tail": tail.String()} {
		if !has(out, "call_aaaaaaaaaaaaaaaa", "call ok") || has(out, "call_aaaaaaaaaaaaaaaa", "call STUB") {
			t.Errorf("%s: the read's row\n%s", name, out)
		}
		for _, id := range []string{"call_bbbbbbbbbbbbbbbb", "call_cccccccccccccccc"} {
			if !has(out, id, "call STUB") || has(out, id, "call ok") || has(out, id, "call ERROR") {
				t.Errorf("%s: %s is not a call STUB row alone\n%s", name, id, out)
			}
		}
	}
}

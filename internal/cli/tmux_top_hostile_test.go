package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// topHostile is what a hostile deployment puts in a session's title, its
// principal, its state, a tool's name and a call's arguments: a retitle, a
// clipboard write, a colour, BEL, a C1 CSI, bidi and zero-width characters.
var topHostile = struct{ title, principal, status, tool, arg string }{
	title:     "t \x1b]2;PWNED\x07 \u202eevil\u200b",
	principal: "p\x1b[31mRED",
	status:    "s\u009b2",
	tool:      "tool\x1b]52;c;aGk=\x07",
	arg:       "a\x1b]2;ARG\x07\u2066b",
}

// rawFromTop finds, in the bytes the pane received, what only the hostile
// deployment's text could have put there (the view's own sequences are none
// of these).
var rawFromTop = regexp.MustCompile("\x1b\\]2;|\x1b\\]52;|\x1b\\[31mRED|\a|\u009b|[\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff]")

// hostileTopServer is a deployment whose listing and records carry
// topHostile: ses_a parks a call of the hostile tool, ses_b has the hostile
// state.
func hostileTopServer(t *testing.T) string {
	t.Helper()
	at := func(i int) string {
		return time.Now().Add(time.Duration(i-60) * time.Second).UTC().Format(time.RFC3339Nano)
	}
	q := strconv.Quote
	input := `{"title":` + jsonString(topHostile.arg) + `,"` + "k\u202e" + `":1}`
	events := []string{
		fmt.Sprintf(`{"index":0,"type":"turn.started","data":{"turnId":"t1","source":"message","message":%s},"at":%q}`, jsonString(topHostile.title), at(0)),
		fmt.Sprintf(`{"index":1,"type":"approval.requested","data":{"callId":"call_1","toolName":%s,"input":%s},"at":%q}`, jsonString(topHostile.tool), input, at(1)),
	}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/h/v1/sessions":
			fmt.Fprintf(w, `{"ok":true,"sessions":[`+
				`{"sessionId":"ses_a","continuationToken":"tok_a","title":%s,"mode":"chat","status":"waiting_approval","running":true,"createdAt":%q,"updatedAt":%q,"principal":%s},`+
				`{"sessionId":"ses_b","continuationToken":"tok_b","title":%s,"mode":"chat","status":%s,"createdAt":%q,"updatedAt":%q,"principal":%s}]}`,
				jsonString(topHostile.title), at(0), at(1), jsonString(topHostile.principal),
				jsonString(topHostile.title), jsonString(topHostile.status), at(0), at(0), jsonString(topHostile.principal))
		case "/h/v1/session/ses_a/events", "/h/v1/session/ses_b/events":
			fmt.Fprintf(w, `{"ok":true,"events":[%s]}`, strings.Join(events, ","))
		case "/h/v1/session/ses_a/stream", "/h/v1/session/ses_b/stream":
			w.Header().Set("Content-Type", "application/x-ndjson")
			start, _ := strconv.Atoi(r.URL.Query().Get("startIndex"))
			for i := start; i < len(events); i++ {
				fmt.Fprintln(w, events[i])
			}
			w.(http.Flusher).Flush()
			mu.Unlock()
			<-r.Context().Done()
			mu.Lock()
		case "/h/v1/tools":
			fmt.Fprint(w, `{"ok":true,"tools":[]}`)
		case "/h/v1/info":
			fmt.Fprintf(w, `{"ok":true,"name":%s}`, q("hostile"))
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"ok":false,"error":"not_found","message":%s}`, q("no route "+r.URL.Path))
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/h"
}

// TestTopHostileInTmux: a hostile deployment's titles, principals, states,
// tool names and arguments reach the terminal escaped in :top's list, its
// approval question and the open record; every byte the pane received
// (pipe-pane) is scanned for the deployment's own sequences.
func TestTopHostileInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the runs through a real terminal")
	}
	requireTmux(t)
	target := hostileTopServer(t)
	s := startTmuxLineSize(t, 200, 50, []string{"AGENT_SHELL_TARGET=" + target, "HOME=" + t.TempDir()}, `"$AGSH" :top --interval 300ms`)
	raw := filepath.Join(t.TempDir(), "pane.raw")
	s.tmux("pipe-pane", "-o", "-t", s.name, "cat >> "+raw)
	s.keys("r") // a redraw after the pipe is open
	scr := s.waitUntil("both hostile rows", func(scr string) bool { return len(listRows(scr)) == 2 })
	for _, want := range []string{`t \x1b]2;PWNED\x07 \u202eevil\u200b`, `p\x1b[31mRED`, `s\u009b2`, `tool\x1b]52;c;aGk=\x07`} {
		if !strings.Contains(scr, want) {
			t.Errorf("the list lacks the escaped %s:\n%s", want, scr)
		}
	}
	s.keys("a")
	scr = s.waitFor("Approve? [y/N]")
	if q := squeeze(scr); !strings.Contains(q, squeeze(`(tool\x1b]52;c;aGk=\x07) of session ses_a`)) || !strings.Contains(q, `a\u001b]2;ARG\u0007\u2066b`) {
		t.Errorf("the question lacks the escaped tool or argument:\n%s", scr)
	}
	s.keys("Escape")
	s.waitFor("nothing was sent")
	s.keys("Enter")
	s.waitFor("record of ses_a")
	s.waitFor(`\x1b]52;c;aGk=`)
	s.keys("q")
	s.waitFor("[exited 0]")
	out, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("the pane's bytes were not captured")
	}
	if found := rawFromTop.FindString(string(out)); found != "" {
		t.Errorf("raw %q reached the terminal:\n%q", found, out)
	}
}

package catalog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// collect reads the record of ses_1 from a server answering body (status
// 200) and returns the indexes and types read, and the notes.
func collect(t *testing.T, h http.HandlerFunc) (got []string, notes []string, err error) {
	t.Helper()
	c, _ := serve(t, "/agent", h)
	err = c.Record(ctxT(t), "ses_1", func(ev *Event) error {
		got = append(got, strconv.FormatInt(ev.Index, 10)+":"+ev.Type)
		return nil
	}, func(s string) { notes = append(notes, s) })
	return got, notes, err
}

func recordAnswer(status int, ctype, text string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/agent/v1/session/ses_1/events" {
			http.Error(w, "wrong path "+r.URL.Path, 500)
			return
		}
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, text)
	}
}

func TestRecordForms(t *testing.T) {
	t.Parallel()
	ev := func(i int, typ string) string {
		return fmt.Sprintf(`{"index":%d,"type":%q,"data":{},"at":"2026-01-01T00:00:00Z"}`, i, typ)
	}
	tests := []struct {
		name, body string
		want       string
		notes      string
	}{
		{"envelope", `{"ok":true,"sessionId":"ses_1","events":[` + ev(0, "turn.started") + `,` + ev(1, "x.y") + `],"nextIndex":2}`,
			"0:turn.started 1:x.y", ""},
		{"envelope, events last", `{"nextIndex":2, "ok" : true ,"events" : [ ` + ev(0, "a") + ` ] }`, "0:a", ""},
		{"envelope, empty", `{"ok":true,"events":[]}`, "", ""},
		{"bare array", `[` + ev(0, "a") + "," + ev(2, "b") + `]`, "0:a 2:b", ""},
		{"ndjson", ev(0, "a") + "\n" + ev(1, "b") + "\r\n\n" + ev(2, "c"), "0:a 1:b 2:c", ""},
		{"ndjson with a bom and blank lines", "\xef\xbb\xbf\n\n" + ev(0, "a") + "\n", "0:a", ""},
		{"ndjson, type first", `{"type":"a","index":0}` + "\n" + `{"type":"b","index":1}`, "0:a 1:b", ""},
		{"ndjson, invalid lines", ev(0, "a") + "\nnot json\n{\"index\":1,\n" + ev(1, "b") + "\n",
			"0:a 1:b", `line 2 is not a JSON event object; skipped: "not json"|line 3 is not a JSON event object; skipped: "{\"index\":1,"`},
		{"ndjson, backwards and repeats", ev(0, "a") + "\n" + ev(3, "b") + "\n" + ev(3, "dup") + "\n" + ev(1, "old") + "\n" + ev(4, "c"),
			"0:a 3:b 4:c",
			`event 3 (type "dup") came after event 3: its index repeats or goes backwards; skipped|` +
				`event 1 (type "old") came after event 3: its index repeats or goes backwards; skipped`},
		{"no index", `{"type":"a"}` + "\n" + ev(0, "b"), "0:b", `line 1 (type "a") has no index; skipped`},
		{"empty body", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, notes, err := collect(t, recordAnswer(200, "application/json", tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("events %q, want %q", g, tt.want)
			}
			if n := strings.Join(notes, "|"); n != tt.notes {
				t.Errorf("notes\n%s\nwant\n%s", n, tt.notes)
			}
		})
	}
}

func TestRecordRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		h    http.HandlerFunc
		code string
		exit int
		text string
	}{
		{"404 not the envelope", recordAnswer(404, "text/html", "<h1>Not Found</h1>"), CodeNoRecords, ExitRefused,
			"this deployment does not expose session records (GET /v1/session/ses_1/events answered 404)"},
		{"404 not_found envelope", recordAnswer(404, "application/json", `{"ok":false,"error":"not_found","message":"no route"}`),
			CodeNoRecords, ExitRefused, "this deployment does not expose session records (GET /v1/session/ses_1/events answered 404)"},
		{"unknown session", recordAnswer(404, "application/json", `{"ok":false,"error":"unknown_session","message":"no session ses_1"}`),
			CodeUnknownSession, ExitRefused, "the deployment does not know session ses_1: no session ses_1"},
		{"forbidden", recordAnswer(403, "application/json", `{"ok":false,"error":"forbidden","message":"not yours"}`),
			CodeForbidden, ExitAuth, "not allowed (HTTP 403): not yours (credential from the bearer token); a session belongs to the principal that created it, and a loopback-only server refuses other hosts"},
		{"403 bare", recordAnswer(403, "text/plain", "no"), CodeForbidden, ExitAuth, ""},
		{"refusal in a 200", recordAnswer(200, "application/json", `{"ok":false,"error":"session_busy","message":"busy"}`),
			CodeSessionBusy, ExitRefused, ""},
		{"no events field", recordAnswer(200, "application/json", `{"ok":true,"records":[]}`), CodeBadResponse, ExitUnreachable,
			`deployment answered GET /v1/session/ses_1/events without the "events" field; is the target an agent-sdk deployment?`},
		{"malformed envelope", recordAnswer(200, "application/json", `{"ok":true,"events":[{"index":0,"type":"a"} {"index":1}]}`),
			CodeBadResponse, ExitUnreachable, ""},
		{"cut envelope", recordAnswer(200, "application/json", `{"ok":true,"events":[{"index":0,"type":"a"},{"ind`),
			CodeUnreachable, ExitUnreachable, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, _ := serve(t, "/agent", tt.h)
			c.opts.CredentialSource = "the bearer token"
			err := c.Record(ctxT(t), "ses_1", func(*Event) error { return nil }, nil)
			e := wantError(t, err, tt.code, tt.exit, tt.text)
			if strings.Contains(e.Error(), testToken) {
				t.Errorf("the token in %q", e)
			}
		})
	}
}

// An event larger than the bound is skipped with a note naming it; one
// just within is read.
func TestRecordEventBound(t *testing.T) {
	t.Parallel()
	big := func(i int, n int) string {
		return fmt.Sprintf(`{"index":%d,"type":"action.result","data":{"result":"%s"}}`, i, strings.Repeat("x", n))
	}
	over := MaxEventBytes - len(big(1, 0)) + 1 // the line is one byte past the bound
	for _, form := range []string{"ndjson", "envelope"} {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			var text string
			if form == "ndjson" {
				text = big(0, 10) + "\n" + big(1, over) + "\n" + big(2, over-1) + "\n"
			} else {
				text = `{"ok":true,"events":[` + big(0, 10) + "," + big(1, over) + "," + big(2, over-1) + "]}"
			}
			got, notes, err := collect(t, recordAnswer(200, "application/json", text))
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, " "); g != "0:action.result 2:action.result" {
				t.Errorf("events %q", g)
			}
			want := `event 1 (type "action.result") is 8388609 bytes, more than agsh's bound of 8 MiB for one event; skipped`
			if len(notes) != 1 || notes[0] != want {
				t.Errorf("notes %q, want %q", notes, want)
			}
		})
	}
}

// endlessX writes one line that never ends (or ends past the skip bound).
type endlessX struct{ n int64 }

var xs = bytes.Repeat([]byte("x"), 64<<10)

func (e *endlessX) Read(p []byte) (int, error) {
	if e.n <= 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(int64(len(p)), e.n)], xs)
	e.n -= int64(n)
	return n, nil
}

func TestRecordEndlessLine(t *testing.T) {
	t.Parallel()
	c, _ := serve(t, "/agent", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"index":0,"type":"a"}`+"\n"+`{"index":1,"type":"huge","data":"`)
		_, _ = io.Copy(w, &endlessX{n: 1 << 40})
	})
	c.opts.HeaderTimeout = time.Minute // no pause: the line is endless, not slow
	c.maxSkip = 64 << 20
	var n int
	err := c.Record(ctxT(t), "ses_1", func(*Event) error { n++; return nil }, nil)
	wantError(t, err, CodeBadResponse, ExitUnreachable,
		"the answer to GET /v1/session/ses_1/events has a line of more than 64 MiB without a line break; agsh stopped reading it after event 0")
	if n != 1 {
		t.Errorf("%d events", n)
	}
}

// A body that trickles is read as it comes and ends at once on cancel.
func TestRecordTrickleCancel(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	c, _ := serve(t, "/agent", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		for i := 0; ; i++ {
			select {
			case <-r.Context().Done():
				return
			case <-release:
				return
			case <-time.After(20 * time.Millisecond):
			}
			_, _ = fmt.Fprintf(w, `{"index":%d,"type":"t"}`+"\n", i)
			w.(http.Flusher).Flush()
		}
	})
	defer close(release)
	c.opts.HeaderTimeout = time.Minute
	ctx, cancel := context.WithCancel(ctxT(t))
	n := 0
	err := c.Follow(ctx, "ses_1", 0, func(*Event) error {
		if n++; n == 3 {
			cancel()
		}
		return nil
	}, nil)
	wantError(t, err, CodeInterrupted, ExitInterrupted, "")
	if n < 3 {
		t.Errorf("%d events before the cancel", n)
	}
}

func TestFollowStartIndex(t *testing.T) {
	t.Parallel()
	c, _ := serve(t, "/agent", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/agent/v1/session/ses_1/stream" || r.URL.Query().Get("startIndex") != "5" {
			http.Error(w, "bad "+r.URL.String(), 500)
			return
		}
		// A deployment that replays from 0 whatever was asked: the events
		// before 5 are not handed out again.
		for i := 0; i < 8; i++ {
			_, _ = fmt.Fprintf(w, `{"index":%d,"type":"t"}`+"\n", i)
		}
	})
	var got []int64
	var notes []string
	err := c.Follow(ctxT(t), "ses_1", 5, func(ev *Event) error { got = append(got, ev.Index); return nil },
		func(s string) { notes = append(notes, s) })
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[5 6 7]" {
		t.Errorf("got %v", got)
	}
	if len(notes) != 1 || notes[0] != "the deployment sent 5 events before the index asked for; skipped (shown already)" {
		t.Errorf("notes %q", notes)
	}
}

// Notes of one kind stop after a few; their count comes last.
func TestRecordNotesBounded(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"index":100,"type":"t"}` + "\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, `{"index":%d,"type":"t"}`+"\n", i)
	}
	_, notes, err := collect(t, recordAnswer(200, "", b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != maxNotesOfKind+1 || notes[len(notes)-1] != "96 more events skipped for the same reason (index repeated or going backwards)" {
		t.Errorf("notes %q", notes)
	}
}

// each's error stops the read and comes back as it is.
func TestRecordStop(t *testing.T) {
	t.Parallel()
	stop := errors.New("stop")
	c, _ := serve(t, "/agent", recordAnswer(200, "", `{"index":0,"type":"a"}`+"\n"+`{"index":1,"type":"b"}`))
	n := 0
	err := c.Record(ctxT(t), "ses_1", func(*Event) error { n++; return stop }, nil)
	if err != stop || n != 1 {
		t.Fatalf("%v after %d", err, n)
	}
}

func TestRecordBadSessionID(t *testing.T) {
	t.Parallel()
	c, _ := serve(t, "", recordAnswer(200, "", ""))
	err := c.Record(ctxT(t), "../x", func(*Event) error { return nil }, nil)
	wantError(t, err, CodeUsage, ExitUsage, `"../x" is not a session id`)
}

// A stream left early (each's error) is closed, not read to its end: a
// live stream never ends by itself.
func TestFollowStopsOpenStream(t *testing.T) {
	t.Parallel()
	c, _ := serve(t, "/agent", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"index":0,"type":"a"}`+"\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	c.opts.HeaderTimeout = time.Hour
	stop := errors.New("stop")
	done := make(chan error, 1)
	go func() { done <- c.Follow(ctxT(t), "ses_1", 0, func(*Event) error { return stop }, nil) }()
	select {
	case err := <-done:
		if err != stop {
			t.Fatalf("err %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Follow did not return after each stopped it")
	}
}

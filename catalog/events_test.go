package catalog

import (
	"net/http"
	"strings"
	"testing"
)

func TestParseEvent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw     string
		ok, hasIndex  bool
		index         int64
		typ, at, data string
	}{
		{"whole", `{"index":3,"type":"turn.started","data":{"turnId":"t1"},"at":"2026-01-02T03:04:05Z"}`,
			true, true, 3, "turn.started", "2026-01-02T03:04:05Z", `{"turnId":"t1"}`},
		{"spaces and order", ` { "at" : "x", "data":{} , "type":"a.b", "index": 0 } `,
			true, true, 0, "a.b", "x", `{}`},
		{"unknown fields kept", `{"index":1,"type":"x.y","extra":[1,2,{"z":null}],"data":{"q":1}}`,
			true, true, 1, "x.y", "", `{"q":1}`},
		{"index not a whole number", `{"index":1.5,"type":"t"}`, true, false, 0, "t", "", ""},
		{"negative index", `{"index":-1,"type":"t"}`, true, false, 0, "t", "", ""},
		{"index a string", `{"index":"1","type":"t"}`, true, false, 0, "t", "", ""},
		{"type a number", `{"index":1,"type":7}`, true, true, 1, "", "", ""},
		{"data not an object", `{"index":1,"type":"t","data":"text"}`, true, true, 1, "t", "", ""},
		{"escaped type", `{"index":1,"type":"turn.\u0073tarted"}`, true, true, 1, "turn.started", "", ""},
		{"not an object", `[1,2]`, false, false, 0, "", "", ""},
		{"trailing garbage", `{"index":1} x`, false, false, 0, "", "", ""},
		{"invalid", `{"index":1,`, false, false, 0, "", "", ""},
		{"empty", ``, false, false, 0, "", "", ""},
	}
	for _, tt := range tests {
		ev, ok := ParseEvent([]byte(tt.raw))
		if ok != tt.ok {
			t.Errorf("%s: ok = %v, want %v", tt.name, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if ev.HasIndex != tt.hasIndex || ev.Index != tt.index || ev.Type != tt.typ || ev.At != tt.at || string(ev.Data) != tt.data {
			t.Errorf("%s: got %+v", tt.name, ev)
		}
		if string(ev.Raw) != strings.TrimSpace(tt.raw) {
			t.Errorf("%s: raw %q", tt.name, ev.Raw)
		}
	}
}

func TestEventFields(t *testing.T) {
	t.Parallel()
	ev, ok := ParseEvent([]byte(`{"index":4,"type":"actions.requested","data":{"turnId":"t1","calls":[` +
		`{"callId":"c1","toolName":"read","input":{"path":"/repo/a"}},` +
		`"junk",` +
		`{"callId":"c2","toolName":7,"input":null,"inputTruncated":true}]}}`))
	if !ok {
		t.Fatal("not parsed")
	}
	d := ev.Fields()
	if d.TurnID != "t1" || len(d.Calls) != 2 {
		t.Fatalf("fields %+v", d)
	}
	if c := d.Calls[0]; c.CallID != "c1" || c.ToolName != "read" || string(c.Input) != `{"path":"/repo/a"}` {
		t.Errorf("call 0 %+v", c)
	}
	if c := d.Calls[1]; c.CallID != "c2" || c.ToolName != "" || string(c.Input) != "null" || !c.InputTruncated {
		t.Errorf("call 1 %+v", c)
	}
	ev, _ = ParseEvent([]byte(`{"index":5,"type":"action.result","data":{"callId":"c1","toolName":"read",` +
		`"isError":"yes","result":"hi\nthere","durationMs":12,"position":"x"}}`))
	d = ev.Fields()
	if d.CallID != "c1" || d.IsError || string(d.Result) != `"hi\nthere"` || d.DurationMs != "12" || d.Position != "" {
		t.Errorf("result fields %+v", d)
	}
	if n, ok := Int(d.DurationMs); !ok || n != 12 {
		t.Errorf("Int(%q) = %d, %v", d.DurationMs, n, ok)
	}
}

func TestSessionIDOK(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"ses_0123abcd", "http:abc123", "a-b_c.d~e", "sess-ünïcode"} {
		if _, ok := SessionIDOK(s); !ok {
			t.Errorf("%q refused", s)
		}
	}
	for _, s := range []string{"", " ", ".", "..", "a/b", "a b", "a?b", "a#b", `a\b`, "a\x1bb", "a\u202eb",
		"a\u200bb", "a\u2028b", strings.Repeat("x", 513), "\xff"} {
		if _, ok := SessionIDOK(s); ok {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestParseSessionOperand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, id, host string
		url          bool
		err          string
	}{
		{in: "ses_0123", id: "ses_0123"},
		{in: "  http:abc  ", id: "http:abc"},
		{in: "http://127.0.0.1:39400/executor/v1/session/ses_42/events", id: "ses_42", url: true, host: "127.0.0.1"},
		{in: "https://app.example.com/agents/x/playground?sessionId=ses_7&tab=trace", id: "ses_7", url: true, host: "app.example.com"},
		{in: "https://app.example.com/p#/sessions/ses_9", id: "ses_9", url: true, host: "app.example.com"},
		{in: "https://app.example.com/p#/view?session=ses_8", id: "ses_8", url: true, host: "app.example.com"},
		{in: "https://app.example.com/sessions/ses%5F1", id: "ses_1", url: true, host: "app.example.com"},
		// The credential of a pasted URL is never quoted, and nothing is sent there.
		{in: "https://user:hunter2@evil.example/x/v1/session/ses_5/events?token=t0ps3cret", id: "ses_5", url: true, host: "evil.example"},
		{in: "https://user:hunter2@evil.example/nothing-here?token=t0ps3cret#frag",
			err: `no session id in the pasted URL "https://evil.example/nothing-here"; pass the session id (:sessions lists them)`},
		{in: "file:///etc/passwd", err: "the pasted URL is not an http:// or https:// URL with a host; pass the session id (:sessions lists them)"},
		{in: "javascript://x/%0aalert(1)", err: "the pasted URL is not an http:// or https:// URL with a host; pass the session id (:sessions lists them)"},
		{in: "https://h/v1/session/..%2F..%2Fadmin/events", err: `no session id in the pasted URL "https://h/v1/session/..%2F..%2Fadmin/events"; pass the session id (:sessions lists them)`},
		{in: "https://h/v1/session/%E2%80%AEevil/events", err: `no session id in the pasted URL "https://h/v1/session/%E2%80%AEevil/events"; pass the session id (:sessions lists them)`},
		{in: "https://h/sessions/ses_1?sessionId=a%2Fb", err: `no session id in the pasted URL "https://h/sessions/ses_1"; pass the session id (:sessions lists them)`},
		{in: "ses 1", err: `"ses 1" is not a session id, a continuation token or a pasted URL`},
		{in: "../admin", err: `"../admin" is not a session id, a continuation token or a pasted URL`},
		{in: "", err: `"" is not a session id, a continuation token or a pasted URL`},
	}
	for _, tt := range tests {
		op, err := ParseSessionOperand(tt.in)
		if tt.err != "" {
			if err == nil {
				t.Errorf("%q: got %+v, want error %q", tt.in, op, tt.err)
				continue
			}
			e := wantError(t, err, CodeUsage, ExitUsage, tt.err)
			if strings.Contains(e.Error(), "hunter2") || strings.Contains(e.Error(), "t0ps3cret") {
				t.Errorf("%q: the message quotes a credential: %s", tt.in, e)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if op.Text != tt.id || op.FromURL != tt.url || op.Host != tt.host {
			t.Errorf("%q: got %+v", tt.in, op)
		}
	}
}

func TestResolveSession(t *testing.T) {
	t.Parallel()
	sessions := `{"ok":true,"sessions":[` +
		`{"sessionId":"ses_old","continuationToken":"http:old","updatedAt":"2026-01-01T00:00:00Z"},` +
		`{"sessionId":"ses_new","continuationToken":"http:new","updatedAt":"2026-01-02T00:00:00Z"}]}`
	var asked counter
	c, srv := serve(t, "/agent", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/agent/v1/sessions" {
			http.Error(w, "unexpected "+r.URL.Path, 500)
			return
		}
		asked.inc()
		writeJSON(w, 200, sessions)
	})
	ctx := ctxT(t)
	for _, tt := range []struct{ in, id string }{
		{"ses_old", "ses_old"}, {"http:new", "ses_new"}, {"ses_unknown", "ses_unknown"},
		{"ses_o", "ses_old"}, {"ses_ne", "ses_new"}, // unique prefixes
	} {
		op, _ := ParseSessionOperand(tt.in)
		ch, err := c.ResolveSession(ctx, op)
		if err != nil || ch.ID != tt.id || ch.Note != "" {
			t.Errorf("%s: %+v, %v", tt.in, ch, err)
		}
	}
	// An ambiguous prefix is a usage error naming the candidates.
	op, _ := ParseSessionOperand("ses_")
	_, err := c.ResolveSession(ctx, op)
	wantError(t, err, CodeUsage, ExitUsage, `session id prefix "ses_" is ambiguous: it begins 2 session ids (ses_old, ses_new); give more of the id`)
	// A pasted URL asks nothing; another host gets a note.
	n := asked.get()
	op, _ = ParseSessionOperand(srv.URL + "/agent/v1/session/ses_x/events")
	ch, err := c.ResolveSession(ctx, op)
	if err != nil || ch.ID != "ses_x" || ch.Note != "" {
		t.Errorf("same host: %+v, %v", ch, err)
	}
	op, _ = ParseSessionOperand("https://user:pw@elsewhere.example/v1/session/ses_y/events")
	ch, err = c.ResolveSession(ctx, op)
	if err != nil || ch.ID != "ses_y" || ch.Note != "note: the pasted URL names host elsewhere.example; agsh reads session ses_y from its target, "+
		srv.URL+"/agent, and sends nothing to that host" {
		t.Errorf("other host: %+v, %v", ch, err)
	}
	if asked.get() != n {
		t.Errorf("a pasted URL asked the deployment")
	}
	for _, tt := range []struct {
		b      Binding
		id     string
		latest bool
	}{{Binding{}, "ses_new", true}, {Binding{SessionID: "ses_old"}, "ses_old", false}, {Binding{ContinuationToken: "http:old"}, "ses_old", false}} {
		ch, err := c.BoundSession(ctx, tt.b)
		if err != nil || ch.ID != tt.id || ch.Latest != tt.latest {
			t.Errorf("%+v: %+v, %v", tt.b, ch, err)
		}
	}
	sessions = `{"ok":true,"sessions":[]}`
	_, err = c.BoundSession(ctx, Binding{})
	wantError(t, err, CodeNoSession, ExitRefused, "no session to read: the deployment lists none; pass a session id")
}

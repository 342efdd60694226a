package catalog

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestNewTargets(t *testing.T) {
	tests := []struct {
		target, display, err string
	}{
		{"http://127.0.0.1:39400/executor", "http://127.0.0.1:39400/executor", ""},
		{"http://127.0.0.1:39400/executor/", "http://127.0.0.1:39400/executor", ""},
		{"https://user:pw@example.com/a//", "https://example.com/a", ""},
		{"http://127.0.0.1:3000", "http://127.0.0.1:3000", ""},
		{"ftp://x/y", "", "target ftp://x/y is not an http:// or https:// URL"},
		{"http://u:p@/nohost", "", `target "http:///nohost" has no host; expected http://host:port/<agent>`},
		{"http://us:pw@[::1", "", `target "http://[::1" is not a valid URL`},
	}
	for _, tt := range tests {
		c, err := New(tt.target, Options{})
		if tt.err != "" {
			wantError(t, err, CodeUsage, ExitUsage, tt.err)
			continue
		}
		if err != nil {
			t.Fatalf("New(%q): %v", tt.target, err)
		}
		if c.Target() != tt.display {
			t.Errorf("New(%q).Target() = %q, want %q", tt.target, c.Target(), tt.display)
		}
	}
}

func TestRequestsCarryHeadersQueryAndEscapedName(t *testing.T) {
	var got []string
	_, srv := serve(t, "/exec", func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.URL.EscapedPath()+"?"+r.URL.RawQuery+" "+
			r.Header.Get("Authorization")+" "+r.Header.Get("User-Agent"))
		if r.Method == http.MethodPost {
			b, _ := io.ReadAll(r.Body)
			got = append(got, string(b)+" "+r.Header.Get("Content-Type"))
			writeJSON(w, 200, `{"ok":true,"toolName":"a/b c","callId":"c1","isError":false,"result":"x"}`)
			return
		}
		writeJSON(w, 200, `{"ok":true,"tool":{"name":"a/b c"}}`)
	})
	opts := fastOptions()
	opts.UserAgent = "agsh/test"
	opts.Query = map[string][]string{"teamId": {"42"}}
	c, err := New(srv.URL+"/exec/", opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t)
	if _, err := c.Tool(ctx, "a/b c", Binding{SessionID: "ses_1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(ctx, "a/b c", json.RawMessage(`{"q":"<&>"}`), Binding{ContinuationToken: "http:7f"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(ctx, "a/b c", nil, Binding{}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"GET /exec/v1/tools/a%2Fb%20c?sessionId=ses_1&teamId=42 Bearer " + testToken + " agsh/test",
		"POST /exec/v1/tools/a%2Fb%20c?teamId=42 Bearer " + testToken + " agsh/test",
		`{"input":{"q":"<&>"},"continuationToken":"http:7f"}` + " application/json",
		"POST /exec/v1/tools/a%2Fb%20c?teamId=42 Bearer " + testToken + " agsh/test",
		`{"input":{}}` + " application/json",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("requests:\n%q\nwant\n%q", got, want)
	}
}

func TestToolsTolerantDecoding(t *testing.T) {
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"tools":[
			{"name":"read","title":"Read a file","source":{"kind":"authored"},"extra":[1,2]},
			{"name":"report_change_issue"},
			{"name":"datadog_list_monitors","source":"datadog"},
			{"name":"gh","source":{"connection":"planner-tools"}},
			{"name":"x","source":null},
			{"title":"No name"},
			{"name":"","source":"ghost"}
		],"next":null,"unknown":{"a":1}}`)
	})
	got, err := c.Tools(ctxT(t), Binding{})
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolEntry{
		{Name: "read", Title: "Read a file", Source: Source{Kind: "authored"}},
		{Name: "report_change_issue", Source: Source{}},
		{Name: "datadog_list_monitors", Source: Source{Kind: "connection", Connection: "datadog"}},
		{Name: "gh", Source: Source{Kind: "connection", Connection: "planner-tools"}},
		{Name: "x", Source: Source{Kind: "authored"}},
	}
	// An entry without a name names no command: it is left out.
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tools:\n%+v\nwant\n%+v", got, want)
	}
	if !got[1].Source.Authored() || got[2].Source.Group() != "datadog" {
		t.Errorf("missing source must be authored, string source a group")
	}
}

func TestCallKeepsBigNumbersAndRawResult(t *testing.T) {
	body := `{"ok":true,"toolName":"read","callId":"call_1","isError":false,` +
		`"result":{"big":12345678901234567890123,"dec":0.1000000000000000055511151231257827,"s":"é\u0000"},` +
		`"durationMs":9007199254740993,"sessionId":"ses_9","scratchWorkspace":true,"newField":"ignored"}`
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, body) })
	res, err := c.Call(ctxT(t), "read", json.RawMessage(`{"n":12345678901234567890123}`), Binding{})
	if err != nil {
		t.Fatal(err)
	}
	wantResult := `{"big":12345678901234567890123,"dec":0.1000000000000000055511151231257827,"s":"é\u0000"}`
	if string(res.Result) != wantResult {
		t.Errorf("result = %s, want %s", res.Result, wantResult)
	}
	if res.DurationMs != "9007199254740993" || res.SessionID != "ses_9" || !res.ScratchWorkspace || !res.OK ||
		res.CallID != "call_1" {
		t.Errorf("call result = %+v", res)
	}
}

func TestCallWithoutOKAndResult(t *testing.T) {
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"toolName":"noop","callId":"c","isError":true}`)
	})
	res, err := c.Call(ctxT(t), "noop", nil, Binding{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || res.Result != nil || res.ToolName != "noop" {
		t.Errorf("result = %+v", res)
	}
}

func TestInfoSessionsAgents(t *testing.T) {
	c, _ := serve(t, "/planner", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/planner/v1/info":
			writeJSON(w, 200, `{"ok":true,"name":"planner","description":"Plans.","tools":[{"name":"read","effect":"read"}]}`)
		case "/planner/v1/sessions":
			writeJSON(w, 200, `{"ok":true,"sessions":[{"sessionId":"ses_1","queued":true,"extra":1}]}`)
		case "/v1/agents":
			writeJSON(w, 200, `{"ok":true,"agents":[{"slug":"planner","url":"http://u:p@h/planner"},{"slug":"ex ec"}]}`)
		default:
			http.NotFound(w, r)
		}
	})
	ctx := ctxT(t)
	info, err := c.Info(ctx)
	if err != nil || info.Name != "planner" || info.Description != "Plans." || info.Tools[0].Effect != "read" {
		t.Fatalf("info = %+v, %v", info, err)
	}
	ss, err := c.Sessions(ctx)
	if err != nil || len(ss) != 1 || ss[0].SessionID != "ses_1" || !ss[0].Queued {
		t.Fatalf("sessions = %+v, %v", ss, err)
	}
	agents, err := c.Agents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimSuffix(c.Target(), "/planner")
	want := []Agent{{Slug: "planner", URL: "http://h/planner"}, {Slug: "ex ec", URL: host + "/ex%20ec"}}
	if !reflect.DeepEqual(agents, want) {
		t.Errorf("agents = %+v, want %+v", agents, want)
	}
}

func TestMissingPayloadField(t *testing.T) {
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, `{"ok":true}`) })
	ctx := ctxT(t)
	_, err := c.Tools(ctx, Binding{})
	wantError(t, err, CodeBadResponse, ExitUnreachable,
		`deployment answered GET /v1/tools without the "tools" field; is the target an agent-sdk deployment?`)
	_, err = c.Tool(ctx, "read", Binding{})
	wantError(t, err, CodeBadResponse, ExitUnreachable,
		`deployment answered GET /v1/tools/read without the "tool" field; is the target an agent-sdk deployment?`)
	_, err = c.Sessions(ctx)
	wantError(t, err, CodeBadResponse, ExitUnreachable,
		`deployment answered GET /v1/sessions without the "sessions" field; is the target an agent-sdk deployment?`)
}

func TestUsageErrorsBeforeAnyRequest(t *testing.T) {
	var n counter
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) { n.inc() })
	ctx := ctxT(t)
	_, err := c.Call(ctx, "read", nil, Binding{SessionID: "s", ContinuationToken: "t"})
	wantError(t, err, CodeUsage, ExitUsage, "a session id and a continuation token cannot be used together; pass only one")
	_, err = c.Call(ctx, "read", json.RawMessage(`{"a":`), Binding{})
	wantError(t, err, CodeUsage, ExitUsage, "")
	_, err = c.Tool(ctx, "", Binding{})
	wantError(t, err, CodeUsage, ExitUsage, "no tool name given")
	if n.get() != 0 {
		t.Errorf("%d requests sent, want 0", n.get())
	}
}

package catalog

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func TestMalformedAnswers(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		code    string
		exit    int
		text    string
	}{
		{"truncated", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"ok":true,"tools":[{"name":"re`))
		}, CodeBadResponse, ExitUnreachable,
			"the answer to GET /v1/tools was cut short after 31 bytes of 100 (unexpected EOF)"},
		{"html 200", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte("<!doctype html>\n<html><head><title>Login</title></head><body>\x1b[31mplease sign in to continue</body></html>"))
		}, CodeBadResponse, ExitUnreachable,
			`deployment answered GET /v1/tools with 200 OK (text/html), not the expected JSON: "<!doctype html>\n<html><head><title>Login</title></head><body>\x1b[3…"`},
		{"empty 200", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
		}, CodeBadResponse, ExitUnreachable,
			`deployment answered GET /v1/tools with 200 OK and an empty body`},
		{"wrong shape", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"ok":true,"tools":"read,write"}`)
		}, CodeBadResponse, ExitUnreachable,
			`deployment answered GET /v1/tools with an unexpected shape (tools is a JSON string): "{\"ok\":true,\"tools\":\"read,write\"}"`},
		{"refusal on 200", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"ok":false,"error":"quota_exceeded","message":"monthly quota reached"}`)
		}, "quota_exceeded", ExitUnreachable, "quota_exceeded: monthly quota reached"},
		{"html 500", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(500)
			_, _ = w.Write([]byte("<h1>Internal Server Error</h1>"))
		}, CodeBadResponse, ExitUnreachable,
			`deployment answered GET /v1/tools with 500 Internal Server Error (text/html): "<h1>Internal Server Error</h1>"`},
		{"plain 405", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(405)
		}, CodeBadResponse, ExitRefused,
			`deployment answered GET /v1/tools with 405 Method Not Allowed (no content type): ""`},
		{"plain 401", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(401)
		}, CodeUnauthorized, ExitAuth,
			"the deployment refused the credentials (HTTP 401): no credential was sent"},
		{"plain 403", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(403)
		}, CodeForbidden, ExitAuth,
			"not allowed (HTTP 403); a session belongs to the principal that created it, and a loopback-only server refuses other hosts"},
		{"error object", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 422, `{"error":{"code":"schema_mismatch","message":"bad"},"available":"not-a-list"}`)
		}, "schema_mismatch", ExitRefused, "schema_mismatch: bad"},
		{"5xx code without message", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 503, `{"ok":false,"error":"injected_fault"}`)
		}, "injected_fault", ExitUnreachable, "deployment failed the request: injected_fault (HTTP 503)"},
		{"ok false without code", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 409, `{"ok":false}`)
		}, "", ExitRefused, "deployment refused the request: error (HTTP 409)"},
		{"unknown code 5xx", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 500, `{"ok":false,"error":"internal","message":"boom"}`)
		}, "internal", ExitUnreachable, "internal: boom"},
		{"numeric code", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 418, `{"ok":false,"error":418}`)
		}, "418", ExitRefused, "deployment refused the request: 418 (HTTP 418)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := serve(t, "", tt.handler)
			c.opts.BearerToken = ""
			_, err := c.Tools(ctxT(t), Binding{})
			wantError(t, err, tt.code, tt.exit, tt.text)
		})
	}
}

func TestEnvelopeRefusals(t *testing.T) {
	issues := `[{"path":["limit"],"message":"expected integer"},{"path":["telemetry","contextId"],"message":"required"},` +
		`{"path":["items",2,"name"],"message":"too long"},{"path":[],"message":"unexpected property \"x\""}]`
	tests := []struct {
		status  int
		body    string
		binding Binding
		code    string
		exit    int
		text    string
	}{
		{404, `{"ok":false,"error":"unknown_tool","message":"no such tool","available":["ls","read"]}`, Binding{},
			CodeUnknownTool, ExitUsage, `unknown tool "rd"`},
		{400, `{"ok":false,"error":"invalid_input","message":"input invalid","issues":` + issues + `}`, Binding{},
			CodeInvalidInput, ExitRefused, "the deployment rejected the input of rd:\n  --limit: expected integer\n" +
				"  --telemetry-context-id: required\n  --items[2]-name: too long\n  input: unexpected property \"x\""},
		{400, `{"ok":false,"error":"invalid_input","message":"limit must be an integer"}`, Binding{},
			CodeInvalidInput, ExitRefused, "the deployment rejected the input of rd: limit must be an integer"},
		{409, `{"ok":false,"error":"session_busy","message":"a turn is running"}`, Binding{SessionID: "ses_a9"},
			CodeSessionBusy, ExitRefused, "session ses_a9 is busy (a model turn is running)"},
		{409, `{"ok":false,"error":"session_busy","message":"session ses_q has a model turn queued"}`, Binding{SessionID: "ses_q"},
			CodeSessionBusy, ExitRefused, "session ses_q is busy (a model turn is queued)"},
		{409, `{"ok":false,"error":"session_busy","sessionId":"ses_b7"}`, Binding{ContinuationToken: "http:1"},
			CodeSessionBusy, ExitRefused, "session ses_b7 is busy (a model turn is running or queued)"},
		{409, `{"ok":false,"error":"workspace_unavailable","message":"sandbox is gone"}`, Binding{SessionID: "ses_c"},
			CodeWorkspaceUnavailable, ExitRefused, "the workspace of session ses_c is unavailable, so write calls cannot run there: sandbox is gone"},
		{404, `{"ok":false,"error":"unknown_session"}`, Binding{SessionID: "ses_x"},
			CodeUnknownSession, ExitRefused, "the deployment does not know session ses_x"},
		{400, `{"ok":false,"error":"invalid_continuation_token","message":"expired"}`, Binding{ContinuationToken: "http:1"},
			CodeInvalidContinuationToken, ExitRefused, "the deployment rejected the continuation token: expired"},
		{400, `{"ok":false,"error":"agent_tool"}`, Binding{},
			CodeAgentTool, ExitRefused, "rd runs inside the agent's model turn and cannot be called from agsh"},
		{400, `{"ok":false,"error":"conflicting_binding"}`, Binding{},
			CodeConflictingBinding, ExitRefused, "a call cannot carry both a session id and a continuation token"},
		{401, `{"ok":false,"error":"unauthorized","message":"bad token"}`, Binding{},
			CodeUnauthorized, ExitAuth, "the deployment refused the credentials (HTTP 401): bad token (credential from AGENT_SHELL_BEARER_TOKEN)"},
		{403, `{"ok":false,"error":"forbidden","message":"session of another principal"}`, Binding{},
			CodeForbidden, ExitAuth, "not allowed (HTTP 403): session of another principal (credential from AGENT_SHELL_BEARER_TOKEN); a session belongs to the principal that created it, and a loopback-only server refuses other hosts"},
		{429, `{"ok":false,"error":"rate_limited","message":"slow down"}`, Binding{},
			"rate_limited", ExitRefused, "rate_limited: slow down"},
	}
	for i, tt := range tests {
		t.Run(strconv.Itoa(i)+"_"+tt.code, func(t *testing.T) {
			c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, tt.status, tt.body) })
			c.opts.CredentialSource = "AGENT_SHELL_BEARER_TOKEN"
			_, err := c.Call(ctxT(t), "rd", json.RawMessage(`{}`), tt.binding)
			e := wantError(t, err, tt.code, tt.exit, tt.text)
			if e.Status != tt.status || e.Tool != "rd" || e.Route != "POST /v1/tools/rd" || !e.Remote {
				t.Errorf("fields = %+v", e)
			}
		})
	}
}

func TestUnknownToolCarriesAvailable(t *testing.T) {
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 404, `{"ok":false,"error":"unknown_tool","available":["ls","read","grep"]}`)
	})
	_, err := c.Tool(ctxT(t), "rd", Binding{})
	e := asError(t, err)
	if strings.Join(e.Available, ",") != "ls,read,grep" {
		t.Errorf("available = %q", e.Available)
	}
}

func TestIssueFlagHook(t *testing.T) {
	e := &Error{ErrCode: CodeInvalidInput, Remote: true, Tool: "read",
		Issues:    []Issue{{Path: []any{"perPage"}, Message: "expected integer"}},
		IssueFlag: func(p []any) string { return "--per-page-2" }}
	want := "the deployment rejected the input of read:\n  --per-page-2: expected integer"
	if e.Error() != want {
		t.Errorf("text = %q, want %q", e.Error(), want)
	}
}

func TestErrorZeroValues(t *testing.T) {
	tests := []struct {
		e    *Error
		text string
		exit int
	}{
		{&Error{}, "request failed", ExitUnreachable},
		{&Error{ErrCode: CodeUsage, Message: "bad flag"}, "bad flag", ExitUsage},
		{&Error{ErrCode: CodeNoTarget}, "no_target", ExitUsage},
		{&Error{ErrCode: CodeBadResponse, Exit: ExitRefused, Message: "m"}, "m", ExitRefused},
		{&Error{ErrCode: CodeInterrupted, Message: "interrupted"}, "interrupted", ExitInterrupted},
		{&Error{Status: 418, Remote: true, ErrCode: "teapot"}, "deployment refused the request: teapot (HTTP 418)", ExitRefused},
	}
	for _, tt := range tests {
		if tt.e.Error() != tt.text || tt.e.ExitCode() != tt.exit {
			t.Errorf("%+v: %q/%d, want %q/%d", tt.e, tt.e.Error(), tt.e.ExitCode(), tt.text, tt.exit)
		}
	}
}

func TestOddTypesSkippedUnlessEssential(t *testing.T) {
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/tools":
			writeJSON(w, 200, `{"ok":"yes","tools":[{"name":"a","title":5},{"name":"b","title":"B"}]}`)
		case "/v1/sessions":
			writeJSON(w, 200, `{"sessions":[{"sessionId":"s1","running":"no","updatedAt":17}]}`)
		case "/v1/tools/src":
			writeJSON(w, 200, `{"tool":{"name":"src","source":42}}`)
		case "/v1/tools/num":
			writeJSON(w, 200, `{"toolName":"num","durationMs":"fast"}`)
		default:
			writeJSON(w, 200, `{"toolName":"x","isError":"true"}`)
		}
	})
	ctx := ctxT(t)
	tools, err := c.Tools(ctx, Binding{})
	if err != nil || len(tools) != 2 || tools[0].Title != "" || tools[1].Title != "B" {
		t.Errorf("tools = %+v, %v", tools, err)
	}
	ss, err := c.Sessions(ctx)
	if err != nil || len(ss) != 1 || ss[0].SessionID != "s1" {
		t.Errorf("sessions = %+v, %v", ss, err)
	}
	_, err = c.Tool(ctx, "src", Binding{})
	wantError(t, err, CodeBadResponse, ExitUnreachable,
		`deployment answered GET /v1/tools/src with an unexpected shape (tool.source is a JSON number): "{\"tool\":{\"name\":\"src\",\"source\":42}}"`)
	_, err = c.Call(ctx, "num", nil, Binding{})
	wantError(t, err, CodeBadResponse, ExitUnreachable,
		`deployment answered POST /v1/tools/num with an unexpected shape (invalid number literal, trying to unmarshal "\"fast\"" into Number): "{\"toolName\":\"num\",\"durationMs\":\"fast\"}"`)
	_, err = c.Call(ctx, "x", nil, Binding{})
	wantError(t, err, CodeBadResponse, ExitUnreachable,
		`deployment answered POST /v1/tools/x with an unexpected shape (isError is a JSON string): "{\"toolName\":\"x\",\"isError\":\"true\"}"`)
}

func TestLargeResultStreamed(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 1<<18) // 4 MiB
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"ok":true,"toolName":"read","result":{"text":"`+big+`","n":1e400}}`)
	})
	res, err := c.Call(ctxT(t), "read", nil, Binding{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"text":"` + big + `","n":1e400}`; string(res.Result) != want {
		t.Errorf("result of %d bytes differs from the %d sent", len(res.Result), len(want))
	}
}

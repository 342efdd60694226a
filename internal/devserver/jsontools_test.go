package devserver_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// startJSONTools serves the authored JSON tools on an executor agent.
func startJSONTools(t *testing.T) string {
	s := devservertest.Start(t, devserver.Config{Agents: []devserver.AgentConfig{
		{Slug: "executor", Name: "change-monitor-executor", Tools: devserver.JSONTools()}}})
	return s.AgentURL("executor")
}

func TestReportChangeIssue(t *testing.T) {
	exec := startJSONTools(t)
	id, _ := devservertest.NewSession(t, exec, "", "m")
	status, body := post(t, exec, "report_change_issue", "", map[string]any{"sessionId": id, "input": map[string]any{
		"title": "Leaked handle", "severity": "high", "files": []string{"/repo/a.go"},
		"location": map[string]any{"path": "/repo/a.go", "line": 12}}})
	res := envelope(t, body)
	result, _ := res["result"].(map[string]any)
	if status != 200 || res["isError"] != false || result["title"] != "Leaked handle" || result["severity"] != "high" ||
		!regexp.MustCompile(`^iss_[0-9a-f]{12}$`).MatchString(result["issueId"].(string)) ||
		!regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(result["createdAt"].(string)) || len(result) != 4 {
		t.Fatalf("got %d %s", status, body)
	}
	_, calls := devservertest.Do(t, http.MethodGet, exec+"/v1/dev/sessions/"+id+"/calls", "", nil)
	var out struct {
		Records []struct {
			Kind  string          `json:"kind"`
			Value json.RawMessage `json:"value"`
		} `json:"records"`
	}
	if err := json.Unmarshal(calls, &out); err != nil || len(out.Records) != 1 || out.Records[0].Kind != "issue" ||
		!strings.Contains(string(out.Records[0].Value), `"location":{"path":"/repo/a.go","line":12}`) {
		t.Fatalf("record: %s", calls)
	}
}

func TestReportChangeIssueValidation(t *testing.T) {
	exec := startJSONTools(t)
	tests := []struct{ name, input, issues string }{
		{"severity enum", `{"title":"t","severity":"urgent"}`,
			`[{"path":["severity"],"message":"must be one of \"low\", \"medium\", \"high\", \"critical\""}]`},
		{"nested required", `{"title":"t","location":{"line":3}}`, `[{"path":["location","path"],"message":"required"}]`},
		{"nested integer", `{"title":"t","location":{"path":"p","line":"3"}}`, `[{"path":["location","line"],"message":"expected integer"}]`},
		{"files items", `{"title":"t","files":["a",{}]}`, `[{"path":["files",1],"message":"expected string"}]`},
		{"blank title", `{"title":"  "}`, `[{"path":["title"],"message":"must not be blank"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, exec, "report_change_issue", "", `{"input":`+tt.input+`}`)
			if status != 400 || !strings.HasSuffix(string(body), `"issues":`+tt.issues+`}`) {
				t.Fatalf("got %d %s\nwant issues %s", status, body, tt.issues)
			}
		})
	}
}

func TestJSONToolsDescribed(t *testing.T) {
	exec := startJSONTools(t)
	_, body := devservertest.Do(t, http.MethodGet, exec+"/v1/tools/report_change_issue", "", nil)
	if !strings.Contains(string(body), `"effect":"write","needsApproval":true,"execution":"server"`) ||
		!strings.Contains(string(body), `"inputSchema":{`+"\n"+`  "type": "object",`+"\n"+`  "properties": {`+"\n"+`    "title"`) {
		t.Fatalf("detail: %s", body)
	}
	_, body = devservertest.Do(t, http.MethodGet, exec+"/v1/tools/report_change_succeeded", "", nil)
	if strings.Contains(string(body), `"effect"`) || !strings.Contains(string(body), `"needsApproval":true`) {
		t.Fatalf("report_change_succeeded declares no effect and needs approval: %s", body)
	}
	_, body = devservertest.Do(t, http.MethodGet, exec+"/v1/tools/run_checks", "", nil)
	if !strings.Contains(string(body), `"execution":"agent"`) || !strings.Contains(string(body), `"inputSchema":{`) {
		t.Fatalf("run_checks: %s", body)
	}
}

func TestReportChangeSucceededAndRunChecks(t *testing.T) {
	exec := startJSONTools(t)
	status, body := post(t, exec, "report_change_succeeded", "", `{"input":{"summary":"All monitors green."}}`)
	if res := envelope(t, body); status != 200 || res["result"] != "Recorded: the change passed its checks. All monitors green." {
		t.Fatalf("got %d %s", status, body)
	}
	status, body = post(t, exec, "report_change_succeeded", "", `{"input":{}}`)
	expectError(t, status, body, 400, "invalid_input", "invalid input for report_change_succeeded: summary: required")
	status, body = post(t, exec, "run_checks", "", `{"input":{}}`)
	expectError(t, status, body, 400, "agent_tool",
		"run_checks is an agent-execution tool; it runs only inside a model turn and cannot be called on the host")
}

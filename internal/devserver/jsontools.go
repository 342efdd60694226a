package devserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/wire"
)

// The schemas of the executor's authored JSON tools, written as served:
// their property order is the order of agsh's flags and help.
const (
	reportIssueSchema = `{
  "type": "object",
  "properties": {
    "title": {"type": "string", "description": "One line naming the problem found in the change."},
    "severity": {"type": "string", "enum": ["low", "medium", "high", "critical"], "description": "How urgently the problem needs attention."},
    "files": {"type": "array", "items": {"type": "string"}, "description": "Workspace paths of the files the problem touches."},
    "location": {
      "type": "object",
      "description": "Where the problem shows first.",
      "properties": {
        "path": {"type": "string", "description": "Workspace path of the file."},
        "line": {"type": "integer", "minimum": 1, "description": "Line number, counted from 1."}
      },
      "required": ["path"]
    },
    "details": {"type": "string", "description": "Longer explanation, markdown allowed."}
  },
  "required": ["title"]
}`
	reportSucceededSchema = `{
  "type": "object",
  "properties": {
    "summary": {"type": "string", "description": "What was checked and found to be fine."},
    "checks": {"type": "integer", "minimum": 0, "description": "How many checks passed."}
  },
  "required": ["summary"]
}`
	runChecksSchema = `{
  "type": "object",
  "properties": {
    "checks": {"type": "array", "items": {"type": "string"}, "description": "Names of the monitoring checks to run; all of them when omitted."},
    "paths": {"type": "array", "items": {"type": "string"}, "description": "Limit the checks to these workspace paths."}
  },
  "required": []
}`
)

// JSONTools returns the executor's authored JSON tools that exercise
// tables and property views: report_change_issue (a write needing
// approval, recording the issue on the session), report_change_succeeded
// (no effect declared, so a write; it needs approval too) and run_checks (agent execution: listed,
// never callable on the host).
func JSONTools() []*tool.Tool {
	authored := wire.Source{Kind: "authored"}
	return []*tool.Tool{
		{
			Name:          "report_change_issue",
			Description:   "Files an issue found while checking a change: what is wrong, how severe it is, and where it shows. The issue is kept on the session.",
			InputSchema:   json.RawMessage(reportIssueSchema),
			Effect:        "write",
			NeedsApproval: true,
			Source:        authored,
			Validate:      true,
			Call:          reportIssue,
		},
		{
			Name:          "report_change_succeeded",
			Description:   "Reports that a change passed its checks, with a short summary.",
			InputSchema:   json.RawMessage(reportSucceededSchema),
			NeedsApproval: true,
			Source:        authored,
			Validate:      true,
			Call:          reportSucceeded,
		},
		{
			Name:        "run_checks",
			Description: "Runs the monitoring checks against the changed code. It executes inside the agent's turn, so it cannot be called directly.",
			InputSchema: json.RawMessage(runChecksSchema),
			Effect:      "read",
			Execution:   "agent",
			Source:      authored,
			Validate:    true,
		},
	}
}

// issueInput is the input of report_change_issue (already schema-checked).
type issueInput struct {
	Title    string   `json:"title"`
	Severity string   `json:"severity"`
	Files    []string `json:"files"`
	Location *struct {
		Path string       `json:"path"`
		Line *json.Number `json:"line"`
	} `json:"location"`
	Details string `json:"details"`
}

// issue is what report_change_issue answers and records.
type issue struct {
	IssueID   string       `json:"issueId"`
	Title     string       `json:"title"`
	Severity  string       `json:"severity"`
	CreatedAt string       `json:"createdAt"`
	Files     []string     `json:"files,omitempty"`
	Location  *issueLocale `json:"location,omitempty"`
}

type issueLocale struct {
	Path string       `json:"path"`
	Line *json.Number `json:"line,omitempty"`
}

func reportIssue(_ context.Context, c *tool.Call) (tool.Result, error) {
	var in issueInput
	if err := decodeStrict(c.Input, &in); err != nil {
		return tool.Result{}, err
	}
	if strings.TrimSpace(in.Title) == "" {
		return tool.Result{}, tool.BadInput("title", "must not be blank")
	}
	if in.Severity == "" {
		in.Severity = "medium"
	}
	out := issue{
		IssueID: "iss_" + randomHex(6), Title: in.Title, Severity: in.Severity,
		CreatedAt: time.Now().UTC().Format(time.RFC3339), Files: in.Files,
	}
	if in.Location != nil {
		out.Location = &issueLocale{Path: in.Location.Path, Line: in.Location.Line}
	}
	c.Record("issue", out)
	return tool.JSON(struct {
		IssueID   string `json:"issueId"`
		Title     string `json:"title"`
		Severity  string `json:"severity"`
		CreatedAt string `json:"createdAt"`
	}{out.IssueID, out.Title, out.Severity, out.CreatedAt})
}

func reportSucceeded(_ context.Context, c *tool.Call) (tool.Result, error) {
	var in struct {
		Summary string       `json:"summary"`
		Checks  *json.Number `json:"checks"`
	}
	if err := decodeStrict(c.Input, &in); err != nil {
		return tool.Result{}, err
	}
	summary := strings.TrimSpace(in.Summary)
	if summary == "" {
		return tool.Result{}, tool.BadInput("summary", "must not be blank")
	}
	c.Record("success", map[string]any{"summary": summary})
	if in.Checks != nil {
		return tool.Text(fmt.Sprintf("Recorded: the change passed %s checks. %s", in.Checks, summary)), nil
	}
	return tool.Text("Recorded: the change passed its checks. " + summary), nil
}

// decodeStrict decodes a tool input whose shape the schema already checked;
// a mismatch still answers invalid_input rather than a broken result.
func decodeStrict(input []byte, v any) error {
	if err := decodeJSON(input, v); err != nil {
		return &tool.InputError{Issues: []wire.Issue{{Path: []any{}, Message: err.body.Message}}}
	}
	return nil
}

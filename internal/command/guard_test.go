package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/catalog"
)

// TestWriteGuard: one rule of the tool's detail says whether agsh asks.
func TestWriteGuard(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		d    catalog.ToolDetail
		why  string
		note string
	}{
		{"needs approval", catalog.ToolDetail{NeedsApproval: true}, "it declares needsApproval: true",
			"agsh asks before calling it when standard input is a terminal (it declares needsApproval: true); --yes or AGSH_YES=1 skips the question, and without a terminal (a script, a pipe) agsh calls it only with one of them."},
		{"a write", catalog.ToolDetail{Effect: "write"}, `it declares effect: "write"`, ""},
		{"both", catalog.ToolDetail{Effect: "Write", NeedsApproval: true}, `it declares needsApproval: true and effect: "Write"`, ""},
		{"destructive", catalog.ToolDetail{Annotations: &catalog.Annotations{DestructiveHint: &yes}}, "it declares destructiveHint: true", ""},
		{"not destructive", catalog.ToolDetail{Annotations: &catalog.Annotations{DestructiveHint: &no}}, "",
			"Effect not declared; agsh does not ask before calling it."},
		{"destructive left out", catalog.ToolDetail{Annotations: &catalog.Annotations{ReadOnlyHint: &no}}, "",
			"Effect not declared; agsh does not ask before calling it."},
		{"a read", catalog.ToolDetail{Effect: "read"}, "", ""},
		{"read-only hint", catalog.ToolDetail{Annotations: &catalog.Annotations{ReadOnlyHint: &yes}}, "", ""},
		{"nothing declared", catalog.ToolDetail{}, "", "Effect not declared; agsh does not ask before calling it."},
	}
	for _, tt := range tests {
		g := WriteGuard(&tt.d)
		if g.Ask != (tt.why != "") || g.Reason() != tt.why {
			t.Errorf("%s: ask %v, reason %q, want %q", tt.name, g.Ask, g.Reason(), tt.why)
		}
		if note := guardNote(&tt.d); tt.note != "" && note != tt.note || tt.note == "" && (note == noEffectNote) {
			t.Errorf("%s: note %q, want %q", tt.name, note, tt.note)
		}
	}
	if WriteGuard(nil).Ask {
		t.Error("no detail asks")
	}
}

// TestWriteGuardMalformed: the guard fails closed. A detail as a deployment
// sends it, whose needsApproval or effect is not a clear false or read,
// makes agsh ask; only a clear read (or nothing declared) does not.
func TestWriteGuardMalformed(t *testing.T) {
	tests := []struct {
		detail string
		why    string
	}{
		{`"needsApproval": 1`, "it declares needsApproval: true"},
		{`"needsApproval": "true"`, "it declares needsApproval: true"},
		{`"needsApproval": "false"`, "it declares needsApproval: true"},
		{`"needsApproval": 0`, "it declares needsApproval: true"},
		{`"needsApproval": {}`, "it declares needsApproval: true"},
		{`"needsApproval": [true]`, "it declares needsApproval: true"},
		{`"effect": ["write"]`, `it declares effect: "[\"write\"]"`},
		{`"effect": {"kind": "read"}`, `it declares effect: "{\"kind\": \"read\"}"`},
		{`"effect": 1`, `it declares effect: "1"`},
		{`"effect": true`, `it declares effect: "true"`},
		{`"effect": "delete"`, `it declares effect: "delete"`},
		{`"effect": "Read"`, `it declares effect: "Read"`},
		{`"effect": " read"`, `it declares effect: " read"`},
		{`"effect": "read\u202e"`, `it declares effect: "read\u202e"`},
		{`"effect": "read", "needsApproval": "no"`, "it declares needsApproval: true"},
		{`"effect": ["read"], "needsApproval": false`, `it declares effect: "[\"read\"]"`},
		{`"annotations": {"destructiveHint": "true"}`, "it declares destructiveHint: true"},
		{`"annotations": {"destructiveHint": 1}`, "it declares destructiveHint: true"},
		{`"annotations": {"readOnlyHint": true, "destructiveHint": [true]}`, "it declares destructiveHint: true"},
		{`"annotations": "destructive"`, "it declares destructiveHint: true"},
		{`"annotations": [{"destructiveHint": false}]`, "it declares destructiveHint: true"},
		// Clear answers: no question.
		{`"annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": "x"}`, ""},
		{`"annotations": {"destructiveHint": null, "title": 5}`, ""},
		{`"effect": "read", "needsApproval": false`, ""},
		{`"effect": null, "needsApproval": null`, ""},
		{`"effect": ""`, ""},
	}
	for _, tt := range tests {
		var a catalog.ToolResponse
		if err := json.Unmarshal([]byte(`{"ok": true, "tool": {"name": "t", `+tt.detail+`}}`), &a); err != nil {
			t.Errorf("%s: %v", tt.detail, err)
			continue
		}
		if a.Tool.Name != "t" {
			t.Errorf("%s: the rest of the detail was lost: %+v", tt.detail, a.Tool)
		}
		g := WriteGuard(&a.Tool)
		if g.Ask != (tt.why != "") || g.Reason() != tt.why {
			t.Errorf("%s: ask %v, reason %q, want %q", tt.detail, g.Ask, g.Reason(), tt.why)
		}
	}
	long := `{"name": "t", "effect": [` + strings.Repeat(`"write",`, 100) + `"write"]}`
	var d catalog.ToolDetail
	if err := json.Unmarshal([]byte(long), &d); err != nil || !WriteGuard(&d).Ask || len(d.Effect) > 80 {
		t.Errorf("a long effect: %v, %d bytes kept, ask %v", err, len(d.Effect), WriteGuard(&d).Ask)
	}
}

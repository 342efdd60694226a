package wire

import (
	"encoding/json"
	"testing"
)

func TestSourceDecoding(t *testing.T) {
	for _, tt := range []struct {
		in       string
		want     Source
		authored bool
		group    string
	}{
		{in: `null`, want: Source{Kind: "authored"}, authored: true},
		{in: `""`, want: Source{Kind: "authored"}, authored: true},
		{in: `"authored"`, want: Source{Kind: "authored"}, authored: true},
		{in: `"datadog"`, want: Source{Kind: "connection", Connection: "datadog"}, group: "datadog"},
		{in: `{}`, want: Source{Kind: "authored"}, authored: true},
		{in: `{"kind":"authored"}`, want: Source{Kind: "authored"}, authored: true},
		{in: `{"connection":"planner-tools"}`, want: Source{Kind: "connection", Connection: "planner-tools"}, group: "planner-tools"},
		{in: `{"kind":"connection","connection":"c1","connector":"github","extra":1}`,
			want: Source{Kind: "connection", Connection: "c1", Connector: "github"}, group: "github"},
		{in: `{"connector":"y","kind":""}`, want: Source{Kind: "connection", Connector: "y"}, group: "y"},
	} {
		var got Source
		if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if got != tt.want || got.Authored() != tt.authored || got.Group() != tt.group {
			t.Errorf("%s: %+v (authored %v, group %q), want %+v (authored %v, group %q)",
				tt.in, got, got.Authored(), got.Group(), tt.want, tt.authored, tt.group)
		}
	}
	for _, in := range []string{`42`, `{"kind":1}`, `[]`} {
		var got Source
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("%s: decoded as %+v, want an error", in, got)
		}
	}
}

// A missing source field decodes as the zero Source, which is authored.
func TestSourceMissing(t *testing.T) {
	var e ToolEntry
	if err := json.Unmarshal([]byte(`{"name":"x"}`), &e); err != nil || !e.Source.Authored() || e.Source.Group() != "" {
		t.Fatalf("%+v, %v", e, err)
	}
}

func TestDefaultKind(t *testing.T) {
	for _, tt := range []struct{ in, want Source }{
		{Source{}, Source{Kind: "authored"}},
		{Source{Connection: "c"}, Source{Kind: "connection", Connection: "c"}},
		{Source{Connector: "g"}, Source{Kind: "connection", Connector: "g"}},
		{Source{Kind: "authored", Connection: "c"}, Source{Kind: "authored", Connection: "c"}},
		{Source{Kind: "other"}, Source{Kind: "other"}},
	} {
		got := tt.in
		got.DefaultKind()
		if got != tt.want {
			t.Errorf("%+v: %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// The envelope as a deployment writes it: "ok" always, the rest when set.
func TestErrorBodyEncoding(t *testing.T) {
	for _, tt := range []struct {
		in   ErrorBody
		want string
	}{
		{ErrorBody{Error: CodeSessionBusy}, `{"ok":false,"error":"session_busy"}`},
		{ErrorBody{Error: CodeUnknownTool, Message: "no tool", Available: []string{"ls"}},
			`{"ok":false,"error":"unknown_tool","message":"no tool","available":["ls"]}`},
		{ErrorBody{Error: CodeInvalidInput, Issues: []Issue{{Path: []any{"tags", 0}, Message: "must be a string"}}},
			`{"ok":false,"error":"invalid_input","issues":[{"path":["tags",0],"message":"must be a string"}]}`},
		{ErrorBody{Error: CodeInvalidInput, Issues: []Issue{{Path: []any{}, Message: "expected object"}}},
			`{"ok":false,"error":"invalid_input","issues":[{"path":[],"message":"expected object"}]}`},
	} {
		b, err := json.Marshal(tt.in)
		if err != nil || string(b) != tt.want {
			t.Errorf("%+v: %s (%v), want %s", tt.in, b, err, tt.want)
		}
	}
}

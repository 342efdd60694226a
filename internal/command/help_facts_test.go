package command

import (
	"encoding/json"
	"testing"

	"github.com/agsh-dev/agsh/generated"
)

// TestOptionFactsShowConstraints: help's facts line shows the validation
// keywords a schema declares (docs/mapping.md#how-a-value-is-read: they are
// "shown in help, not enforced").
func TestOptionFactsShowConstraints(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","required":["per_page"],"properties":{
		"per_page":{"type":"integer","minimum":1,"maximum":100,"default":30},
		"slug":{"type":"string","pattern":"^[a-z-]+$","maxLength":40,"format":"hostname"},
		"plain":{"type":"string"}}}`)
	cmd, err := generated.Build(schema, generated.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"--per-page": "Required. Default: 30. Minimum: 1. Maximum: 100.",
		"--slug":     "Format: hostname. Pattern: ^[a-z-]+$. Max. length: 40.",
		"--plain":    "",
	}
	for _, f := range cmd.Flags {
		if got := OptionItem(f).Facts; got != want[f.Name] {
			t.Errorf("%s facts = %q, want %q", f.Name, got, want[f.Name])
		}
	}
}

// TestOptionFactsTitledConsts: a oneOf of titled (or described) consts
// lists each value with its title, as a task server labels priorities; an
// untitled value shows alone, and a lone const's title stays the flag's
// description.
func TestOptionFactsTitledConsts(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
		"priority":{"oneOf":[{"const":1,"title":"low"},{"const":2,"title":"high"}]},
		"mode":{"oneOf":[{"const":"a","description":"append to the file\nmore"},{"const":"w"},{"const":"x","title":"x"}]},
		"only":{"const":"latest","title":"Which release"}}}`)
	cmd, err := generated.Build(schema, generated.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"--priority": "One of: 1 (low), 2 (high).",
		"--mode":     "One of: a (append to the file), w, x.",
		"--only":     "One of: latest.",
	}
	for _, f := range cmd.Flags {
		if got := OptionItem(f).Facts; got != want[f.Name] {
			t.Errorf("%s facts = %q, want %q", f.Name, got, want[f.Name])
		}
	}
}

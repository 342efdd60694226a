package render

import (
	"bytes"
	"strings"
	"testing"
)

func TestDedent(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "plain",
		"\n    Read a file.\n\n    - one\n      - nested\n  ":    "Read a file.\n\n- one\n  - nested",
		"Starts at once.\n        Then indented.\n        More.": "Starts at once.\nThen indented.\nMore.",
		"  a\n  b":     "a\nb",
		"a\n  b\nc":    "a\n  b\nc",
		"\t\tx\n\t\ty": "x\ny",
		"\n\n   \n":    "",
	} {
		if got := Dedent(in); got != want {
			t.Errorf("Dedent(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHelpDedentsDescription: an indented template-literal description (as
// desktop-commander's) reads as paragraphs and lists, not a code block cut
// mid-word.
func TestHelpDedentsDescription(t *testing.T) {
	desc := "\n                        Start a new interactive process. Prompt ids such as onboarding_prompt_id_1234567890 must stay whole.\n\n                        - First item of a list\n                        - Second item\n                        "
	var b bytes.Buffer
	if err := WriteHelp(&b, HelpPage{Name: "start_process", Synopsis: "start_process", Description: desc,
		Options: []HelpItem{{Term: "--x <string>", Description: "\n      Indented\n      option text.\n    "}}}, Options{Width: 60}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "    Start a new interactive process.") || !strings.Contains(out, "onboarding_prompt_id_1234567890") ||
		!strings.Contains(out, "• First item") && !strings.Contains(out, "- First item") || !strings.Contains(out, "        Indented\n        option text.") {
		t.Errorf("help:\n%s", out)
	}
}

// TestHelpShapeAndAnnotations: a JSON-valued flag shows the shape one
// occurrence takes after its description; NOTES word every declared MCP
// annotation.
func TestHelpShapeAndAnnotations(t *testing.T) {
	yes, no := true, false
	notes := AnnotationNotes(&yes, &no, nil)
	if len(notes) != 2 || !strings.HasPrefix(notes[0], "Destructive:") || !strings.HasPrefix(notes[1], "Not idempotent:") {
		t.Errorf("AnnotationNotes = %q", notes)
	}
	if len(AnnotationNotes(nil, nil, nil)) != 0 || !strings.HasPrefix(AnnotationNotes(nil, nil, &yes)[0], "Open world:") {
		t.Error("AnnotationNotes: undeclared hints say nothing")
	}
	var b bytes.Buffer
	if err := WriteHelp(&b, HelpPage{Name: "create_entities", Synopsis: "create_entities [options...]",
		Options: []HelpItem{{Term: "--entities <json>...", Description: "Entities to create.", Shape: "{name: string, entityType: string, observations: [string]}", Facts: "Required."}},
		Notes:   notes}, Options{Width: 100}); err != nil {
		t.Fatal(err)
	}
	want := "    --entities <json>...\n        Entities to create.\n        Value: {name: string, entityType: string, observations: [string]}\n        Required.\n"
	if out := b.String(); !strings.Contains(out, want) || !strings.Contains(out, "NOTES\n    Destructive: it may delete or overwrite data (destructiveHint).\n") {
		t.Errorf("help:\n%s", out)
	}
}

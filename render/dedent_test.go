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
		// An indented template with text interpolated at the margin (a
		// container notice, the last paragraph or in the middle): the
		// template's indentation still goes; the margin lines stay.
		"\n        Create a directory.\n\n        IMPORTANT: absolute paths.\n\nDOCKER: prefer mounted paths.\nCheck them first.\n        Referenced as DC.": "Create a directory.\n\nIMPORTANT: absolute paths.\n\nDOCKER: prefer mounted paths.\nCheck them first.\nReferenced as DC.",
		"    Run it.\n\nNOTES:\n- a\n    - indented more\n    End.": "Run it.\n\nNOTES:\n- a\n- indented more\nEnd.",
		// Not a template (the first line is not indented): a code block stays.
		"Use it like:\n    code block\nMore text": "Use it like:\n    code block\nMore text",
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

// TestHelpDedentsInterpolated: desktop-commander's descriptions inside a
// container are indented templates with notices interpolated at the left
// margin (the last paragraph, or in the middle); they still read as
// paragraphs, no word cut, nothing left as an indented code block.
func TestHelpDedentsInterpolated(t *testing.T) {
	ind := strings.Repeat(" ", 24)
	desc := "\n" + ind + "Create a new directory or ensure a directory exists.\n" + ind + "\n" + ind +
		"Can create multiple nested directories in one operation.\n" + ind + "Only works within allowed directories.\n" + ind + "\n" + ind +
		"IMPORTANT: Always use absolute paths for reliability. Paths are automatically normalized regardless of slash direction. \n\n" +
		"DOCKER: Prefer paths within mounted directories: /mnt/sandboxing, /home/cloudsdk.\nWhen users ask about file locations, check these mounted paths first.\n" +
		ind + "This command can be referenced as \"DC: ...\" in your instructions."
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		if err := WriteHelp(&b, HelpPage{Name: "dc_create_directory", Synopsis: "dc_create_directory", Description: desc}, Options{Width: 100, Color: color}); err != nil {
			t.Fatal(err)
		}
		out := stripANSI(b.String())
		for _, want := range []string{"\n    Create a new directory or ensure a directory exists.", "automatically", "direction.", "\n    DOCKER: Prefer paths"} {
			if !strings.Contains(out, want) {
				t.Errorf("color %v: help lacks %q:\n%s", color, want, out)
			}
		}
		if strings.Contains(out, "      Create") {
			t.Errorf("color %v: left indented:\n%s", color, out)
		}
		checkStructure(t, b.String(), structure{width: 100, color: color, sections: []string{"NAME", "SYNOPSIS", "DESCRIPTION"}})
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

package render

import (
	"bytes"
	"strings"
	"testing"
)

func TestHighlightFile(t *testing.T) {
	tests := []struct {
		name, text string
		colored    bool
		plain      string
	}{
		{"main.go", "package main\n\nfunc main() {}\n", true, "package main\n\nfunc main() {}\n"},
		{"config.json", `{"a": 1}`, true, "{\"a\": 1}\n"},
		{"script.py", "print('hi')\x1b[2J\n", true, "print('hi')\\x1b[2J\n"},
		{"notes.unknownext", "plain \x07text", false, "plain \\x07text\n"},
		{"empty.go", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := HighlightFile(&b, tt.name, tt.text); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if got := strings.Contains(out, "\x1b["); got != tt.colored {
				t.Errorf("colored = %v, want %v: %q", got, tt.colored, out)
			}
			if got := stripANSI(out); got != tt.plain {
				t.Errorf("text = %q, want %q", got, tt.plain)
			}
		})
	}
}

func TestHighlightDiff(t *testing.T) {
	diff := "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n context\n"
	var b bytes.Buffer
	if err := HighlightDiff(&b, diff); err != nil {
		t.Fatal(err)
	}
	if stripANSI(b.String()) != diff {
		t.Errorf("text changed: %q", stripANSI(b.String()))
	}
	lines := strings.Split(b.String(), "\n")
	sgr := func(l string) string {
		if n := escapeLen(l); n > 0 {
			return l[:n]
		}
		return ""
	}
	if del, add := sgr(lines[3]), sgr(lines[4]); del == "" || add == "" || del == add {
		t.Errorf("removed and added lines not colored apart: %q / %q", lines[3], lines[4])
	}
}

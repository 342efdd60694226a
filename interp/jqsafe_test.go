package interp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// escapeControls stands in for render.Safe (interp cannot import render).
func escapeControls(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			b.WriteString(`\x`)
			b.WriteString(strings.ToLower(string("0123456789ABCDEF"[r>>4&0xf]) + string("0123456789ABCDEF"[r&0xf])))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// What jq prints on stderr from its input (error, halt_error, stderr,
// debug) goes through the Runner's Clean, as every other message does.
func TestJQStderrIsCleaned(t *testing.T) {
	h := newFake()
	h.values["evil"] = Value{JSON: json.RawMessage(`{"t":"\u001b]2;TITLE\u0007","c":"\u009b2J"}`), IsJSON: true}
	for _, src := range []string{
		`evil | jq '.t | error'`,
		`evil | jq '.t | halt_error'`,
		`evil | jq '.t | halt_error(5)'`,
		`evil | jq '.t | stderr | empty'`,
		`evil | jq '.t | debug | empty'`,
		`evil | jq '.c | error'`,
		`evil | jq '{x: .t} | error'`,
		`evil | jq 'input_filename'`,
	} {
		var out, errb bytes.Buffer
		r := &Runner{Handler: h, Renderer: fakeRenderer{}, Stdout: &out, Stderr: &errb, Prefix: "agsh: ", Clean: escapeControls}
		r.RunScript(context.Background(), src)
		got := errb.String()
		if strings.ContainsAny(got, "\x1b\a\u009b") {
			t.Errorf("%s: raw control on stderr: %q", src, got)
		}
		if !strings.Contains(src, "input_filename") && !strings.Contains(got, `\x1b]2;TITLE\x07`) && !strings.Contains(got, `\x9b2J`) &&
			!strings.Contains(got, `\u001b]2;TITLE\u0007`) {
			t.Errorf("%s: stderr %q does not show the text escaped", src, got)
		}
	}
}

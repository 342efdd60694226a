package cli

import (
	"testing"

	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/repl"
)

// In the REPL and the line shell, an empty line after a backslash
// continuation ends the input, as in sh; other incomplete input still asks
// for more.
func TestREPLIncomplete(t *testing.T) {
	r := &interpRunner{}
	for src, want := range map[string]bool{
		"ls \\":          true,
		"ls \\\n":        false,
		"ls \\\n| head":  false,
		"ls |":           true,
		"ls |\n":         true,
		"read \"a":       true,
		"read \"a\n\\\n": true,
		"ls":             false,
	} {
		if got := r.Incomplete(src); got != want {
			t.Errorf("Incomplete(%q) = %v, want %v", src, got, want)
		}
	}
}

// The REPL escapes the deployment's names it draws as every label is
// escaped, and masks a paged output as the output writer does (a secret
// of four bytes at least; the longer of two overlapping first).
func TestREPLDrawing(t *testing.T) {
	escape, redact := replDrawing([]string{"tok", "s3cr", "s3cret-long"})
	for in, want := range map[string]string{
		"evil\u202eexe":     `evil\u202eexe`,
		"evbad\u009b2J":     `evbad\u009b2J`,
		"zw\u200bsp \u05e9": `zw\u200bsp ` + "\u05e9",
		"ev\u05e9\u200d":    "ev\u05e9\u200d",
	} {
		if got := escape(in); got != want {
			t.Errorf("escape(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := redact("tok s3cr s3cret-long"), "tok *** ***"; got != want {
		t.Errorf("redact = %q, want %q", got, want)
	}
}

// The REPL's status for an interrupt is the exit status table's.
func TestREPLStatusInterrupted(t *testing.T) {
	if repl.StatusInterrupted != exitcode.Interrupted {
		t.Fatalf("repl.StatusInterrupted = %d, exitcode.Interrupted = %d", repl.StatusInterrupted, exitcode.Interrupted)
	}
}

package repl

import "testing"

// In the REPL and the line shell, an empty line after a backslash
// continuation ends the input, as in sh; other incomplete input still asks
// for more.
func TestREPLIncomplete(t *testing.T) {
	r := &InterpRunner{}
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

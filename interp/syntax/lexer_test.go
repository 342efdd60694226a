package syntax

import (
	"strings"
	"testing"
)

// TestTokenEstimate: a script's tokens take one slice of about their
// number, whether the script is many plain lines (not grown by copying) or
// mostly blanks (no slot reserved per blank).
func TestTokenEstimate(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("read /repo/README.md\n", 1000),
		strings.Repeat(" ", 100000) + "ls\n" + strings.Repeat("\t  echo   a  \n", 100),
		"ls /repo | grep -i readme && echo 'a b' ; x",
		"",
	} {
		toks, err := tokenize(src)
		if err != nil {
			t.Fatal(err)
		}
		if c := cap(toks); c < len(toks) || c > len(toks)+len(toks)/4+2 {
			t.Errorf("%.30q: %d tokens in a slice of %d", src, len(toks), c)
		}
	}
}

package interp

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// checkingHandler is a fakeHandler that checks its tools' lines: a word
// "--bad" is the mistake.
type checkingHandler struct{ *fakeHandler }

func (h checkingHandler) Check(_ context.Context, argv []string, _ bool) (int, error) {
	for i, a := range argv {
		if a == "--bad" {
			return i, errors.New("unknown flag --bad")
		}
	}
	return 0, nil
}

// A script is checked whole first: every mistake that needs no call, with
// its line and column, and then nothing runs.
func TestRunScriptChecksWhole(t *testing.T) {
	h := checkingHandler{newFake()}
	var out, errb bytes.Buffer
	r := &Runner{Handler: h, Stdout: &out, Stderr: &errb, Prefix: "agsh: "}
	src := "true\nlines | head -n 1\nfalse --x  --bad\nnosuch\nlines | head -q\nhead\nlines | true\ntrue | exit\n"
	if st := r.RunScript(context.Background(), src); st != StatusUsage {
		t.Errorf("status %d", st)
	}
	if len(h.calls) != 0 || out.Len() != 0 {
		t.Errorf("ran %v, printed %q", h.calls, out.String())
	}
	want := []string{
		"agsh: line 3: col 12: unknown flag --bad",
		`agsh: line 4: col 1: unknown command "nosuch"`,
		"agsh: line 5: col 9: head: ",
		"agsh: line 6: col 1: head reads a pipe: put it after |",
		"agsh: line 7: col 9: true does not read a pipe",
		"agsh: line 8: col 8: exit does not read a pipe",
	}
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	var got []string
	for _, l := range lines {
		if strings.HasPrefix(l, "agsh: ") {
			got = append(got, l)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("messages:\n%s", errb.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w) {
			t.Errorf("message %d = %q, want %q…", i, got[i], w)
		}
	}
	// Without mistakes it runs.
	errb.Reset()
	if st := r.RunScript(context.Background(), "true\nlines | head -n 1\n"); st != 0 || !strings.Contains(out.String(), "alpha") {
		t.Errorf("a good script: status %d, %q %q", st, out.String(), errb.String())
	}
}

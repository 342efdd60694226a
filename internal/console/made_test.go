package console

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestCallLineMade: a call's line is made once for the same tool and
// input, again for another, never kept when making it failed, and the
// memory of them stays bounded; a tool name holding a NUL is a tool of its own.
func TestCallLineMade(t *testing.T) {
	made := 0
	fail := true
	d := &describer{ctx: context.Background(), line: func(_ context.Context, tool string, input json.RawMessage) (string, bool, error) {
		made++
		if tool == "flaky" && fail {
			return "", false, errors.New("no detail yet")
		}
		return tool + " " + string(input), false, nil
	}}
	in := json.RawMessage(`{"path":"/repo"}`)
	for range 3 {
		if got := d.callLine("ls", in, false); got != `ls {"path":"/repo"}` {
			t.Fatalf("line %q", got)
		}
	}
	if made != 1 {
		t.Errorf("the same call's line was made %d times", made)
	}
	if got := d.callLine("ls", json.RawMessage(`{"path":"/tmp"}`), false); got != `ls {"path":"/tmp"}` || made != 2 {
		t.Errorf("another input: %q, made %d", got, made)
	}
	if got := d.callLine("read", in, false); got != `read {"path":"/repo"}` || made != 3 {
		t.Errorf("another tool: %q, made %d", got, made)
	}
	d.callLine("flaky", in, false)
	fail = false
	if got := d.callLine("flaky", in, false); got != `flaky {"path":"/repo"}` {
		t.Errorf("a line that failed was kept: %q", got)
	}
	if got := d.callLine("ls\x00{}", json.RawMessage(`{"path":"/repo"}`), false); got != "ls\x00{} {\"path\":\"/repo\"}" {
		t.Errorf("a tool name with a NUL took another's line: %q", got)
	}
	big := json.RawMessage(`{"text":"` + strings.Repeat("x", maxMadeInput) + `"}`)
	before := made
	d.callLine("ls", big, false)
	d.callLine("ls", big, false)
	if made != before+2 {
		t.Errorf("a big input's line was kept")
	}
	for i := range 3 * maxMade {
		d.callLine("ls", json.RawMessage(`{"n":`+strconv.Itoa(i)+`}`), false)
		if len(d.made) > maxMade {
			t.Fatalf("%d lines kept", len(d.made))
		}
	}
}

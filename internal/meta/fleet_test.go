package meta

import (
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/console"
)

// TestFleetDurationErrors: a bad duration's message gives the bounds as a
// flag takes them (1h, not 1h0m0s) and only examples within them (500ms
// is no --stale: its least is 1s).
func TestFleetDurationErrors(t *testing.T) {
	top, _ := LookupMeta(MetaTop)
	wait, _ := LookupMeta(MetaWait)
	for _, c := range []struct {
		m    *MetaCommand
		args []string
		want string
	}{
		{top, []string{"--interval", "0"}, `:top: --interval takes a duration from 200ms to 1h (500ms, 2s, 1m30s), not "0"`},
		{top, []string{"--stale", "500ms"}, `:top: --stale takes a duration from 1s to 24h (2s, 1m30s, 10m), not "500ms"`},
		{wait, []string{"--for", "done", "--timeout", "x"}, `:wait: --timeout takes a duration from 1ms to 720h (500ms, 2s, 1m30s), not "x"`},
	} {
		_, err := readFleetArgs(c.m, c.args)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: %v\nwant %s", c.args, err, c.want)
		}
	}
	for d, want := range map[string]string{"1h0m0s": "1h", "24h0m0s": "24h", "1m30s": "1m30s", "200ms": "200ms", "2m0s": "2m", "1h30m0s": "1h30m"} {
		dd, err := time.ParseDuration(d)
		if got := shortDur(dd); err != nil || got != want {
			t.Errorf("shortDur(%s) = %s, want %s", d, got, want)
		}
	}
}

// TestUsagePageAlignsFlags: a meta command's --help starts every flag's
// help in one column, past its longest flag (":top --help" had
// "--interval <duration>" run into its help, out of line with --stale's).
func TestUsagePageAlignsFlags(t *testing.T) {
	for _, name := range []string{MetaTop, MetaWait, MetaExport, MetaSessions} {
		m, ok := LookupMeta(name)
		if !ok || len(m.Flags) == 0 {
			t.Fatalf("%s: no flags", name)
		}
		page := m.usagePage()
		col := -1
		for _, f := range m.Flags {
			term := strings.TrimSpace(f.Name + " " + f.Placeholder)
			var line string
			for _, l := range strings.Split(page, "\n") {
				if strings.HasPrefix(l, "  "+term+" ") {
					line = l
				}
			}
			if line == "" {
				t.Fatalf("%s: no line for %s:\n%s", name, term, page)
			}
			rest := line[2+len(term):]
			at := 2 + len(term) + len(rest) - len(strings.TrimLeft(rest, " "))
			if col < 0 {
				col = at
			}
			if at != col || at == 2+len(term) {
				t.Errorf("%s: %q: help at column %d, the first flag's at %d", name, line, at, col)
			}
		}
	}
}

// TestRequiredFlagsUnbracketed: a flag the command cannot run without
// (:wait's --for, :export's --as) is written without brackets in its usage
// line, which the error of its absence prints: the line said
// "[--for <state>]" under "missing --for <state>".
func TestRequiredFlagsUnbracketed(t *testing.T) {
	wait, _ := LookupMeta(MetaWait)
	export, _ := LookupMeta(MetaExport)
	if got, want := wait.synopsis(), ":wait [session] --for <state> [--timeout <duration>]"; got != want {
		t.Errorf(":wait: %q, want %q", got, want)
	}
	if got, want := export.synopsis(), ":export [session] --as <script|md|json> [-o <file>]"; got != want {
		t.Errorf(":export: %q, want %q", got, want)
	}
	if _, err := readFleetArgs(wait, nil); err == nil || !strings.HasSuffix(err.Error(), "\nusage: :wait [session] --for <state> [--timeout <duration>]") {
		t.Errorf(":wait without --for: %v", err)
	}
}

// TestWaitLine: :wait --for done of a chat session that completed its
// turn says it is done (the state asked for), then that it waits for a
// message; it said "is waiting", which reads as the wrong state reached.
func TestWaitLine(t *testing.T) {
	for _, c := range []struct {
		out  console.WaitOutcome
		want string
	}{
		{console.WaitOutcome{Session: "ses_1", For: "done", Reached: true, State: "waiting", Index: 4}, "ses_1 is done (event 4; the session is waiting)"},
		{console.WaitOutcome{Session: "ses_1", For: "waiting", Reached: true, State: "waiting", Index: -1}, "ses_1 is waiting (already)"},
		{console.WaitOutcome{Session: "ses_1", For: "done", Reached: true, State: "done", Index: 7}, "ses_1 is done (event 7)"},
		{console.WaitOutcome{Session: "ses_1", For: "approval", Reached: true, State: "approval", Index: 3}, "ses_1 is asking for approval (event 3)"},
	} {
		if got := waitLine(&c.out); got != c.want {
			t.Errorf("%+v: %q, want %q", c.out, got, c.want)
		}
	}
}

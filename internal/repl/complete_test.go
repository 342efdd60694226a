package repl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

func cands(texts ...string) []Candidate {
	out := make([]Candidate, len(texts))
	for i, t := range texts {
		out[i] = Candidate{Text: t}
	}
	return out
}

func TestTabCompletion(t *testing.T) {
	answers := map[string]Completion{
		"rea":             {Start: 0, End: 3, Candidates: cands("read")},
		"ls /re":          {Start: 3, End: 6, Candidates: cands("/repo/")},
		"ls --li":         {Start: 3, End: 7, Candidates: cands("--limit=")},
		"da":              {Start: 0, End: 2, Candidates: cands("datadog_list_monitors", "datadog_list_events")},
		"datadog_list_":   {Start: 0, End: 13, Candidates: []Candidate{{Text: "datadog_list_monitors", Description: "List monitors"}, {Text: "datadog_list_events", Display: "datadog_list_events", Description: "List\nevents"}}},
		"ls --":           {Start: 3, End: 5, Candidates: []Candidate{{Text: "--limit", Display: "--limit <integer>", Description: "How many"}, {Text: "--all", Display: "--all"}}},
		"ls |\nhe":        {Start: 5, End: 7, Candidates: cands("head")},
		"bad":             {Start: 2, End: 9, Candidates: cands("x")},
		"none":            {Start: 0, End: 4},
		"日本":              {Start: 0, End: 6, Candidates: cands("日本語")},
		"x":               {Start: 0, End: 1, Candidates: cands("xyz")},
		"ls -":            {Start: 3, End: 4, Candidates: cands("--limit", "--all")},
		"ls |\nbefore":    {Start: 0, End: 2, Candidates: cands("cat")},
		"wide_candidates": {Start: 0, End: 15, Candidates: cands("a1", "b2")},
	}
	tests := []struct {
		name, typed string
		left        int // ← presses before Tab
		want        string
	}{
		{"single inserted with a space", "rea", 0, "agent ❯ read [ ]"},
		{"directory: no space", "ls /re", 0, "agent ❯ ls /repo/[ ]"},
		{"flag=: no space", "ls --li", 0, "agent ❯ ls --limit=[ ]"},
		{"common prefix", "da", 0, "agent ❯ datadog_list_[ ]"},
		{"list with dimmed descriptions", "datadog_list_", 0,
			"agent ❯ datadog_list_[ ]\ndatadog_list_monitors  List monitors\ndatadog_list_events    List events"},
		{"common prefix of flags", "ls -", 0, "agent ❯ ls --[ ]"},
		{"display with placeholder", "ls --", 0, "agent ❯ ls --[ ]\n--limit <integer>  How many\n--all"},
		{"continuation line", "ls |\nhe", 0, "agent ❯ ls |\n… head [ ]"},
		{"span out of range ignored", "bad", 0, "agent ❯ bad[ ]"},
		{"no candidates", "none", 0, "agent ❯ none[ ]"},
		{"multibyte", "日本", 0, "agent ❯ 日本語 [ ]"},
		{"cursor inside the line", "x y", 2, "agent ❯ xyz[ ]y"},
		{"span in an earlier line ignored", "ls |\nbefore", 0, "agent ❯ ls |\n… before[ ]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Config{Completer: &fakeCompleter{answers: answers}})
			for i, part := range splitLines(tt.typed) {
				if i > 0 {
					h.key(tea.KeyEnter)
				}
				h.typeText(part)
			}
			for i := 0; i < tt.left; i++ {
				h.key(tea.KeyLeft)
			}
			seq := h.m.comp.seq
			h.key(tea.KeyTab)
			h.until(func() bool { return h.answered(seq + 1) })
			if got := h.view(); got != tt.want {
				t.Fatalf("view %q, want %q", got, tt.want)
			}
		})
	}
}

// answered reports whether the answer to request seq has come back.
func (h *harness) answered(seq int) bool { return h.m.comp.answered >= seq }

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func TestTabListClearedByTyping(t *testing.T) {
	c := &fakeCompleter{answers: map[string]Completion{"a": {Start: 0, End: 1, Candidates: cands("ab", "ac")}}}
	h := newHarness(t, Config{Completer: c})
	h.typeText("a")
	h.key(tea.KeyTab)
	h.until(func() bool { return h.answered(h.m.comp.seq) })
	if got, want := h.view(), "agent ❯ a[ ]\nab  ac"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
	h.typeText("b")
	if got, want := h.view(), "agent ❯ ab[ ]"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
}

// More candidates than fit show in columns, down then across, a page at a
// time with a count; Tab turns the page (and comes back to the first)
// without asking the Completer again.
func TestTabListPages(t *testing.T) {
	var many []Candidate
	for i := 0; i < 130; i++ {
		many = append(many, Candidate{Text: fmt.Sprintf("tool_%03d", i)})
	}
	c := &fakeCompleter{answers: map[string]Completion{"tool_": {Start: 0, End: 5, Candidates: many}}}
	h := newHarness(t, Config{Completer: c})
	h.m.width = 40 // 4 columns of 8 cells + 2
	h.typeText("tool_")
	h.key(tea.KeyTab)
	h.until(func() bool { return h.answered(h.m.comp.seq) })
	rows := splitLines(h.view())
	want := []string{"agent ❯ tool_[ ]",
		"tool_000  tool_012  tool_024  tool_036",
		"tool_001  tool_013  tool_025  tool_037"}
	if len(rows) != 1+maxListed+1 || rows[1] != want[1] || rows[2] != want[2] ||
		rows[len(rows)-1] != "130 candidates (page 1/3, Tab: more)" {
		t.Fatalf("page 1: rows %q", rows)
	}
	seq := h.m.comp.seq
	h.key(tea.KeyTab)
	rows = splitLines(h.view())
	if h.m.comp.seq != seq || rows[1] != "tool_048  tool_060  tool_072  tool_084" ||
		rows[len(rows)-1] != "130 candidates (page 2/3, Tab: more)" {
		t.Fatalf("page 2 (asked again: %v): rows %q", h.m.comp.seq != seq, rows)
	}
	h.key(tea.KeyTab)
	rows = splitLines(h.view())
	// The last page: 34 left, in 4 columns of 9 rows.
	if len(rows) != 1+9+1 || rows[1] != "tool_096  tool_105  tool_114  tool_123" || rows[9] != "tool_104  tool_113  tool_122" {
		t.Fatalf("page 3: rows %q", rows)
	}
	h.key(tea.KeyTab)
	if rows = splitLines(h.view()); rows[1] != want[1] {
		t.Fatalf("back to page 1: rows %q", rows)
	}
	h.typeText("x")
	if got := h.view(); got != "agent ❯ tool_x[ ]" {
		t.Fatalf("typing did not clear the list: %q", got)
	}
}

func TestTabStaleAnswerIgnored(t *testing.T) {
	gate := make(chan struct{})
	c := &fakeCompleter{gate: gate, answers: map[string]Completion{"rea": {Start: 0, End: 3, Candidates: cands("read")}}}
	h := newHarness(t, Config{Completer: c})
	h.typeText("rea")
	cmd := h.m.complete() // the command Tab would start
	h.typeText("l")       // typing goes on while it is out
	if got, want := h.view(), "agent ❯ real[ ]"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
	close(gate)
	h.send(cmd())
	if got, want := h.view(), "agent ❯ real[ ]"; got != want {
		t.Fatalf("stale answer applied: %q, want %q", got, want)
	}
	// An answer to an older Tab is stale even when the line is the same.
	h.key(tea.KeyBackspace)
	old := h.m.complete()
	newer := h.m.complete()
	h.send(old())
	if got, want := h.view(), "agent ❯ rea[ ]"; got != want {
		t.Fatalf("older answer applied: %q", got)
	}
	h.send(newer())
	if got, want := h.view(), "agent ❯ read [ ]"; got != want {
		t.Fatalf("newest answer: %q, want %q", got, want)
	}
}

func TestTabErrorsAndTimeout(t *testing.T) {
	h := newHarness(t, Config{Completer: &fakeCompleter{err: errors.New("ls: permission denied")}})
	h.typeText("ls /x")
	h.key(tea.KeyTab)
	h.until(func() bool { return h.answered(h.m.comp.seq) })
	if got, want := h.view(), "agent ❯ ls /x[ ]\ncompletion failed: ls: permission denied"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}

	h = newHarness(t, Config{Completer: &fakeCompleter{gate: make(chan struct{})}, CompleteTimeout: 10 * time.Millisecond})
	h.typeText("ls /x")
	h.key(tea.KeyTab)
	h.typeText("y") // typing is never blocked
	h.key(tea.KeyTab)
	h.until(func() bool { return h.answered(h.m.comp.seq) })
	if got, want := h.view(), "agent ❯ ls /xy[ ]\ncompletion timed out"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
}

type panicCompleter struct{}

func (panicCompleter) Complete(context.Context, string, int) (Completion, error) {
	panic("boom")
}

func TestTabCompleterPanicIsAnError(t *testing.T) {
	h := newHarness(t, Config{Completer: panicCompleter{}})
	h.key(tea.KeyTab)
	h.until(func() bool { return h.answered(h.m.comp.seq) })
	if got, want := h.view(), "agent ❯ [ ]\ncompletion failed: internal error: boom"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
}

func TestTabWithoutCompleter(t *testing.T) {
	h := newHarness(t, Config{})
	h.typeText("x")
	h.key(tea.KeyTab)
	if got, want := h.view(), "agent ❯ x[ ]"; got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
}

func TestCommonPrefixAndSpan(t *testing.T) {
	if got := commonPrefix(cands("日本語", "日本人", "日本")); got != "日本" {
		t.Errorf("commonPrefix = %q", got)
	}
	if got := commonPrefix(cands("a", "b")); got != "" {
		t.Errorf("commonPrefix = %q", got)
	}
	s := "日本"
	for _, tt := range []struct {
		start, end int
		ok         bool
	}{{0, 3, true}, {0, 6, true}, {1, 3, false}, {0, 2, false}, {-1, 2, false}, {4, 3, false}, {0, 7, false}, {6, 6, true}} {
		if got := validSpan(s, tt.start, tt.end); got != tt.ok {
			t.Errorf("validSpan(%d,%d) = %v", tt.start, tt.end, got)
		}
	}
}

// Candidates are deployment names: in the list and, once inserted, in the
// line, a bidi control, a zero-width space or a C1 control shows escaped
// (docs/rendering.md#terminal-safety), so no name can pose as another or
// drive the terminal; right-to-left letters and emoji joiners stay.
func TestTabListEscapesNames(t *testing.T) {
	answers := map[string]Completion{
		"ev": {Start: 0, End: 2, Candidates: []Candidate{{Text: "evil\u202eexe"}, {Text: "evbad\u009b2J"},
			{Text: "evzw\u200bx", Description: "d\u2066 \u009b"}, {Text: "ev\u05e9\u200d"}}},
		"evi": {Start: 0, End: 3, Candidates: cands("evil\u202eexe")},
	}
	h := newHarness(t, Config{Completer: &fakeCompleter{answers: answers}})
	h.typeText("ev")
	seq := h.m.comp.seq
	h.key(tea.KeyTab)
	h.until(func() bool { return h.answered(seq + 1) })
	want := "agent ❯ ev[ ]\nevil\\u202eexe\nevbad\\u009b2J\nevzw\\u200bx    d\\u2066 \\u009b\nev\u05e9\u200d"
	if got := h.view(); got != want {
		t.Fatalf("view %q, want %q", got, want)
	}
	h = newHarness(t, Config{Completer: &fakeCompleter{answers: answers}})
	h.typeText("evi")
	seq = h.m.comp.seq
	h.key(tea.KeyTab)
	h.until(func() bool { return h.answered(seq + 1) })
	if got, want := h.view(), "agent ❯ evil\\u202eexe [ ]"; got != want {
		t.Fatalf("line %q, want %q", got, want)
	}
	if got := string(h.m.ed.buf); got != "evil\u202eexe " {
		t.Fatalf("the line holds %q: the name itself must stay", got)
	}
}

// Without Config.Escape, every character outside printable ASCII that the
// REPL draws itself shows escaped; with it, what it answers is drawn.
func TestEscapeDefault(t *testing.T) {
	in := "\u00e9v\u202eil\u009b \U0001F600"
	m := newModel(context.Background(), Config{Runner: &fakeRunner{}})
	if got, want := m.visible(in), `\u00e9v\u202eil\u009b \U0001f600`; got != want {
		t.Errorf("default visible = %q, want %q", got, want)
	}
	if got, want := m.drawn(in), `\u00e9v\u202eil\u009b \U0001f600`; got != want {
		t.Errorf("default drawn = %q, want %q", got, want)
	}
	m = newModel(context.Background(), Config{Runner: &fakeRunner{}, Escape: safeLabel})
	if got, want := m.visible(in), "\u00e9v\\u202eil\\u009b \U0001F600"; got != want {
		t.Errorf("visible = %q, want %q", got, want)
	}
}

// What the REPL pages is masked by Config.Redact, else every secret is.
func TestRedactDefault(t *testing.T) {
	c := Config{Secrets: []string{"tok"}}
	if got, want := c.redact("a tok"), "a ***"; got != want {
		t.Errorf("default redact = %q, want %q", got, want)
	}
	c.Redact = strings.ToUpper
	if got, want := c.redact("a tok"), "A TOK"; got != want {
		t.Errorf("redact = %q, want %q", got, want)
	}
}

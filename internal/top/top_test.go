package top

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mattn/go-runewidth"
)

// fakeSource is a Source over rows held in memory.
type fakeSource struct {
	mu       sync.Mutex
	rows     []Row
	err      error
	parked   map[string]Parked
	decided  []string
	stopped  []string
	said     []string
	visible  [][]string
	opened   string
	openLine chan string
}

func (f *fakeSource) Refresh(_ context.Context, visible []string) ([]Row, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.visible = append(f.visible, visible)
	if f.err != nil {
		return nil, f.err
	}
	return append([]Row(nil), f.rows...), nil
}

func (f *fakeSource) Parked(_ context.Context, id string) (Parked, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.parked[id]
	if !ok {
		return p, errors.New("no call waits")
	}
	return p, nil
}

func (f *fakeSource) Decide(_ context.Context, id, callID string, approve bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.decided = append(f.decided, fmt.Sprintf("%s %s %v", id, callID, approve))
	return nil
}

func (f *fakeSource) Stop(_ context.Context, id string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = append(f.stopped, id)
	return true, nil
}

func (f *fakeSource) Say(_ context.Context, id, text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.said = append(f.said, id+": "+text)
	return nil
}

func (f *fakeSource) Open(ctx context.Context, id string, _ int, line func(string)) error {
	f.mu.Lock()
	f.opened = id
	ch := f.openLine
	f.mu.Unlock()
	line("   0  12:00:00  turn started  message")
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case s := <-ch:
			line(s)
		}
	}
}

// clock is a test's time.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

var t0 = time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)

// driver runs a model as bubbletea would, the commands one after another
// (a command that does not answer quickly, a tick, is dropped).
type driver struct {
	t  *testing.T
	m  *Model
	c  *clock
	mu sync.Mutex // Update and View, as bubbletea runs them: one at a time
}

func newDriver(t *testing.T, src Source, w, h int) *driver {
	c := &clock{t: t0}
	m := New(context.Background(), Config{Source: src, Target: "http://127.0.0.1:1/executor", Interval: time.Hour,
		Now: c.now, Location: time.UTC})
	d := &driver{t: t, m: m, c: c}
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	d.run(m.Init())
	return d
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(200 * time.Millisecond):
		return
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	case nil:
	default:
		d.send(msg)
	}
}

func (d *driver) send(msg tea.Msg) {
	d.mu.Lock()
	_, cmd := d.m.Update(msg)
	d.mu.Unlock()
	d.run(cmd)
}

func (d *driver) key(keys ...string) {
	for _, k := range keys {
		var msg tea.KeyMsg
		switch k {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		case "ctrl+c":
			msg = tea.KeyMsg{Type: tea.KeyCtrlC}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		d.send(msg)
	}
}

func (d *driver) screen() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m.View()
}

func fleetRows() []Row {
	return []Row{
		{ID: "ses_idle0000000001", State: StateWaiting, Title: "idle chat", Created: t0.Add(-time.Hour), Activity: t0.Add(-30 * time.Minute)},
		{ID: "ses_busy0000000002", State: StateRunning, Title: "busy", Call: "read /repo/README.md", Created: t0.Add(-10 * time.Minute), Activity: t0.Add(-2 * time.Second)},
		{ID: "ses_fail0000000003", State: StateFailed, Title: "nightly checks", Created: t0.Add(-20 * time.Minute), Activity: t0.Add(-5 * time.Minute), Failed: t0.Add(-5 * time.Minute)},
		{ID: "ses_park0000000004", State: StateApproval, Title: "file the issue", Call: "report_change_issue --title=x",
			Created: t0.Add(-3 * time.Minute), Activity: t0.Add(-time.Minute), Parked: t0.Add(-time.Minute)},
		{ID: "ses_slow0000000005", State: StateRunning, Title: "thinking", Created: t0.Add(-15 * time.Minute), Activity: t0.Add(-9 * time.Minute)},
		{ID: "ses_park0000000006", State: StateApproval, Title: "older ask", Created: t0.Add(-30 * time.Minute), Activity: t0.Add(-20 * time.Minute), Parked: t0.Add(-20 * time.Minute)},
		{ID: "ses_oldf0000000007", State: StateFailed, Title: "failed long ago", Created: t0.Add(-5 * time.Hour), Activity: t0.Add(-3 * time.Hour), Failed: t0.Add(-3 * time.Hour)},
	}
}

// TestSortNeedsFirst: parked approvals oldest first, failed turns of the
// last hour, running turns silent past the threshold, then by activity.
func TestSortNeedsFirst(t *testing.T) {
	rows := fleetRows()
	Sort(rows, t0, 2*time.Minute)
	var got []string
	for _, r := range rows {
		got = append(got, r.ID[4:8])
	}
	want := "park park fail slow busy idle oldf"
	if strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
	if rows[0].ID != "ses_park0000000006" {
		t.Errorf("the oldest ask is not first: %s", rows[0].ID)
	}
}

// TestViewFitsTheWidth: every line fits 80 and 200 columns, the header has
// the counts and the target, the parked approval is the first row.
func TestViewFitsTheWidth(t *testing.T) {
	for _, w := range []int{80, 200} {
		src := &fakeSource{rows: fleetRows()}
		d := newDriver(t, src, w, 24)
		scr := d.screen()
		lines := strings.Split(scr, "\n")
		if len(lines) != 24 {
			t.Errorf("%d columns: %d lines, want 24", w, len(lines))
		}
		for _, l := range lines {
			if runewidth.StringWidth(l) > w {
				t.Errorf("%d columns: a line of %d: %q", w, runewidth.StringWidth(l), l)
			}
		}
		if !strings.Contains(lines[0], "7 sessions · 2 approval · 2 running · 2 failed · 1 waiting") ||
			!strings.Contains(lines[0], "127.0.0.1:1/executor") && w == 200 {
			t.Errorf("%d columns: header %q", w, lines[0])
		}
		if !strings.HasPrefix(lines[2], "> APPROVAL") || !strings.Contains(lines[2], "ses_park") {
			t.Errorf("%d columns: first row %q", w, lines[2])
		}
		if !strings.Contains(scr, "9m!") {
			t.Errorf("%d columns: the silent running turn is not marked:\n%s", w, scr)
		}
	}
}

// TestApproveAsksWithTheWholeCall: a shows the whole arguments (wrapped,
// never cut) and the session id; keys typed ahead never decide; n sends
// nothing; y approves.
func TestApproveAsksWithTheWholeCall(t *testing.T) {
	long := "report_change_issue --title='" + strings.Repeat("very long title ", 20) + "END'"
	src := &fakeSource{rows: fleetRows(), parked: map[string]Parked{
		"ses_park0000000006": {CallID: "call_abc", Tool: "report_change_issue", Line: long, At: t0.Add(-20 * time.Minute)},
	}}
	d := newDriver(t, src, 80, 24)
	d.key("a")
	scr := d.screen()
	joined := strings.ReplaceAll(scr, "\n  ", "")
	if !strings.Contains(scr, "Approve call call_abc (report_change_issue) of session ses_park0000000006") ||
		!strings.Contains(joined, "END'") || !strings.Contains(scr, "Approve? [y/N]") {
		t.Fatalf("the question lacks the call or the session:\n%s", scr)
	}
	d.key("jy") // read together: two keys, the y within AskGuard of the question
	d.key("k")
	d.key("y") // within AskGuard of the question: typed ahead
	if len(src.decided) != 0 || !strings.Contains(d.screen(), "Approve? [y/N]") {
		t.Fatalf("a key typed ahead decided: %v", src.decided)
	}
	d.c.t = d.c.t.Add(AskGuard)
	d.key("n")
	if len(src.decided) != 0 || !strings.Contains(d.screen(), "declined; nothing was sent") {
		t.Fatalf("n sent %v:\n%s", src.decided, d.screen())
	}
	d.key("d")
	d.c.t = d.c.t.Add(AskGuard)
	if !strings.Contains(d.screen(), "Deny call call_abc") {
		t.Fatalf("d:\n%s", d.screen())
	}
	d.key("y")
	if len(src.decided) != 1 || src.decided[0] != "ses_park0000000006 call_abc false" {
		t.Fatalf("decided %v", src.decided)
	}
	if !strings.Contains(d.screen(), "denied call call_abc of ses_park0000000006") {
		t.Errorf("no outcome:\n%s", d.screen())
	}
	// A row with nothing parked: a says so and asks nothing.
	d.key("j", "j", "a")
	if !strings.Contains(d.screen(), "waits for approval") || d.m.mode != modeList {
		t.Errorf("a on a row without a parked call:\n%s", d.screen())
	}
}

// TestStopSayFilterOpen: s asks then stops, m sends the line typed, /
// filters, Enter opens the record live and Esc comes back, q quits.
func TestStopSayFilterOpen(t *testing.T) {
	src := &fakeSource{rows: fleetRows(), openLine: make(chan string, 4)}
	d := newDriver(t, src, 100, 30)
	d.key("/")
	d.key("t", "h", "i", "n", "k")
	if d.m.filter != "think" || len(d.m.view) != 1 || !strings.Contains(d.screen(), "1 match /think") {
		t.Fatalf("filter: %q %d\n%s", d.m.filter, len(d.m.view), d.screen())
	}
	d.key("enter", "s")
	d.c.t = d.c.t.Add(AskGuard)
	if !strings.Contains(d.screen(), "Stop the running turn of session ses_slow0000000005? [y/N]") {
		t.Fatalf("s:\n%s", d.screen())
	}
	d.key("y")
	if len(src.stopped) != 1 || src.stopped[0] != "ses_slow0000000005" {
		t.Fatalf("stopped %v", src.stopped)
	}
	d.key("m", "h", "i", " ", "t", "h", "e", "r", "e", "enter")
	if len(src.said) != 1 || src.said[0] != "ses_slow0000000005: hi there" {
		t.Fatalf("said %v", src.said)
	}
	d.key("m", "x", "esc")
	if len(src.said) != 1 || !strings.Contains(d.screen(), "abandoned") {
		t.Fatalf("Esc sent the message: %v", src.said)
	}
	d.key("esc") // clears the filter
	if len(d.m.view) != 7 {
		t.Fatalf("Esc kept the filter: %d rows", len(d.m.view))
	}
	go d.key("enter")
	waitScreen(t, d, "turn started")
	src.openLine <- "   1  12:00:01  call ok  read /repo/README.md"
	waitScreen(t, d, "call ok  read")
}

// waitScreen waits for the screen to show want (the record's lines arrive
// on goroutines).
func waitScreen(t *testing.T, d *driver, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(d.screen(), want) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("never showed %q:\n%s", want, d.screen())
}

// TestUnreachableKeepsTheRows: a refresh that fails keeps the last rows
// and says since when; the next answer clears it.
func TestUnreachableKeepsTheRows(t *testing.T) {
	src := &fakeSource{rows: fleetRows()}
	d := newDriver(t, src, 80, 24)
	src.err = errors.New("connection refused")
	d.c.t = d.c.t.Add(3 * time.Second)
	d.key("r")
	scr := d.screen()
	if !strings.HasPrefix(scr, "unreachable since 12:00:03 · 7 sessions") || !strings.Contains(scr, "ses_park") {
		t.Fatalf("unreachable:\n%s", scr)
	}
	src.err = nil
	d.key("r")
	if strings.Contains(d.screen(), "unreachable") {
		t.Fatalf("back:\n%s", d.screen())
	}
}

// TestHostileTextEscaped: escapes, bidi and line breaks in every field
// reach the screen escaped, with color and without.
func TestHostileTextEscaped(t *testing.T) {
	evil := "\x1b]52;c;SGVsbG8=\a\x1b[2J\u202e\nX"
	rows := []Row{{ID: "ses_" + evil, State: StateApproval + evil, Title: evil, Call: evil, Principal: evil, Parked: t0}}
	src := &fakeSource{rows: rows, parked: map[string]Parked{rows[0].ID: {CallID: evil, Tool: evil, Line: evil}}}
	for _, color := range []bool{false, true} {
		d := newDriver(t, src, 200, 24)
		d.m.cfg.Color = color
		d.key("a")
		d.c.t = d.c.t.Add(AskGuard)
		for _, scr := range []string{d.screen(), func() string { d.key("esc", "?"); return d.screen() }()} {
			s := strings.NewReplacer(sgrReverse, "", sgrFaint, "", sgrBold, "", sgrReset, "").Replace(scr)
			if strings.ContainsAny(s, "\x1b\a\u202e") {
				t.Errorf("color %v: a raw escape reached the screen: %q", color, s)
			}
		}
		d.key("esc")
		if !strings.Contains(d.screen(), `\x1b]52;c;SGVsbG8=\x07`) {
			t.Errorf("the escape is not shown escaped:\n%s", d.screen())
		}
	}
}

// TestQuit: q and Ctrl-C quit.
func TestQuit(t *testing.T) {
	m := New(context.Background(), Config{Source: &fakeSource{}, Interval: time.Hour})
	for _, k := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("q")}, {Type: tea.KeyCtrlC}} {
		_, cmd := m.Update(k)
		if cmd == nil {
			t.Fatalf("%v: no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%v does not quit", k)
		}
	}
}

// TestVisibleAreTheScreensRows: a refresh names the rows on the screen
// only.
func TestVisibleAreTheScreensRows(t *testing.T) {
	var rows []Row
	for i := range 100 {
		rows = append(rows, Row{ID: fmt.Sprintf("ses_%04d", i), State: StateWaiting, Activity: t0.Add(-time.Duration(i) * time.Second)})
	}
	src := &fakeSource{rows: rows}
	d := newDriver(t, src, 80, 24)
	d.key("r")
	last := src.visible[len(src.visible)-1]
	if len(last) != 20 || last[0] != "ses_0000" {
		t.Errorf("visible %d: %v", len(last), last)
	}
}

// TestFooterKeepsHelpAndQuit: on a narrow screen the footer leaves keys
// out, never "? keys" and "q quit" (at 80 columns the whole line was cut
// before "quit").
func TestFooterKeepsHelpAndQuit(t *testing.T) {
	for _, w := range []int{40, 80, 200} {
		d := newDriver(t, &fakeSource{rows: fleetRows()}, w, 24)
		lines := strings.Split(d.screen(), "\n")
		foot := lines[len(lines)-1]
		if !strings.HasSuffix(foot, "? keys · q quit") || runewidth.StringWidth(foot) > w || strings.Contains(foot, "…") {
			t.Errorf("%d columns: footer %q", w, foot)
		}
		if w == 200 && !strings.HasPrefix(foot, "j/k move · ⏎ record · a/d approve/deny") {
			t.Errorf("%d columns: footer %q lacks keys", w, foot)
		}
	}
}

// TestHelpPageWraps: the ? page is wrapped to the width, nothing cut with
// "…", each key's text whole, within the screen's height.
func TestHelpPageWraps(t *testing.T) {
	for _, w := range []int{60, 80, 200} {
		d := newDriver(t, &fakeSource{rows: fleetRows()}, w, 30)
		d.key("?")
		scr := d.screen()
		lines := strings.Split(scr, "\n")
		if len(lines) > 30 {
			t.Errorf("%d columns: %d lines, taller than the screen", w, len(lines))
		}
		for _, l := range lines {
			if runewidth.StringWidth(l) > w || strings.Contains(l, "…") {
				t.Errorf("%d columns: a cut line %q", w, l)
			}
		}
		flat := strings.Join(strings.Fields(scr), " ")
		for _, want := range []string{"then y sends; n or any other key sends nothing", "followed live as :tail does (Esc back)",
			"Any key leaves this page."} {
			if !strings.Contains(flat, want) {
				t.Errorf("%d columns: the page lacks %q:\n%s", w, want, scr)
			}
		}
	}
}

// TestWrapBreaksAtSpaces: an approval's command line wraps between its
// words, so no flag is split ("-" at a line's end, "-files" on the next).
func TestWrapBreaksAtSpaces(t *testing.T) {
	line := "report_change_issue --title='Flaky test in billing (demo 1)' --severity=high --files=billing/charge_test.go"
	got := wrap("  ", line, 80)
	if len(got) != 2 || strings.Join(strings.Fields(strings.Join(got, " ")), " ") != line {
		t.Fatalf("wrap: %q", got)
	}
	for _, l := range got {
		if runewidth.StringWidth(l) > 80 || !strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "   ") {
			t.Errorf("line %q", l)
		}
	}
	if !strings.HasPrefix(got[1], "  --files=") {
		t.Errorf("the flag was split: %q", got)
	}
	// Wrapped again (the question wraps each of its lines), a line keeps
	// its indentation.
	for _, l := range got {
		if again := wrap("", l, 80); len(again) != 1 || again[0] != l {
			t.Errorf("wrapped again: %q, want %q", again, l)
		}
	}
	// A word longer than the line still breaks where the line ends.
	long := strings.Repeat("x", 30)
	if got := wrap("", long, 20); len(got) != 2 || got[0] != long[:20] || got[1] != long[20:] {
		t.Errorf("a long word: %q", got)
	}
}

// TestFooterWhileTyping: while a filter or a message is typed, the footer
// says how the line ends, not the list's keys (q there is a letter, not
// quit).
func TestFooterWhileTyping(t *testing.T) {
	d := newDriver(t, &fakeSource{rows: fleetRows()}, 80, 24)
	foot := func() string { l := strings.Split(d.screen(), "\n"); return l[len(l)-1] }
	d.key("/")
	if f := foot(); f != "type to filter · Enter keeps it · Esc clears it" {
		t.Errorf("filter: footer %q", f)
	}
	d.key("esc", "m")
	if f := foot(); f != "type the message · Enter sends it · Esc abandons it" {
		t.Errorf("say: footer %q", f)
	}
	d.key("esc")
	if f := foot(); !strings.HasSuffix(f, "q quit") {
		t.Errorf("list: footer %q", f)
	}
}

// TestQueuedIsItsOwnState: a queued row shows QUEUED, the header counts it
// as the others, and it sorts with the rest by activity (never as a silent
// running turn, however long since its last event).
func TestQueuedIsItsOwnState(t *testing.T) {
	rows := append(fleetRows(),
		Row{ID: "ses_queu0000000008", State: StateQueued, Title: "behind a turn", Created: t0.Add(-40 * time.Minute), Activity: t0.Add(-10 * time.Minute)})
	sorted := slices.Clone(rows)
	Sort(sorted, t0, 2*time.Minute)
	var got []string
	for _, r := range sorted {
		got = append(got, r.ID[4:8])
	}
	if want := "park park fail slow busy queu idle oldf"; strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
	d := newDriver(t, &fakeSource{rows: rows}, 120, 24)
	scr := d.screen()
	lines := strings.Split(scr, "\n")
	if !strings.Contains(lines[0], "8 sessions · 2 approval · 2 running · 1 queued · 2 failed · 1 waiting") {
		t.Errorf("header %q", lines[0])
	}
	if !regexp.MustCompile(`(?m)^  QUEUED +40m +10m +ses_queu0000000008 `).MatchString(scr) {
		t.Errorf("no QUEUED row:\n%s", scr)
	}
}

// TestNarrowIDsStayApart: below 100 columns an id is cut to ses_ and 8
// characters; when two ids on the screen share those, the column widens
// until the cut tells them apart, and every line still fits.
func TestNarrowIDsStayApart(t *testing.T) {
	rows := []Row{
		{ID: "ses_a1b2c3d4e5f60001", State: StateRunning, Title: "one", Created: t0.Add(-time.Minute), Activity: t0.Add(-time.Second)},
		{ID: "ses_a1b2c3d4ffff0002", State: StateWaiting, Title: "two", Created: t0.Add(-time.Hour), Activity: t0.Add(-time.Minute)},
	}
	d := newDriver(t, &fakeSource{rows: rows}, 80, 24)
	scr := d.screen()
	for _, want := range []string{" ses_a1b2c3d4e… ", " ses_a1b2c3d4f… "} {
		if !strings.Contains(scr, want) {
			t.Errorf("no %q on the screen:\n%s", want, scr)
		}
	}
	for _, l := range strings.Split(scr, "\n") {
		if runewidth.StringWidth(l) > 80 {
			t.Errorf("a line of %d: %q", runewidth.StringWidth(l), l)
		}
	}
	// Ids apart within the cut keep it.
	rows[1].ID = "ses_99887766ffff0002"
	d = newDriver(t, &fakeSource{rows: rows}, 80, 24)
	if scr := d.screen(); !strings.Contains(scr, " ses_a1b2c3d4… ") || !strings.Contains(scr, " ses_99887766… ") {
		t.Errorf("the cut widened for ids apart:\n%s", scr)
	}
}

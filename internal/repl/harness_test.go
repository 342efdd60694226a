package repl

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// fakeRunner records what it runs. Incomplete: a trailing | or \ or an odd
// number of single quotes. Run writes out, err and returns status; with
// block set it waits for ctx and returns 130.
type fakeRunner struct {
	mu     sync.Mutex
	srcs   []string
	out    string
	errOut string
	status int
	exit   bool
	block  bool
	fn     func(ctx context.Context, src string, stdout, stderr io.Writer) (int, bool)
}

func (r *fakeRunner) Run(ctx context.Context, src string, stdout, stderr io.Writer) (int, bool) {
	r.mu.Lock()
	r.srcs = append(r.srcs, src)
	fn, out, errOut, status, exit, block := r.fn, r.out, r.errOut, r.status, r.exit, r.block
	r.mu.Unlock()
	if fn != nil {
		return fn(ctx, src, stdout, stderr)
	}
	if block {
		<-ctx.Done()
		_, _ = io.WriteString(stderr, "agsh: interrupted\n")
		return 130, false
	}
	_, _ = io.WriteString(stdout, out)
	_, _ = io.WriteString(stderr, errOut)
	return status, exit
}

func (r *fakeRunner) Incomplete(src string) bool {
	t := strings.TrimRight(src, " \n")
	return strings.HasSuffix(t, "|") || strings.HasSuffix(src, `\`) || strings.Count(src, "'")%2 == 1
}

func (r *fakeRunner) ran() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.srcs...)
}

// fakeCompleter answers from a table keyed by the line; gate, when set,
// holds the answer until it is closed.
type fakeCompleter struct {
	answers map[string]Completion
	gate    chan struct{}
	err     error
}

func (c *fakeCompleter) Complete(ctx context.Context, line string, cursor int) (Completion, error) {
	if c.gate != nil {
		select {
		case <-c.gate:
		case <-ctx.Done():
			return Completion{}, ctx.Err()
		}
	}
	if c.err != nil {
		return Completion{}, c.err
	}
	return c.answers[line[:cursor]], nil
}

// safeLabel stands for the escaping the shell passes as Config.Escape
// (agsh's label escaping) in what these tests draw: C1 controls, the bidi
// controls and the zero-width space as \u escapes, every other character
// kept.
func safeLabel(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200b {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// printedLine is a tea.Println seen by the harness.
type printedLine string

// harness drives a model as bubbletea would: commands run in goroutines
// and their messages come back to Update one at a time. Prints are
// collected as the scrollback; spinner ticks are sent by the tests.
type harness struct {
	t      *testing.T
	m      *model
	msgs   chan tea.Msg
	lines  []string // scrollback, one entry per line
	quit   bool
	clock  time.Time
	runner *fakeRunner
}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	h := &harness{t: t, msgs: make(chan tea.Msg, 64), clock: time.Unix(1000, 0)}
	if cfg.Runner == nil {
		h.runner = &fakeRunner{}
		cfg.Runner = h.runner
	} else if fr, ok := cfg.Runner.(*fakeRunner); ok {
		h.runner = fr
	}
	if cfg.AgentName == "" {
		cfg.AgentName = "agent"
	}
	if cfg.Escape == nil {
		cfg.Escape = safeLabel
	}
	cfg.NoColor = true
	h.m = newModel(context.Background(), cfg)
	h.m.now = func() time.Time { return h.clock }
	h.m.tick = func(int) tea.Cmd { return nil }
	h.m.width = 80
	h.exec(h.m.Init())
	h.until(func() bool { return h.m.out.idle() && len(h.lines) >= 3 })
	h.lines = h.lines[3:] // drop the banner
	return h
}

func (h *harness) exec(cmd tea.Cmd) {
	if cmd != nil {
		go func() { h.deliver(cmd()) }()
	}
}

func (h *harness) deliver(msg tea.Msg) {
	if msg == nil {
		return
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			h.exec(c)
		}
		return
	}
	v := reflect.ValueOf(msg)
	switch v.Type().String() {
	case "tea.sequenceMsg":
		for i := 0; i < v.Len(); i++ {
			if c, _ := v.Index(i).Interface().(tea.Cmd); c != nil {
				h.deliver(c())
			}
		}
	case "tea.printLineMessage":
		h.msgs <- printedLine(v.FieldByName("messageBody").String())
	default:
		h.msgs <- msg
	}
}

// until handles messages until cond holds (checked after every message
// and every few milliseconds, for conditions set by other goroutines),
// failing after five seconds.
func (h *harness) until(cond func() bool) {
	h.t.Helper()
	deadline := time.After(5 * time.Second)
	poll := time.NewTicker(2 * time.Millisecond)
	defer poll.Stop()
	for !cond() {
		select {
		case msg := <-h.msgs:
			h.handle(msg)
		case <-poll.C:
		case <-deadline:
			h.t.Fatalf("condition not met; view:\n%s\nscrollback: %q", h.view(), h.lines)
		}
	}
}

func (h *harness) handle(msg tea.Msg) {
	switch msg := msg.(type) {
	case printedLine:
		h.lines = append(h.lines, strings.Split(string(msg), "\n")...)
	case tea.QuitMsg:
		h.quit = true
	default:
		_, cmd := h.m.Update(msg)
		h.exec(cmd)
	}
}

// idle waits for the REPL to be back at its prompt with everything printed.
func (h *harness) idle() {
	h.t.Helper()
	h.until(func() bool { return !h.m.run.active && h.m.out.idle() })
}

func (h *harness) send(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	h.exec(cmd)
}

func (h *harness) key(t tea.KeyType) { h.send(tea.KeyMsg{Type: t}) }

func (h *harness) alt(r rune) { h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: true}) }

func (h *harness) typeText(s string) {
	for _, r := range s {
		if r == ' ' {
			h.send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
			continue
		}
		h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

// line types s and presses Enter, then waits for the prompt.
func (h *harness) line(s string) {
	h.t.Helper()
	h.typeText(s)
	h.key(tea.KeyEnter)
	h.idle()
}

// view is the model's view with the cursor shown as [c].
func (h *harness) view() string {
	return showCursor(h.m.View())
}

func showCursor(s string) string {
	return strings.NewReplacer(cursorOn, "[", cursorOff, "]").Replace(s)
}

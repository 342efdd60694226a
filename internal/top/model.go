package top

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Config is what the view needs.
type Config struct {
	Source Source
	// Target is what the header names (made safe here).
	Target string
	// Interval is the time between refreshes (0: DefaultInterval); Stale
	// how long a running turn may go without an event before it comes
	// first (0: DefaultStale).
	Interval, Stale time.Duration
	// In and Out are the terminal.
	In  io.Reader
	Out io.Writer
	// Color: the terminal takes SGR attributes (reverse, faint).
	Color bool
	// Now is the clock (nil: time.Now); Location the time zone of the
	// times shown (nil: the local one).
	Now      func() time.Time
	Location *time.Location
}

// Defaults of Config.
const (
	DefaultInterval = 2 * time.Second
	DefaultStale    = 2 * time.Minute
)

// AskGuard is how long after a question is on the screen its keys start to
// count: keys typed ahead (before it, or in that moment) never decide it.
const AskGuard = 250 * time.Millisecond

// maxRecordLines bounds the lines of an open record the view keeps.
const maxRecordLines = 2000

// Run shows the view on the terminal until q or Ctrl-C (nil), or ctx ends
// (its error). The terminal is left as it was found: the alternate screen
// left, the cursor shown.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Source == nil || cfg.In == nil || cfg.Out == nil {
		return errors.New("top: Config needs Source, In and Out")
	}
	m := New(ctx, cfg)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(cfg.In), tea.WithOutput(cfg.Out),
		tea.WithAltScreen(), tea.WithoutSignalHandler())
	_, err := p.Run()
	m.close()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

type mode int

const (
	modeList mode = iota
	modeFilter
	modeSay
	modeAsk
	modeRecord
	modeHelp
)

// question is an approval, denial or stop waiting for y or n.
type question struct {
	kind    byte // 'a', 'd', 's'
	id      string
	parked  Parked
	loading bool      // the parked call is being read
	shown   time.Time // when it was drawn (keys count AskGuard later)
	top     int       // its first line shown, when taller than the screen
}

// record is the open record of one session.
type record struct {
	id     string
	lines  []string
	cancel context.CancelFunc
	ch     chan string
	end    string
}

// Model is the fleet view's bubbletea model.
type Model struct {
	cfg  Config
	ctx  context.Context
	rows []Row
	// counts and principals are the rows' counts by state and whether any
	// has a principal, made when they land (not at every redraw).
	counts     map[string]int
	principals bool
	view       []int // indexes into rows the filter keeps
	selID      string
	sel        int
	top        int
	w, h       int
	busy       bool // a refresh is in flight
	again      bool // refresh again once it lands
	loaded     bool
	at         time.Time // the last refresh that answered
	down       time.Time // unreachable since (zero: reachable)
	why        string
	mode       mode
	input      []rune
	filter     string
	ask        *question
	status     string
	rec        *record
	gen        int // refresh generation
}

// New is the model (Run runs it; tests drive it).
func New(ctx context.Context, cfg Config) *Model {
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Stale <= 0 {
		cfg.Stale = DefaultStale
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Location == nil {
		cfg.Location = time.Local
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return &Model{cfg: cfg, ctx: ctx, w: 80, h: 24}
}

// Messages.
type (
	tickMsg    struct{ gen int }
	refreshMsg struct {
		rows []Row
		err  error
	}
	parkedMsg struct {
		id  string
		p   Parked
		err error
	}
	actionMsg struct {
		text string
		err  error
	}
	lineMsg struct {
		id   string
		line string
		ok   bool
	}
	recEndMsg struct {
		id  string
		err error
	}
)

// Init starts the first refresh.
func (m *Model) Init() tea.Cmd { return m.refresh() }

func (m *Model) close() {
	if m.rec != nil {
		m.rec.cancel()
	}
}

// visible are the ids on the screen.
func (m *Model) visible() []string {
	n := m.listHeight()
	var ids []string
	for i := m.top; i < len(m.view) && i < m.top+n; i++ {
		ids = append(ids, m.rows[m.view[i]].ID)
	}
	return ids
}

// refresh reads the sessions again, unless a read is in flight (then once
// it lands).
func (m *Model) refresh() tea.Cmd {
	if m.busy {
		m.again = true
		return nil
	}
	m.busy = true
	src, ctx, vis := m.cfg.Source, m.ctx, m.visible()
	return func() tea.Msg {
		rows, err := src.Refresh(ctx, vis)
		return refreshMsg{rows: rows, err: err}
	}
}

func (m *Model) tick() tea.Cmd {
	m.gen++
	gen := m.gen
	return tea.Tick(m.cfg.Interval, func(time.Time) tea.Msg { return tickMsg{gen: gen} })
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = max(msg.Width, 20), max(msg.Height, 6)
		m.place()
		return m, nil
	case tickMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		return m, m.refresh()
	case refreshMsg:
		return m, m.landed(msg)
	case parkedMsg:
		if m.ask == nil || m.ask.id != msg.id || !m.ask.loading {
			return m, nil
		}
		if msg.err != nil {
			m.mode, m.ask = modeList, nil
			m.status = "no call to decide: " + clean(msg.err.Error())
			return m, m.refresh()
		}
		m.ask.parked, m.ask.loading, m.ask.shown = msg.p, false, m.cfg.Now()
		return m, nil
	case actionMsg:
		if msg.err != nil {
			m.status = "failed: " + clean(msg.err.Error())
		} else {
			m.status = msg.text
		}
		return m, m.refresh()
	case lineMsg:
		if m.rec == nil || m.rec.id != msg.id {
			return m, nil
		}
		if !msg.ok {
			return m, nil
		}
		m.rec.lines = append(m.rec.lines, clean(msg.line))
		if len(m.rec.lines) > maxRecordLines {
			m.rec.lines = append(m.rec.lines[:0:0], m.rec.lines[len(m.rec.lines)-maxRecordLines:]...)
		}
		return m, m.nextLine()
	case recEndMsg:
		if m.rec != nil && m.rec.id == msg.id {
			m.rec.end = "(the record's stream ended)"
			if msg.err != nil && !errors.Is(msg.err, context.Canceled) {
				m.rec.end = "(the record's stream ended: " + clean(msg.err.Error()) + ")"
			}
		}
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
	}
	return m, nil
}

// landed takes a refresh's answer: the rows, or the deployment's failure
// (the last rows stay, greyed).
func (m *Model) landed(msg refreshMsg) tea.Cmd {
	m.busy = false
	now := m.cfg.Now()
	if msg.err != nil {
		if m.down.IsZero() {
			m.down = now
		}
		m.why = clean(firstLine(msg.err.Error()))
	} else {
		m.down, m.why = time.Time{}, ""
		m.rows = msg.rows
		m.counts, m.principals = counts(m.rows), false
		for i := range m.rows {
			if m.rows[i].Principal != "" {
				m.principals = true
				break
			}
		}
		Sort(m.rows, now, m.cfg.Stale)
		m.at = now
		m.loaded = true
		m.apply()
	}
	var cmds []tea.Cmd
	if m.again {
		m.again = false
		cmds = append(cmds, m.refresh())
	}
	cmds = append(cmds, m.tick())
	return tea.Batch(cmds...)
}

// apply recomputes the rows the filter keeps and keeps the selection on
// the same session.
func (m *Model) apply() {
	m.view = m.view[:0]
	lower := strings.ToLower(m.filter)
	for i := range m.rows {
		if matches(&m.rows[i], lower) {
			m.view = append(m.view, i)
		}
	}
	m.sel = 0
	if m.selID != "" {
		for i, ri := range m.view {
			if m.rows[ri].ID == m.selID {
				m.sel = i
				break
			}
		}
	}
	m.place()
}

// place keeps the selection in range and on the screen.
func (m *Model) place() {
	if m.sel >= len(m.view) {
		m.sel = len(m.view) - 1
	}
	if m.sel < 0 {
		m.sel = 0
	}
	n := m.listHeight()
	if m.sel < m.top {
		m.top = m.sel
	}
	if m.sel >= m.top+n {
		m.top = m.sel - n + 1
	}
	if m.top > max(0, len(m.view)-n) {
		m.top = max(0, len(m.view)-n)
	}
	if len(m.view) > 0 {
		m.selID = m.rows[m.view[m.sel]].ID
	}
}

// selected is the selected row (nil when none).
func (m *Model) selected() *Row {
	if m.sel < 0 || m.sel >= len(m.view) {
		return nil
	}
	return &m.rows[m.view[m.sel]]
}

// key handles a key.
func (m *Model) key(k tea.KeyMsg) tea.Cmd {
	if k.Type == tea.KeyCtrlC {
		return tea.Quit
	}
	if k.Type == tea.KeyRunes && len(k.Runes) > 1 && m.mode != modeFilter && m.mode != modeSay {
		// Keys read together come as one message: each is its own key (a
		// "y" typed right after "a" must not count as the answer).
		var cmds []tea.Cmd
		for _, r := range k.Runes {
			cmds = append(cmds, m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt}))
		}
		return tea.Batch(cmds...)
	}
	switch m.mode {
	case modeHelp:
		m.mode = modeList
		return nil
	case modeFilter, modeSay:
		return m.lineKey(k)
	case modeAsk:
		return m.askKey(k)
	case modeRecord:
		switch k.String() {
		case "esc", "left", "h":
			m.rec.cancel()
			m.rec, m.mode = nil, modeList
			return m.refresh()
		case "q":
			return tea.Quit
		}
		return nil
	}
	switch k.String() {
	case "q":
		return tea.Quit
	case "up", "k":
		m.move(-1)
	case "down", "j":
		m.move(1)
	case "pgup", "ctrl+b":
		m.move(-m.listHeight())
	case "pgdown", "ctrl+f", " ":
		m.move(m.listHeight())
	case "home", "g":
		m.move(-len(m.view))
	case "end", "G":
		m.move(len(m.view))
	case "?":
		m.mode = modeHelp
	case "/":
		m.mode, m.input = modeFilter, []rune(m.filter)
	case "esc":
		if m.filter != "" {
			m.filter = ""
			m.apply()
		}
	case "r":
		return m.refresh()
	case "enter":
		return m.open()
	case "a", "d":
		return m.decide(k.String()[0])
	case "s":
		r := m.selected()
		if r == nil {
			return nil
		}
		m.ask = &question{kind: 's', id: r.ID, shown: m.cfg.Now()}
		m.mode = modeAsk
	case "m":
		if m.selected() != nil {
			m.mode, m.input = modeSay, nil
		}
	}
	return nil
}

func (m *Model) move(d int) {
	m.sel += d
	m.place()
}

// decide asks about the selected session's parked call: first read whole.
func (m *Model) decide(kind byte) tea.Cmd {
	r := m.selected()
	if r == nil {
		return nil
	}
	if r.State != StateApproval && r.Parked.IsZero() {
		m.status = "no call of " + clean(r.ID) + " waits for approval"
		return nil
	}
	m.ask = &question{kind: kind, id: r.ID, loading: true}
	m.mode = modeAsk
	src, ctx, id := m.cfg.Source, m.ctx, r.ID
	return func() tea.Msg {
		p, err := src.Parked(ctx, id)
		return parkedMsg{id: id, p: p, err: err}
	}
}

// askKey answers a question: y (once it has been on the screen for
// AskGuard) acts; any other key sends nothing. Keys while it loads, and in
// its first moment, are dropped: typed ahead, they never decide.
func (m *Model) askKey(k tea.KeyMsg) tea.Cmd {
	q := m.ask
	switch k.String() {
	case "up", "k":
		q.top = max(0, q.top-1)
		return nil
	case "down", "j":
		q.top++
		return nil
	case "esc":
		m.mode, m.ask, m.status = modeList, nil, "nothing was sent"
		return nil
	}
	if q.loading || m.cfg.Now().Sub(q.shown) < AskGuard {
		return nil
	}
	m.mode, m.ask = modeList, nil
	if k.String() != "y" && k.String() != "Y" {
		m.status = "declined; nothing was sent"
		return nil
	}
	src, ctx := m.cfg.Source, m.ctx
	id, p := q.id, q.parked
	switch q.kind {
	case 'a', 'd':
		approve := q.kind == 'a'
		m.status = "sending…"
		return func() tea.Msg {
			err := src.Decide(ctx, id, p.CallID, approve)
			verb := "approved"
			if !approve {
				verb = "denied"
			}
			return actionMsg{text: verb + " call " + clean(p.CallID) + " of " + clean(id), err: err}
		}
	default:
		m.status = "stopping…"
		return func() tea.Msg {
			ran, err := src.Stop(ctx, id)
			text := "stopped the running turn of " + clean(id)
			if !ran {
				text = "no turn of " + clean(id) + " was running; nothing was stopped"
			}
			return actionMsg{text: text, err: err}
		}
	}
}

// lineKey edits the filter or the message line.
func (m *Model) lineKey(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyEsc:
		if m.mode == modeFilter {
			m.filter = ""
			m.apply()
		} else {
			m.status = "message abandoned; nothing was sent"
		}
		m.mode, m.input = modeList, nil
		return nil
	case tea.KeyEnter:
		text := string(m.input)
		was := m.mode
		m.mode, m.input = modeList, nil
		if was == modeFilter {
			return nil
		}
		r := m.selected()
		if r == nil || strings.TrimSpace(text) == "" {
			m.status = "nothing to send"
			return nil
		}
		src, ctx, id := m.cfg.Source, m.ctx, r.ID
		m.status = "sending…"
		return func() tea.Msg {
			err := src.Say(ctx, id, text)
			return actionMsg{text: "sent the message to " + clean(id), err: err}
		}
	case tea.KeyBackspace:
		if len(m.input) > 0 {
			m.input = m.input[:len(m.input)-1]
		}
	case tea.KeyCtrlU:
		m.input = m.input[:0]
	case tea.KeySpace:
		m.input = append(m.input, ' ')
	case tea.KeyRunes:
		if len(m.input) < 4096 {
			m.input = append(m.input, k.Runes...)
		}
	default:
		return nil
	}
	if m.mode == modeFilter {
		m.filter = string(m.input)
		m.apply()
	}
	return nil
}

// open shows the selected session's record, live.
func (m *Model) open() tea.Cmd {
	r := m.selected()
	if r == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	rec := &record{id: r.ID, cancel: cancel, ch: make(chan string, 256)}
	m.rec, m.mode = rec, modeRecord
	src, width, id := m.cfg.Source, m.w, r.ID
	start := func() tea.Msg {
		err := src.Open(ctx, id, width, func(s string) {
			select {
			case rec.ch <- s:
			case <-ctx.Done():
			}
		})
		close(rec.ch)
		return recEndMsg{id: id, err: err}
	}
	return tea.Batch(start, m.nextLine())
}

// nextLine waits for the open record's next line.
func (m *Model) nextLine() tea.Cmd {
	rec := m.rec
	return func() tea.Msg {
		s, ok := <-rec.ch
		return lineMsg{id: rec.id, line: s, ok: ok}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

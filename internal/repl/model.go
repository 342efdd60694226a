package repl

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// maxTypeahead bounds the keys kept while a line runs.
const maxTypeahead = 4096

// model is the REPL's bubbletea model. Update only changes state and
// returns commands; all I/O is in those commands.
type model struct {
	cfg    Config
	ctx    context.Context // the REPL's lifetime; runs and completions derive from it
	st     styles
	now    func() time.Time        // the clock (tests set a fake one)
	tick   func(runID int) tea.Cmd // schedules the next spinner frame
	width  int
	height int

	ed      editor
	hist    ring
	srch    search
	pending []string // earlier lines of an incomplete input
	comp    completion
	out     printer
	run     runState

	typeahead  []tea.KeyMsg // keys pressed while a line runs, replayed after
	status     int          // status of the last run
	quitting   bool         // quit once everything is printed
	histWarned bool         // a history error has been shown
}

// Messages of the model's own commands.
type (
	historyLoadedMsg struct {
		entries []string
		err     error
	}
)

func newModel(ctx context.Context, cfg Config) *model {
	if ctx == nil {
		ctx = context.Background()
	}
	return &model{
		cfg:  cfg,
		ctx:  ctx,
		st:   newStyles(cfg.NoColor),
		now:  time.Now,
		tick: spinnerTick,
		hist: newRing(cfg.historyLimit()),
	}
}

// Init prints the banner and loads the history.
func (m *model) Init() tea.Cmd {
	return tea.Batch(m.out.print(m.banner()), m.loadHistory())
}

func (m *model) loadHistory() tea.Cmd {
	path, limit, secrets := m.cfg.HistoryPath, m.cfg.historyLimit(), m.cfg.Secrets
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		entries, err := loadHistory(path, limit, secrets)
		return historyLoadedMsg{entries: entries, err: err}
	}
}

// banner names the agent, the target and the bound session, with a hint
// at the keys.
func (m *model) banner() string {
	hint := m.st.dim.Render("Tab completes, Ctrl-R searches history, Ctrl-D exits.")
	return strings.Join(append(bannerLines(m.cfg), hint), "\n")
}

// bannerLines name the agent, the target and the bound session.
func bannerLines(cfg Config) []string {
	var head string
	switch {
	case cfg.AgentName != "" && cfg.Target != "":
		head = fmt.Sprintf("agsh: connected to %s at %s", cfg.AgentName, cfg.Target)
	case cfg.AgentName != "" || cfg.Target != "":
		head = "agsh: connected to " + cfg.AgentName + cfg.Target
	default:
		head = "agsh"
	}
	session := "session: " + cfg.Session
	if cfg.Session == "" {
		session = "session: none (calls run unbound)"
	}
	return []string{head, session}
}

// Update is the model's transition function.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case pagerDoneMsg:
		return m, m.finishRun()
	case tea.KeyMsg:
		return m, m.key(msg)
	case printedMsg:
		cmd := m.out.printed()
		if m.quitting && m.out.idle() {
			return m, tea.Quit
		}
		return m, tea.Batch(cmd, m.askWhenDrawn())
	case historyLoadedMsg:
		m.hist.prepend(msg.entries)
		return m, m.historyError(msg.err)
	case outputMsg:
		return m, m.output(msg)
	case runDoneMsg:
		return m, m.runDone(msg)
	case spinnerTickMsg:
		return m, m.spinnerTick(msg)
	case completionMsg:
		return m, m.completed(msg)
	case exclusiveMsg:
		return m, exclusive(msg)
	case askMsg:
		return m, m.ask(msg)
	}
	return m, nil
}

// historyError shows the first history error; later ones are dropped so a
// read-only disk does not fill the screen.
func (m *model) historyError(err error) tea.Cmd {
	if err == nil || m.histWarned {
		return nil
	}
	m.histWarned = true
	return m.out.print(m.st.dim.Render("agsh: history: " + err.Error()))
}

// quit ends the REPL once everything queued is printed.
func (m *model) quit() tea.Cmd {
	m.quitting = true
	if m.out.idle() {
		return tea.Quit
	}
	return nil
}

// shutdown stops a run still in flight when the program ends.
func (m *model) shutdown() {
	if m.run.active {
		m.run.cancel()
		m.run.pipe.abort()
	}
}

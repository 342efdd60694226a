package repl

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// Runner executes one complete input (one or more lines of shell source) and
// writes its output, already rendered, to stdout and stderr. It returns the
// status and whether the shell should exit (the `exit` word). ctx is
// cancelled by Ctrl-C while it runs.
type Runner interface {
	Run(ctx context.Context, src string, stdout, stderr io.Writer) (status int, exit bool)
	// Incomplete reports whether src needs more input (an open quote, a
	// trailing |, &&, || or \).
	Incomplete(src string) bool
}

// LinePutter is a Runner that may hand the REPL a line to put on the
// editor once a run ends, ready to edit and run (agsh's :replay). NextLine
// is asked once after each run and returns "" when there is none.
type LinePutter interface {
	NextLine() string
}

// LiveRunner is a Runner that can tell an input whose output goes on until
// it is interrupted (agsh's :tail): the REPL never holds such output for
// the pager.
type LiveRunner interface {
	Live(src string) bool
}

// Completer answers Tab. It may be slow (remote paths): the REPL calls it in
// a tea.Cmd with a short timeout, never blocking typing, and discards answers
// that arrive after the line has changed.
type Completer interface {
	// Complete is given the whole input so far (earlier continuation lines
	// joined with "\n", then the current line) and the cursor as a byte
	// offset into it.
	Complete(ctx context.Context, line string, cursor int) (Completion, error)
}

// Completion is a Completer's answer: the candidates replace
// line[Start:End] (byte offsets into the line given to Complete).
type Completion struct {
	Start, End int
	Candidates []Candidate
}

// Candidate is one completion. Text is what is inserted; Display is what the
// list shows (e.g. "--limit <integer>"; Text when empty); Description is
// shown dimmed beside it.
type Candidate struct {
	Text, Display, Description string
}

// Config is everything the shells need.
type Config struct {
	// AgentName, Target and Session appear in the banner; the prompt is
	// "<agent> ❯ " with the agent's name dimmed. An empty Session means the
	// calls run unbound.
	AgentName, Target, Session string
	// HistoryPath is the history file ("" disables history); see
	// HistoryPathFrom.
	HistoryPath string
	// Secrets are credential values: a line containing any of them is never
	// written to the history, and is echoed with them replaced by ***.
	Secrets []string
	// Redact masks the credentials in what the REPL writes to the terminal
	// past Out (a line's output sent through the pager); the caller passes
	// the masking its Out applies. Nil: every value of Secrets becomes ***.
	Redact func(string) string
	// Escape shows text that may come from the deployment and that the
	// REPL draws itself (completion candidates and their descriptions, the
	// line being edited) so that it cannot drive the terminal or pose as
	// other text: C1 controls, bidi controls and the zero-width space come
	// back as visible escapes. The REPL never gives it C0 controls (it
	// draws them as ^X or spaces). The caller passes the escaping of every
	// other label it writes. Nil: every character outside printable ASCII
	// shows as a \u escape.
	Escape func(string) string

	Runner    Runner
	Completer Completer // nil: Tab does nothing

	In          io.Reader
	Out, ErrOut io.Writer

	// Pager, when set (AGSH_PAGER), is the command a line's output taller
	// than the screen is shown through (sh -c Pager), once the line has
	// run; "" prints everything in the scrollback (the default: the REPL
	// never stalls on a large output).
	Pager string
	// Terminal, when set, is attached to the running REPL so that a line's
	// rendering may have the terminal to itself for a moment (Exclusive).
	Terminal *Terminal
	// NoColor turns off the dimmed styles of the REPL (internal/cli sets it
	// from its color policy); the cursor stays in reverse video.
	NoColor bool
	// CompleteTimeout bounds one Tab; 0 means 2 s.
	CompleteTimeout time.Duration
	// HistoryLimit caps the history file; 0 means 5,000 entries.
	HistoryLimit int
	// Interrupts delivers Ctrl-C to RunPlain. Nil: RunPlain subscribes to
	// os.Interrupt itself for its duration.
	Interrupts <-chan struct{}
}

const (
	defaultCompleteTimeout = 2 * time.Second
	defaultHistoryLimit    = 5000
)

// HistoryPathFrom resolves the history file: $XDG_STATE_HOME/agsh/history
// when XDG_STATE_HOME is an absolute path, else
// <home>/.local/state/agsh/history; "" (no history) when neither is known.
func HistoryPathFrom(getenv func(string) string, home string) string {
	if dir := getenv("XDG_STATE_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "agsh", "history")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "agsh", "history")
}

func (c Config) completeTimeout() time.Duration {
	if c.CompleteTimeout > 0 {
		return c.CompleteTimeout
	}
	return defaultCompleteTimeout
}

// redact is Redact or its default.
func (c Config) redact(s string) string {
	if c.Redact != nil {
		return c.Redact(s)
	}
	return maskSecrets(s, c.Secrets)
}

// escape is Escape or its default.
func (c Config) escape(s string) string {
	if c.Escape != nil {
		return c.Escape(s)
	}
	return escapeNonASCII(s)
}

// escapeNonASCII shows every character outside printable ASCII as a \u
// escape (\U above the basic plane).
func escapeNonASCII(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

func (c Config) historyLimit() int {
	if c.HistoryLimit > 0 {
		return c.HistoryLimit
	}
	return defaultHistoryLimit
}

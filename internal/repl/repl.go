package repl

import (
	"context"
	"errors"

	tea "github.com/charmbracelet/bubbletea"
)

// StatusInterrupted is the status of a shell ended by an interrupt: 130,
// the shell's status for an interrupt (docs/cli.md#exit-status).
const StatusInterrupted = 130

// Run is the bubbletea REPL, for standard input and output that are
// terminals. The whole interface and every result are written to cfg.Out:
// results land on standard output, and a run's standard error is shown in
// order with them (the same terminal). It returns the status of the last
// line run (or the `exit` status) when the user leaves with Ctrl-D or exit;
// 130 when ctx is cancelled or the process is interrupted by a signal.
func Run(ctx context.Context, cfg Config) (status int, err error) {
	if err := cfg.check(); err != nil {
		return 1, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	m := newModel(ctx, cfg)
	p := tea.NewProgram(m,
		tea.WithContext(ctx),
		tea.WithInput(cfg.In),
		tea.WithOutput(cfg.Out),
	)
	detach := cfg.Terminal.attach(p)
	final, err := p.Run()
	detach()
	m.shutdown()
	switch {
	case errors.Is(err, tea.ErrInterrupted):
		return StatusInterrupted, nil
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return StatusInterrupted, nil
	case err != nil:
		return 1, err
	}
	if fm, ok := final.(*model); ok {
		return fm.status, nil
	}
	return m.status, nil
}

func (c Config) check() error {
	switch {
	case c.Runner == nil:
		return errors.New("repl: Config.Runner is nil")
	case c.In == nil:
		return errors.New("repl: Config.In is nil")
	case c.Out == nil:
		return errors.New("repl: Config.Out is nil")
	case c.ErrOut == nil:
		return errors.New("repl: Config.ErrOut is nil")
	}
	return nil
}

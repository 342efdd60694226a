package command

import (
	"context"
	"fmt"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/render"
)

// LateOption is a connection option (--target, --team, --bearer-token,
// --session, --continuation-token: the launch options) given after the
// command name on agsh's command line
// (docs/cli.md#options-after-the-command-name).
type LateOption struct {
	Name string
	// Early is the value the same option was given before the command name
	// ("" when it was not): that one is kept, a late one never re-targets a
	// call by accident.
	Early string
}

// CheckLate is the usage error of a connection option after the command name
// (docs/cli.md#options-after-the-command-name): one whose spelling a property
// of this tool was renamed away from names both spellings; one also given
// before the name is given twice.
func CheckLate(late []LateOption, cmd *Command) error {
	for _, l := range late {
		if f := cmd.Flags.RenamedFrom(l.Name); f != nil {
			return &generated.ShadowedOptionError{Option: l.Name, Flag: f.Name, Property: f.Property()}
		}
	}
	for _, l := range late {
		if l.Early != "" {
			return Usagef("%s is given both before and after the command name; give it once", l.Name)
		}
	}
	return nil
}

// LateTarget reports whether the target in use came from a --target after
// the command name (none was given before it).
func LateTarget(late []LateOption) bool {
	for _, l := range late {
		if l.Name == "--target" && l.Early == "" {
			return true
		}
	}
	return false
}

// CheckLateTarget checks the connection options given after the command name
// against the tool before any of them is used
// (docs/cli.md#options-after-the-command-name): connect connects with those
// options taken out of g (the target then being the environment's, env, or
// the one before the name), making *run, whose detail of the tool is asked.
// When the tool has a property renamed away from one of them (--target-2,
// --session-2…), that option is the usage error naming both spellings and
// nothing is resolved or bound with it; with --help the page of that tool is
// shown instead (g keeps the options out). Otherwise, or when the probe
// fails, g gets them back and they work as usual. A --target after the name
// with no target in the environment is the only target: it is not taken out
// (its resolution error says what it may have meant: WithShadowHint), and a
// tool found through it is checked when its line is parsed (CheckLate).
func CheckLateTarget(ctx context.Context, late []LateOption, g *Globals, env, name string, connect func(context.Context) error, run **catalog.Run) error {
	return checkLateTarget(late, g, env, name, func() (*catalog.ToolDetail, error) {
		if err := connect(ctx); err != nil {
			return nil, err
		}
		return (*run).Tool(ctx, name)
	})
}

// checkLateTarget is CheckLateTarget with the detail fetched by probe.
func checkLateTarget(late []LateOption, g *Globals, env, name string, probe func() (*catalog.ToolDetail, error)) error {
	if name == "help" || g == nil || g.Values == nil {
		return nil
	}
	var held []LateOption
	saved := map[string]string{}
	for _, l := range late {
		if l.Early != "" || l.Name == "--target" && env == "" {
			continue // given twice (CheckLate says so), or the only target
		}
		if _, dup := saved[l.Name]; dup {
			continue
		}
		held = append(held, l)
		saved[l.Name] = g.Values[l.Name]
		delete(g.Values, l.Name)
	}
	if len(held) == 0 {
		return nil
	}
	d, err := probe()
	if err == nil {
		if err = shadowed(d, held); err != nil && g.Help {
			return nil // help for the tool, the options left out
		}
	} else {
		err = nil // the options' own values decide
	}
	for k, v := range saved {
		g.Values[k] = v
	}
	return err
}

// ShadowedTarget is the usage error for a --target after the name of a tool
// that has a target property; nil for any other tool.
func ShadowedTarget(d *catalog.ToolDetail) error {
	return shadowed(d, []LateOption{{Name: "--target"}})
}

// shadowed is the usage error for the late options that a property of the
// tool was renamed away from; nil when there is none.
func shadowed(d *catalog.ToolDetail, late []LateOption) error {
	cmd, err := New(d)
	if err != nil {
		return nil
	}
	return CheckLate(late, cmd)
}

// WithShadowHint adds, to an error resolving a target that came from a
// --target after the command name, that this spelling is agsh's option and
// how a tool's target property is spelled.
func WithShadowHint(late []LateOption, err error) error {
	if err == nil || !LateTarget(late) {
		return err
	}
	return fmt.Errorf("%w (%s)", err, generated.ShadowHint("--target"))
}

// NextPage is the standard-error line announcing a next page of the tool's
// value (docs/rendering.md#next-page-hints): the command for it when a flag
// of the tool takes the cursor, else the cursor; "" when there is no next
// page. args are the words after the command name.
func (c *Command) NextPage(args []string, v render.Value) string {
	cursor := render.NextCursor(v)
	if cursor == "" {
		return ""
	}
	var words []string
	if f := c.Flags.CursorFlag(); f != nil && f.Accepts(cursor) && c.Curated == nil {
		words = append([]string{c.Name}, c.Flags.NextPageArgs(args, f, cursor)...)
	}
	return render.NextPageLine(cursor, words)
}

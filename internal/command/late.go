package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/render"
)

// LateOption is a connection option (--target, --team, --bearer-token,
// --session, --continuation-token: the launch options) given after the
// command name on agsh's command line (issue 14 rule 5).
type LateOption struct {
	Name string
	// Early is the value the same option was given before the command name
	// ("" when it was not): that one is kept, a late one never re-targets a
	// call by accident.
	Early string
}

// LateOptions finds the connection options given after the command name in
// agsh's arguments, and where one was also given before the name, puts the
// earlier value back into g (SplitGlobals keeps the last).
func LateOptions(args []string, g *Globals) []LateOption {
	var late []LateOption
	early := map[string]string{}
	named := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if named && TakesWord(a) {
			i++ // -e's pattern: a value, however it is spelled
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		o, ok := generated.LookupGlobal(name)
		if !ok || o.Scope == generated.BeforeCommand && named || !o.TakesValue() && hasValue {
			named = true // the command name, or a word after it
			continue
		}
		if !o.TakesValue() {
			continue
		}
		if !hasValue && i+1 < len(args) {
			i++
			value = args[i]
		}
		if o.Scope != generated.Launch {
			continue
		}
		if !named {
			early[o.Name] = value
			continue
		}
		late = append(late, LateOption{Name: o.Name, Early: early[o.Name]})
		if e := early[o.Name]; e != "" && g != nil && g.Values != nil {
			g.Values[o.Name] = e
		}
	}
	return late
}

// CheckLate is the usage error of a connection option after the command
// name (cli.md [wave 2]): one whose spelling a property of this tool was
// renamed away from names both spellings; one also given before the name is
// given twice.
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

// CheckLateTarget: with a target in the environment (env), a --target
// after the command name is checked first against the environment's
// deployment: connect connects to the target g names (the late one taken
// out of g meanwhile), making *run, whose detail of the tool is asked. When
// that tool has a target property (renamed --target-2), the option is the
// usage error naming both spellings and nothing is resolved; with --help
// the page of that tool is shown instead (g keeps the environment's
// target). Otherwise the flag beats the environment as usual: g gets it
// back.
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
	if !LateTarget(late) || env == "" || name == "help" {
		return nil
	}
	flag := g.Values["--target"]
	delete(g.Values, "--target")
	d, err := probe()
	if err == nil {
		if err = ShadowedTarget(d); err != nil && g.Help {
			return nil // help for the environment's tool
		}
	} else {
		err = nil // the flag's own target decides
	}
	g.Values["--target"] = flag
	return err
}

// ShadowedTarget is the usage error for a --target after the name of a tool
// that has a target property; nil for any other tool.
func ShadowedTarget(d *catalog.ToolDetail) error {
	cmd, err := New(d)
	if err != nil {
		return nil
	}
	return CheckLate([]LateOption{{Name: "--target"}}, cmd)
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

// NextPage is the standard-error line announcing a next page of a tool's
// value (render.md step 1): the command for it when a flag of the tool
// takes the cursor, else the cursor; "" when there is no next page. args
// are the words after the command name.
func NextPage(cmd *Command, name string, args []string, v render.Value) string {
	cursor := render.NextCursor(v)
	if cursor == "" {
		return ""
	}
	var words []string
	if f := cmd.Flags.CursorFlag(); f != nil && f.Accepts(cursor) && cmd.Curated == nil {
		words = append([]string{name}, cmd.Flags.NextPageArgs(args, f, cursor)...)
	}
	return render.NextPageLine(cursor, words)
}

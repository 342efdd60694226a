package command

import (
	"slices"
	"strings"

	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/render"
)

// Globals are the values of agsh's own options on its command line, by
// name ("--target"); Help is -h/--help.
type Globals struct {
	Values map[string]string
	Help   bool
}

// Get is an option's value ("" when not given).
func (g Globals) Get(name string) string { return g.Values[name] }

// Format is the output format the options ask for (--output), the text
// views when none is given. A value that names no format was refused when
// the options were read.
func (g Globals) Format() render.Format {
	if v, ok := g.Values["--output"]; ok {
		if f, err := FormatOf(render.Text, v); err == nil {
			return f
		}
	}
	return render.Text
}

// UsageError is a command-line mistake: exit status 2 (exitcode's, the
// one type of it internal/meta reports too).
type UsageError = exitcode.UsageError

// Usagef is a UsageError.
func Usagef(format string, args ...any) error { return exitcode.Usagef(format, args...) }

// SplitGlobals is Scan read as agsh's options in force, the command name
// with its words, and the first mistake.
func SplitGlobals(args []string) (g Globals, rest []string, err error) {
	l := Scan(args)
	return l.Globals(), l.Words(), l.Err
}

// TakesWord reports a command flag whose value is the next word, however it
// is spelled: grep's -e PATTERN (a pattern may start with '-', and
// `grep -e --target` searches for "--target").
func TakesWord(arg string) bool { return arg == "-e" }

// BeforeCommandAction answers the option given that replaces the command
// (--version, --man, --completion; "" when none) and checks that it stands alone:
// with at most --output beside it, and no command after it.
func BeforeCommandAction(g Globals, rest []string) (string, error) {
	action := ""
	for _, o := range generated.GlobalOptions {
		if _, ok := g.Values[o.Name]; ok && o.Scope == generated.BeforeCommand {
			if action != "" {
				return "", Usagef("%s and %s cannot be used together", action, o.Name)
			}
			action = o.Name
		}
	}
	if action == "" {
		return "", nil
	}
	for name := range g.Values {
		if name != action && name != "--output" {
			return "", Usagef("%s takes no option but --output; %s is not used with it", action, name)
		}
	}
	if len(rest) > 0 {
		return "", Usagef("%s takes no command (it stands before any command name)", action)
	}
	return action, nil
}

// Options is the table of agsh's own options (generated.GlobalOptions),
// --output's values, placeholder and help made from the table of output
// formats (render.Formats): a new format is one row there.
func Options() []generated.GlobalOption {
	out := slices.Clone(generated.GlobalOptions)
	for i := range out {
		if out[i].Formats {
			out[i] = withFormats(out[i])
		}
	}
	return out
}

// LookupOption is generated.LookupGlobal with the formats filled in.
func LookupOption(name string) (generated.GlobalOption, bool) {
	o, ok := generated.LookupGlobal(name)
	if ok && o.Formats {
		o = withFormats(o)
	}
	return o, ok
}

func withFormats(o generated.GlobalOption) generated.GlobalOption {
	o.Values = render.FormatNames()
	o.Placeholder = render.FormatPlaceholder()
	var data []string
	for _, f := range render.Formats() {
		if f.IsData() {
			data = append(data, strings.ToUpper(f.Name))
		}
	}
	o.Help = "human views (default) or " + strings.Join(data, ", ")
	return o
}

// checkValues checks the values of the options that accept only some.
func checkValues(g Globals) error {
	for _, o := range Options() {
		if v, ok := g.Values[o.Name]; ok {
			if err := checkValue(o, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckOption checks a value of the option called name (nil for a name
// that is none of agsh's options).
func CheckOption(name, value string) error {
	o, ok := LookupOption(name)
	if !ok {
		return nil
	}
	return checkValue(o, value)
}

// checkValue checks one value of an option: one of its Values, or what
// its Check accepts.
func checkValue(o generated.GlobalOption, v string) error {
	if o.Values != nil && !slices.Contains(o.Values, v) {
		return valueError(o.Name, o.Values, v)
	}
	if o.Check != nil {
		if err := o.Check(v); err != nil {
			return Usagef("%s: %v", o.Name, err)
		}
	}
	return nil
}

func valueError(name string, values []string, v string) error {
	return Usagef("%s must be %s, not %q", name, strings.Join(values, " or "), v)
}

// FormatOf is the one rule of a line's format (docs/rendering.md#output-formats):
// f, the run's, replaced by each --output value the line gives, in order.
// A value that names no format is the line's mistake (err, the first), and
// the text views stand until a later value names a format: a line that
// asks for help checks nothing, and writes its page in that format.
func FormatOf(f render.Format, outputs ...string) (render.Format, error) {
	var first error
	for _, v := range outputs {
		g, ok := render.LookupFormat(v)
		if !ok {
			g = render.Text
			if first == nil {
				first = valueError("--output", render.FormatNames(), v)
			}
		}
		f = g
	}
	return f, first
}

// IsLaunchOnly reports an option the shell accepts at launch only.
func IsLaunchOnly(name string) bool {
	o, ok := generated.LookupGlobal(name)
	return ok && o.Scope != generated.Anywhere
}

// LaunchOnlyError is the shell's refusal of a launch-only option on a
// command line.
func LaunchOnlyError(name string) error {
	return Usagef("%s is set when the shell starts (agsh %s … ); it cannot change on a command line", name, name)
}

// LineOutput applies a tool line's global options, in order, to f (the
// run's choice): --output names a format, any other value an error; in the
// shell (inShell) a launch-only option is an error.
func LineOutput(globals []generated.Global, f render.Format, inShell bool) (render.Format, error) {
	var err error
	for _, g := range globals {
		if inShell && IsLaunchOnly(g.Name) {
			return f, LaunchOnlyError(g.Name)
		}
		if g.Name == "--output" {
			if f, err = FormatOf(f, g.Value); err != nil {
				return f, err
			}
			continue
		}
		if o, ok := LookupOption(g.Name); ok {
			if err := checkValue(o, g.Value); err != nil {
				return f, err
			}
		}
	}
	return f, nil
}

// HelpOutput is LineOutput for a line that asks for help: nothing is
// checked (FormatOf's format whatever its error).
func HelpOutput(globals []generated.Global, f render.Format) render.Format {
	var outputs []string
	for _, g := range globals {
		if g.Name == "--output" {
			outputs = append(outputs, g.Value)
		}
	}
	f, _ = FormatOf(f, outputs...)
	return f
}

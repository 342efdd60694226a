package command

import (
	"slices"
	"strings"

	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/render"
)

// Line is one scan of a command line (docs/cli.md#where-options-may-stand):
// agsh's own options given on it, in order and where they stood, the
// command name and the command's own words. Everything that asks what a
// line says — the options in force, the output format, the connection
// options given after the command name, a tool's words before a pipe —
// reads this value; the words are walked once, by scan.
type Line struct {
	// Given are agsh's options, in the order given.
	Given []Given
	// Name is the command name ("" when the line has none).
	Name string
	// Args are the command's words after its name: everything that is not
	// one of agsh's options, in order; "--" and every word after it are
	// the command's.
	Args []string
	// Err is the line's first mistake: an option without its value, or
	// with a value it does not accept.
	Err error
	// words are the words scanned (ValueArgs gives them back as they were).
	words []string
	// kept: a word after grep's -e spelled like one of agsh's options
	// stands among Args (TakesWord), so Args are not free of agsh's
	// spellings (see Taken).
	kept bool
}

// Given is one of agsh's options on a line.
type Given struct {
	Option generated.GlobalOption
	// Value is the option's value, "true" for one that takes none.
	Value string
	// AfterName: it stood after the command name.
	AfterName bool
}

// Scan scans agsh's own arguments (the program's name left out): its
// options before "--", anywhere, except that an option that replaces the
// command (--version) counts only before the command name, and that the
// word after grep's -e is the command's whatever its spelling (TakesWord).
// A tool property never takes an option's spelling (docs/mapping.md#names),
// so any word spelled like one is agsh's.
func Scan(args []string) Line {
	return scan(args, true, nil, eAfterName)
}

// ScanWords scans a meta command's words (after its name, one-shot or in
// the shell) for the options agsh reads on every command line, --output:
// the others are left to the command, which parses or refuses them. An
// --output without a value stays a word, for the command to refuse; values
// are not checked (the caller parses the --output it reads). A meta
// command has no -e of grep's: every --output is agsh's (ScanMetaWords
// reads a wrapped command line).
func ScanWords(words []string) Line {
	return scan(words, false, []string{"--output"}, eNever)
}

// ScanToolWords is ScanWords for a tool's words after its name (the
// shell's words of a tool before a pipe): the word after grep's -e is the
// command's whatever its spelling (TakesWord), as on a one-shot line, so
// `grep -e --output json /repo | head` searches for "--output".
func ScanToolWords(words []string) Line {
	return scan(words, false, []string{"--output"}, eAlways)
}

// eRule is where a scan reads the word after -e as the command's
// (TakesWord).
type eRule int

const (
	eAfterName eRule = iota // after the command name (Scan)
	eNever                  // nowhere: a meta command's own words
	eAlways                 // everywhere: a tool's words after its name
	// eAfterWord: after the first word that is not a flag, a wrapped
	// command line's name (:curl grep -e --output json /repo).
	eAfterWord
)

// OptionValue is the last value a command's words give one of agsh's
// options that stands on every command line (--input-json, --timeout), as
// ScanWords reads --output; present false when they give none.
func OptionValue(words []string, name string) (value string, present bool) {
	// The word after grep's -e is the command's (TakesWord), whatever it
	// is spelled like: `grep -e --input-json` searches for "--input-json".
	for i := 0; i < len(words) && words[i] != "--"; i++ {
		if TakesWord(words[i]) && i+1 < len(words) {
			rest := append(append([]string(nil), words[:i]...), words[i+2:]...)
			return OptionValue(rest, name)
		}
	}
	for _, g := range scan(words, false, []string{name}, eNever).Given {
		if g.Option.Name == name {
			value, present = g.Value, true
		}
	}
	return value, present
}

// scan is the one walker of a command line. named: the first word that is
// not an option is the command name; only: the options taken (nil: all of
// agsh's), the others left as words, and an option missing its value then
// left as a word too; rule: where the word after -e is the command's.
func scan(args []string, named bool, only []string, rule eRule) Line {
	l := Line{words: args}
	hasName := !named // no name is looked for: every word is an argument
	word := false     // a word not a flag was kept among Args (eAfterWord)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			l.Args = append(l.Args, args[i:]...)
			break
		}
		takes := rule == eAlways || rule == eAfterName && named && hasName || rule == eAfterWord && word
		if takes && TakesWord(a) && i+1 < len(args) {
			l.Args = append(l.Args, a, args[i+1])
			name, _, _ := strings.Cut(args[i+1], "=")
			if _, ok := generated.LookupGlobal(name); ok {
				l.kept = true
			}
			i++
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		o, ok := generated.LookupGlobal(name)
		if ok && only != nil && !slices.Contains(only, o.Name) {
			ok = false
		}
		switch {
		case !ok || o.Scope == generated.BeforeCommand && hasName || !o.TakesValue() && hasValue:
			if !hasName {
				l.Name, hasName = a, true
				continue
			}
			l.Args = append(l.Args, a)
			word = word || !strings.HasPrefix(a, "-")
			continue
		case !o.TakesValue():
			value = "true"
		case !hasValue && i+1 >= len(args):
			if only != nil {
				l.Args = append(l.Args, a) // for the command to refuse
				continue
			}
			if l.Err == nil {
				l.Err = Usagef("%s needs a value", name)
			}
			return l
		case !hasValue:
			i++
			value = args[i]
		}
		l.Given = append(l.Given, Given{Option: o, Value: value, AfterName: named && hasName})
	}
	if l.Err == nil && only == nil {
		l.Err = checkValues(l.values())
	}
	return l
}

// Taken reports that the scan of agsh's command line (Scan) left none of
// agsh's spellings among the command's words: it found the command name,
// and every one of its options before "--" was taken as agsh's. Those
// words then need no second walk (ScannedWords): ScanWords and OptionValue
// would find nothing in them. Only a word after grep's -e spelled like one
// of agsh's options is left among them (TakesWord).
func (l Line) Taken() bool { return l.Err == nil && l.Name != "" && !l.kept }

// ScannedWords is the Line of a command's words that a Taken Scan already
// read (agsh's options taken out), as ScanWords would read them, without
// walking them again: no option of agsh's, every word the command's.
func ScannedWords(words []string) Line { return Line{Args: words, words: words} }

// values are the options in force: the last value of each, except that a
// connection option given both before and after the command name keeps
// the earlier value (a late one never re-targets a call by accident).
func (l Line) values() Globals {
	g := Globals{Values: map[string]string{}}
	early := map[string]bool{}
	for _, o := range l.Given {
		if o.Option.Scope == generated.Launch && o.AfterName && early[o.Option.Name] {
			continue
		}
		if !o.AfterName && o.Value != "" {
			early[o.Option.Name] = true
		}
		g.Values[o.Option.Name] = o.Value
		g.Help = g.Help || o.Option.Name == "--help"
	}
	return g
}

// Globals are the options in force on the line.
func (l Line) Globals() Globals { return l.values() }

// Words are the command name and its words: the line without agsh's
// options.
func (l Line) Words() []string {
	if l.Name == "" {
		return l.Args
	}
	return append([]string{l.Name}, l.Args...)
}

// Late are the connection options (the launch options) given after the
// command name, each with the value the same option was given before it
// ("" when it was not).
func (l Line) Late() []LateOption {
	var late []LateOption
	early := map[string]string{}
	for _, o := range l.Given {
		if o.Option.Scope != generated.Launch || !o.Option.TakesValue() {
			continue
		}
		if !o.AfterName {
			early[o.Option.Name] = o.Value
			continue
		}
		late = append(late, LateOption{Name: o.Option.Name, Early: early[o.Option.Name]})
	}
	return late
}

// Output is the value of the line's last --output, present false when it
// has none.
func (l Line) Output() (value string, present bool) {
	for _, o := range l.Given {
		if o.Option.Name == "--output" {
			value, present = o.Value, true
		}
	}
	return value, present
}

// Format is the format the line asks for (FormatOf): f, the run's, when it
// gives no --output; err when a value names no format.
func (l Line) Format(f render.Format) (render.Format, error) {
	var outputs []string
	for _, o := range l.Given {
		if o.Option.Name == "--output" {
			outputs = append(outputs, o.Value)
		}
	}
	return FormatOf(f, outputs...)
}

// ValueArgs are the words of a tool before a pipe: its value is what the
// filters get, a curated command's reformatted output whatever the --output
// (docs/shell.md#values: read /repo/config.json | jq .version works), so
// --output text replaces any --output given, unless help is asked for or the
// value is bad (the tool then reports it): then the words as scanned.
func (l Line) ValueArgs() []string {
	if v, _ := l.Output(); v != "" {
		if _, ok := render.LookupFormat(v); !ok {
			return l.words
		}
	}
	for i := 0; i < len(l.Args); i++ {
		arg := l.Args[i]
		if arg == "--" {
			break
		}
		if TakesWord(arg) {
			i++ // grep -e --help searches for "--help"
			continue
		}
		if arg == "-h" || arg == "--help" {
			return l.words
		}
	}
	return append([]string{"--output", "text"}, l.Args...)
}

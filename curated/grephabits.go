package curated

import (
	"fmt"
	"strings"

	"github.com/agsh-dev/agsh/generated"
)

// Unix grep habits the curated grep accepts (docs/file-tools.md#grep-habits):
// -n and -r are what agsh already prints and do nothing; -l and -c are POSIX
// shorthands for --output-mode files_with_matches and count; -e PAT gives a
// pattern that may start with "-". They may be bundled (-rn, -rli) with the
// shape's own valueless short flags (-i).

// Shorthand is one short option a curated command accepts on top of its
// flags, for help pages.
type Shorthand struct {
	Term, Description string
}

// Shorthands lists the habits the command accepts, for its help page; nil
// for a command without habits or a shape that fell back.
func (s *Shape) Shorthands() []Shorthand {
	if h := s.habits(); h != nil && s.Bound {
		return h.shorthands(s)
	}
	return nil
}

// grepHabits are the curated grep's habits.
type grepHabits struct{}

func (grepHabits) optionError(flag string) error { return grepOptionError(flag) }

func (grepHabits) rewrite(s *Shape, args []string) ([]string, string, bool, error) {
	return s.grepHabits(args)
}

func (grepHabits) shorthands(s *Shape) []Shorthand {
	var out []Shorthand
	if s.Flags.Lookup("--output-mode") != nil {
		out = append(out,
			Shorthand{"-l", "Print only the paths of files with a match: the same as --output-mode files_with_matches."},
			Shorthand{"-c", "Print the count of matching lines per file: the same as --output-mode count."})
	}
	return append(out,
		Shorthand{"-e <pattern>", "The pattern, even when it starts with -."},
		Shorthand{"-n, -r", "Accepted and ignored: agsh always prints line numbers and searches directories recursively."})
}

// grepModes are the output modes of the -l and -c shorthands.
var grepModes = map[byte]string{'l': "files_with_matches", 'c': "count"}

// grepHabits rewrites a curated grep command line: it drops -n and -r,
// turns -l/-c into --output-mode, and takes out -e's pattern (returned,
// with ok set). Anything it does not know is left for the flag parser.
func (s *Shape) grepHabits(args []string) (out []string, pattern string, ok bool, err error) {
	out = make([]string, 0, len(args)+2)
	mode, modeFrom, modeFlag := "", "", false
	setMode := func(letter byte) error {
		m := grepModes[letter]
		if mode != "" && mode != m {
			return &UsageError{fmt.Sprintf("grep: -%c and %s both set the output mode; give one", letter, modeFrom)}
		}
		mode, modeFrom = m, "-"+string(letter)
		return nil
	}
	var tail []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			tail = args[i:]
			break
		}
		if strings.HasPrefix(a, "--") {
			name, _, hasVal := strings.Cut(a, "=")
			if name == "--output-mode" {
				modeFlag = true
			}
			out = append(out, a)
			f := s.Flags.Lookup(name)
			if !hasVal && i+1 < len(args) && (f != nil && f.TakesValue() || generated.IsGlobalWithValue(name)) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a)
			continue
		}
		if f := s.Flags.Lookup(a[:2]); f != nil && !(f.Boolean() && s.habitBundle(a[1:])) {
			out = append(out, a)
			if len(a) == 2 && f.TakesValue() && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		if a[1] == 'e' {
			if ok {
				return nil, "", false, &UsageError{"grep: give one -e pattern"}
			}
			switch {
			case len(a) > 2:
				pattern = strings.TrimPrefix(a[2:], "=")
			case i+1 < len(args):
				i++
				pattern = args[i]
			default:
				return nil, "", false, &UsageError{"grep: -e needs a pattern: grep -e <pattern> [path]"}
			}
			ok = true
			continue
		}
		if !s.habitBundle(a[1:]) {
			out = append(out, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			switch c := a[j]; c {
			case 'n', 'r':
			case 'l', 'c':
				if err := setMode(c); err != nil {
					return nil, "", false, err
				}
			default:
				out = append(out, "-"+string(c))
			}
		}
	}
	if mode != "" {
		if modeFlag {
			return nil, "", false, &UsageError{fmt.Sprintf("grep: %s and --output-mode both set the output mode; give one", modeFrom)}
		}
		if s.Flags.Lookup("--output-mode") == nil {
			return nil, "", false, &UsageError{fmt.Sprintf("grep: %s needs an output mode, and this deployment's grep has none", modeFrom)}
		}
		out = append(out, "--output-mode", mode)
	}
	return append(out, tail...), pattern, ok, nil
}

// habitBundle reports whether letters are all grep habits (n, r, l, c) or
// the shape's own valueless short flags, with at least one habit.
func (s *Shape) habitBundle(letters string) bool {
	habit := false
	for i := 0; i < len(letters); i++ {
		c := letters[i]
		switch {
		case c == 'n' || c == 'r' || c == 'l' || c == 'c':
			habit = true
		default:
			f := s.Flags.Lookup("-" + string(c))
			if f == nil || f.TakesValue() {
				return false
			}
		}
	}
	return habit
}

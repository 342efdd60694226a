package curated

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/generated"
)

// Unix grep habits the curated grep accepts (docs/file-tools.md#grep-habits):
// -n and -r are what agsh already prints and do nothing; -l and -c are
// POSIX shorthands for --output-mode files_with_matches and count; -e PAT
// gives a pattern that may start with "-"; -E does nothing (the pattern is
// RE2 already), -F takes it as a fixed string and -w matches whole words
// (both by rewriting the pattern sent). They may be bundled (-rn, -rli,
// -iw) with the shape's own valueless short flags (-i).

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

func (grepHabits) optionError(_ *Shape, flag string) error { return grepOptionError(flag) }

func (grepHabits) rewrite(s *Shape, args []string) (habitLine, error) {
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
		Shorthand{"-F", "Take the pattern as a fixed string, not a regular expression (agsh quotes it)."},
		Shorthand{"-w", "Match only whole words (agsh puts \\b around the pattern)."},
		Shorthand{"-n, -r, -E", "Accepted and ignored: agsh always prints line numbers and searches directories recursively, and the pattern is RE2 already."})
}

// grepModes are the output modes of the -l and -c shorthands.
var grepModes = map[byte]string{'l': "files_with_matches", 'c': "count"}

// grepLetters are the habits a bundle may hold; the shape's own valueless
// short flags may stand beside them.
const grepLetters = "nrlcEFw"

// grepHabits rewrites a curated grep command line: it drops -n, -r and -E,
// turns -l/-c into --output-mode, takes out -e's pattern, and notes -F and
// -w for the pattern once it is bound. Anything it does not know is left for
// the flag parser.
func (s *Shape) grepHabits(args []string) (habitLine, error) {
	var hl habitLine
	out := make([]string, 0, len(args)+2)
	mode, modeFrom, modeFlag := "", "", false
	fixed, words, extended := false, false, false
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
		if f := s.Flags.Lookup(a[:2]); f != nil && !(f.Boolean() && s.habitBundle(a[1:], grepLetters)) {
			out = append(out, a)
			if len(a) == 2 && f.TakesValue() && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		if a[1] == 'e' {
			if hl.hasOperand {
				return hl, &UsageError{"grep: give one -e pattern"}
			}
			switch {
			case len(a) > 2:
				hl.operand = strings.TrimPrefix(a[2:], "=")
			case i+1 < len(args):
				i++
				hl.operand = args[i]
			default:
				return hl, &UsageError{"grep: -e needs a pattern: grep -e <pattern> [path]"}
			}
			hl.hasOperand = true
			continue
		}
		if !s.habitBundle(a[1:], grepLetters) {
			out = append(out, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			switch c := a[j]; c {
			case 'n', 'r':
			case 'E':
				extended = true
			case 'F':
				fixed = true
			case 'w':
				words = true
			case 'l', 'c':
				if err := setMode(c); err != nil {
					return hl, err
				}
			default:
				out = append(out, "-"+string(c))
			}
		}
	}
	if fixed && extended {
		return hl, &UsageError{"grep: -E and -F both say how the pattern reads; give one"}
	}
	if mode != "" {
		if modeFlag {
			return hl, &UsageError{fmt.Sprintf("grep: %s and --output-mode both set the output mode; give one", modeFrom)}
		}
		if s.Flags.Lookup("--output-mode") == nil {
			return hl, &UsageError{fmt.Sprintf("grep: %s needs an output mode, and this deployment's grep has none", modeFrom)}
		}
		out = append(out, "--output-mode", mode)
	}
	if fixed || words {
		hl.finish = func(s *Shape, input map[string]any, _ *ReformatOptions) {
			field := s.Operands[0].Field // the pattern
			p, ok := input[field].(string)
			if !ok {
				return
			}
			if fixed {
				p = regexp.QuoteMeta(p)
			}
			if words {
				p = `\b(?:` + p + `)\b`
			}
			input[field] = p
		}
	}
	hl.args = append(out, tail...)
	return hl, nil
}

// habitBundle reports whether letters are all habits (of letters) or the
// shape's own valueless short flags, with at least one habit.
func (s *Shape) habitBundle(letters, habits string) bool {
	habit := false
	for i := 0; i < len(letters); i++ {
		c := letters[i]
		switch {
		case strings.IndexByte(habits, c) >= 0 && s.Flags.Lookup("-"+string(c)) == nil:
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

// readHabits are the curated read's habits: -n numbers the lines as cat -n
// does (the deployment's numbers), and PATH:N (as grep prints a match) reads
// PATH from line N, numbered, when no file PATH:N exists (Spec.Retry).
type readHabits struct{}

func (readHabits) optionError(*Shape, string) error { return nil }

func (readHabits) rewrite(s *Shape, args []string) (habitLine, error) {
	var hl habitLine
	for i, a := range args {
		if a == "--" {
			hl.args = append(hl.args, args[i:]...)
			break
		}
		if a == "-n" && s.Flags.Lookup("-n") == nil {
			hl.finish = func(_ *Shape, _ map[string]any, o *ReformatOptions) { o.Numbers = true }
			continue
		}
		hl.args = append(hl.args, a)
	}
	return hl, nil
}

func (readHabits) shorthands(s *Shape) []Shorthand {
	out := []Shorthand{{"-n", "Number the lines as cat -n does, with the deployment's own numbers (<path>:<line> reads from a line, numbered)."}}
	if readOffsetField(s) != "" {
		out = append(out, Shorthand{"<path>:<line>", "The form grep prints: when no file of that name exists, read <path> from that line, numbered (read main.go:42)."})
	}
	return out
}

// readOffsetField is the field of read's --offset flag, "" when the
// deployment's read has none.
func readOffsetField(s *Shape) string {
	for _, f := range s.Flags.Flags {
		if len(f.Path) == 1 && f.Path[0] == "offset" && f.Type == "integer" {
			return f.Path[0]
		}
	}
	return ""
}

// missingFile is the start of the workspace tools' error text for a path
// that does not exist (docs/file-tools.md#the-workspace).
const missingFile = "No such file or directory"

// readAtLine is read's Retry: a path operand "PATH:N" that the deployment
// answered does not exist is read as PATH from line N, numbered — unless
// --offset was given too.
func readAtLine(s *Shape, c *Call, errText string) (*Call, bool) {
	off := readOffsetField(s)
	if !strings.HasPrefix(errText, missingFile) || off == "" || len(s.Operands) == 0 || c == nil || c.Parsed == nil {
		return nil, false
	}
	field := s.Operands[0].Field
	p, _ := c.Parsed.Input[field].(string)
	path, line, ok := splitLine(p)
	if _, given := c.Parsed.Input[off]; !ok || given {
		return nil, false
	}
	input := make(map[string]any, len(c.Parsed.Input)+1)
	for k, v := range c.Parsed.Input {
		input[k] = v
	}
	input[field], input[off] = path, json.Number(strconv.Itoa(line))
	parsed := *c.Parsed
	parsed.Input = input
	ro := c.Reformat
	ro.Numbers = true
	return &Call{Parsed: &parsed, Input: parsed.JSON(), Reformat: ro}, true
}

// splitLine splits "PATH:N" (N a line number from 1), as grep prints a
// match's place.
func splitLine(p string) (string, int, bool) {
	i := strings.LastIndexByte(p, ':')
	if i <= 0 || i == len(p)-1 {
		return "", 0, false
	}
	n, err := strconv.Atoi(p[i+1:])
	if err != nil || n < 1 || p[i+1] == '+' {
		return "", 0, false
	}
	return p[:i], n, true
}

// lsHabits are the curated ls's habits: -a shows hidden entries when the
// deployment's ls has a field for them (hiddenFields), else it is refused
// with a hint; -1 (one name a line) is what agsh prints.
type lsHabits struct{}

// hiddenFields are the boolean fields of an ls that shows hidden entries.
var hiddenFields = []string{"include_hidden", "show_hidden", "hidden", "all"}

// hiddenFlag is the flag of ls's field for hidden entries, nil when none.
func hiddenFlag(s *Shape) *generated.Flag {
	for _, name := range hiddenFields {
		for _, f := range s.Flags.Flags {
			if len(f.Path) == 1 && f.Path[0] == name && f.Boolean() {
				return f
			}
		}
	}
	return nil
}

func (lsHabits) optionError(s *Shape, flag string) error {
	switch flag {
	case "-a", "-A":
		return &UsageError{fmt.Sprintf("ls: %s: this deployment's ls always leaves out dot-files (and what .gitignore excludes), "+
			"and has no field to show them; read one by its name (read /repo/.gitignore)", flag)}
	case "-l":
		return &UsageError{"ls: -l: the deployment's ls lists names only; directories end in /"}
	}
	return nil
}

func (lsHabits) rewrite(s *Shape, args []string) (habitLine, error) {
	var hl habitLine
	hidden := hiddenFlag(s)
	for i, a := range args {
		if a == "--" {
			hl.args = append(hl.args, args[i:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' || s.Flags.Lookup(a[:2]) != nil {
			hl.args = append(hl.args, a)
			continue
		}
		letters := a[1:]
		known := true
		for _, c := range letters {
			switch {
			case c == '1':
			case (c == 'a' || c == 'A') && hidden != nil:
			default:
				known = false
			}
		}
		if !known {
			hl.args = append(hl.args, a)
			continue
		}
		if strings.ContainsAny(letters, "aA") {
			hl.args = append(hl.args, hidden.Name)
		}
	}
	return hl, nil
}

func (lsHabits) shorthands(s *Shape) []Shorthand {
	if f := hiddenFlag(s); f != nil {
		return []Shorthand{{"-a", "Show hidden entries: the same as " + f.Name + "."}}
	}
	return nil
}

package syntax

import (
	"strings"
	"unicode"
)

// Print returns canonical source for a script: one list per line, single spaces
// around operators, and words quoted only when they need it. Parsing the result
// gives back the same script (positions aside).
func Print(s *Script) string {
	var b strings.Builder
	for _, l := range s.Lists {
		printList(&b, l)
		b.WriteByte('\n')
	}
	return b.String()
}

func printList(b *strings.Builder, l *List) {
	for i, pl := range l.Pipelines {
		if i > 0 {
			op := OpSemi
			if i-1 < len(l.Ops) {
				op = l.Ops[i-1]
			}
			if op == OpSemi {
				b.WriteString("; ")
			} else {
				b.WriteString(" " + op.String() + " ")
			}
		}
		for j, c := range pl.Commands {
			if j > 0 {
				b.WriteString(" | ")
			}
			for k, w := range c.Words {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(Quote(w.Value, k == 0))
			}
		}
	}
}

// Quote returns s written as one word: bare when every character is plain, else
// in single quotes (a single quote inside is written as quote, backslash, quote,
// quote). commandName asks for a word that would otherwise read as an assignment
// (NAME=…) to be quoted too.
func Quote(s string, commandName bool) string {
	if s != "" && s[0] != '#' && plainWord(s) {
		if _, ok := assignment(token{val: s, litLen: len(s)}); !ok || !commandName {
			return s
		}
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func plainWord(s string) bool {
	for _, r := range s {
		if r < 0x80 {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
				strings.ContainsRune("-_./:,+=@%^*?~{}[]!$#", r)) {
				return false
			}
			continue
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

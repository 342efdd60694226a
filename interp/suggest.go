package interp

import (
	"slices"
	"strings"
)

// unknownCommand builds the message for a command name that names nothing.
func unknownCommand(name string, candidates []string) string {
	s := Suggest(name, candidates)
	msg := "unknown command \"" + name + "\""
	switch len(s) {
	case 0:
		return msg + "; run help for the list of commands"
	case 1:
		return msg + "; did you mean " + s[0] + "?"
	}
	return msg + "; did you mean " + strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1] + "?"
}

// Suggest returns up to three candidates that name is probably a misspelling of:
// those within Damerau–Levenshtein distance 2 (and less than name's length), then
// those one of which is a prefix of the other (two characters at least), then those
// sharing a stem of four characters or more. Only the best-ranked kind is given
// (a near misspelling hides the merely related names), alphabetically.
func Suggest(name string, candidates []string) []string {
	type scored struct {
		name string
		dist int
	}
	var found []scored
	seen := make(map[string]bool)
	rn := []rune(name)
	for _, c := range candidates {
		if c == name || seen[c] {
			continue
		}
		seen[c] = true
		rc := []rune(c)
		d := distance(rn, rc)
		switch {
		case d <= 2 && d < len(rn):
		case len(rn) >= 2 && len(rc) >= 2 && (strings.HasPrefix(c, name) || strings.HasPrefix(name, c)):
			d = 3 // one a prefix of the other: after near misspellings
		case commonPrefix(rn, rc) >= 4:
			d = 4 // a shared stem such as "datadog_"
		default:
			continue
		}
		found = append(found, scored{c, d})
	}
	slices.SortFunc(found, func(a, b scored) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.name, b.name)
	})
	out := make([]string, 0, 3)
	for i := 0; i < len(found) && i < 3 && found[i].dist == found[0].dist; i++ {
		out = append(out, found[i].name)
	}
	return out
}

// distance is the optimal-string-alignment Damerau–Levenshtein distance
// (insertions, deletions, substitutions and adjacent transpositions).
func distance(a, b []rune) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func commonPrefix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

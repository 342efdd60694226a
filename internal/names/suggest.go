package names

import (
	"slices"
	"strings"
)

// maxSuggestLen bounds the runes compared, so a huge word costs little.
const maxSuggestLen = 128

// Suggest returns up to three commands that name is probably a misspelling
// of. Names are compared without leading dashes and case. The ranks, best
// first: within Damerau–Levenshtein distance 2 (and less than the length of
// both, so "-a" is not offered for "ls"), closest first; one a prefix of the
// other (two characters at least); sharing a stem of four characters or more
// ("datadog_"). Only the best rank found is given (distance 1 hides distance
// 2, a near misspelling the merely related names), alphabetically. Candidates
// keep their spelling; name itself is never offered.
func Suggest(name string, candidates []string) []string {
	found := ranked(name, candidates)
	slices.SortStableFunc(found, func(a, b scored) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return strings.Compare(a.cand, b.cand)
	})
	out := make([]string, 0, 3)
	for i := 0; i < len(found) && i < 3 && found[i].rank == found[0].rank; i++ {
		out = append(out, found[i].cand)
	}
	return out
}

// SuggestFlag is Suggest for the flags of one command, whose order is the
// schema's: the near misspellings and then the prefixes (no stems), up to
// three, each rank in the candidates' order.
func SuggestFlag(name string, flags []string) []string {
	found := ranked(name, flags)
	slices.SortStableFunc(found, func(a, b scored) int { return a.rank - b.rank })
	var out []string
	for i := 0; i < len(found) && len(out) < 3; i++ {
		if found[i].rank < rankStem {
			out = append(out, found[i].cand)
		}
	}
	return out
}

type scored struct {
	cand string
	rank int
}

// ranked scores every candidate that could be meant, in the candidates' order.
func ranked(name string, candidates []string) []scored {
	n := norm(name)
	if len(n) == 0 {
		return nil
	}
	var found []scored
	seen := make(map[string]bool)
	for _, c := range candidates {
		cn := norm(c)
		if c == name || seen[c] || len(cn) == 0 {
			continue
		}
		if rank, ok := rankOf(n, cn); ok {
			seen[c] = true
			found = append(found, scored{c, rank})
		}
	}
	return found
}

const (
	rankPrefix = 3
	rankStem   = 4
)

// rankOf scores a candidate: its distance (0–2) when a near misspelling, 3
// when one is a prefix of the other, 4 for a shared stem.
func rankOf(n, c []rune) (int, bool) {
	d := distance(n, c)
	switch {
	case d <= 2 && d < len(n) && d < len(c):
		return d, true
	case len(n) >= 2 && len(c) >= 2 && (hasPrefix(c, n) || hasPrefix(n, c)):
		return rankPrefix, true
	case commonPrefix(n, c) >= 4:
		return rankStem, true
	}
	return 0, false
}

func norm(s string) []rune {
	r := []rune(strings.ToLower(strings.TrimLeft(s, "-")))
	if len(r) > maxSuggestLen {
		r = r[:maxSuggestLen]
	}
	return r
}

func hasPrefix(s, p []rune) bool { return len(s) >= len(p) && slices.Equal(s[:len(p)], p) }

func commonPrefix(a, b []rune) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
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

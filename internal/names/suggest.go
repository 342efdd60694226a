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
// both, so "-a" is not offered for "ls"), closest first — a tool of a group
// (a connection's tools are named group_tool) counting as that close when
// the name is its tool part, just after the names at the same distance
// (list_monitors: datadog_list_monitors); one a prefix of the other (two
// characters at least); sharing a stem of four characters or more
// ("datadog_"). Only the best rank found is given (distance 1 hides distance
// 2, a near misspelling the merely related names); within a rank the names
// of the same group as name come first, then alphabetically. Candidates
// keep their spelling; name itself is never offered.
func Suggest(name string, candidates []string) []string {
	found := rankedGroups(name, candidates)
	group := groupOf(name)
	slices.SortStableFunc(found, func(a, b scored) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if ga, gb := group != "" && groupOf(a.cand) == group, group != "" && groupOf(b.cand) == group; ga != gb {
			if ga {
				return -1
			}
			return 1
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

// The ranks: twice the distance of a near misspelling (0–4), one more for
// a group's tool whose tool part is that close (1–5), then a prefix, then
// a stem.
const (
	rankPrefix = 6
	rankStem   = 7
)

// rankedGroups is ranked, a group's tool ranked by its tool part too when
// that is closer.
func rankedGroups(name string, candidates []string) []scored {
	found := ranked(name, candidates)
	n := norm(name)
	if len(n) == 0 {
		return found
	}
	at := make(map[string]int, len(found))
	for i, f := range found {
		at[f.cand] = i
	}
	for _, c := range candidates {
		if c == name || groupOf(c) == "" {
			continue
		}
		cn := norm(c)
		part := cn[slices.Index(cn, '_')+1:] // the tool part, after the group
		d := distance(n, part)
		if len(part) == 0 || d > 2 || d >= len(n) || d >= len(part) {
			continue
		}
		best := 2*d + 1
		if i, ok := at[c]; ok {
			found[i].rank = min(found[i].rank, best)
			continue
		}
		at[c] = len(found)
		found = append(found, scored{c, best})
	}
	return found
}

// groupOf is the group part of a name (before its first "_": "datadog" of
// datadog_list_monitors), "" when it has none.
func groupOf(name string) string {
	g, _, ok := strings.Cut(strings.ToLower(strings.TrimLeft(name, "-")), "_")
	if !ok || g == "" {
		return ""
	}
	return g
}

// rankOf scores a candidate: twice its distance (0–4) when a near
// misspelling, rankPrefix when one is a prefix of the other, rankStem for a
// shared stem.
func rankOf(n, c []rune) (int, bool) {
	d := distance(n, c)
	switch {
	case d <= 2 && d < len(n) && d < len(c):
		return 2 * d, true
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

package generated

import (
	"sort"
	"strings"
)

// maxSuggestLen bounds the names compared, so a huge word costs little.
const maxSuggestLen = 128

// Suggest returns up to three candidates close to name, best first: those
// within Damerau–Levenshtein distance 2 (closest first; the distance must
// also be less than the length of both names, so "-a" is not offered for
// "ls"), then those sharing a prefix with it (one starts with the other, at least two characters).
// Leading dashes and case are ignored when comparing; candidates keep their
// spelling. Ties keep the candidates' order.
func Suggest(name string, candidates []string) []string {
	n := normSuggest(name)
	if n == "" {
		return nil
	}
	type scored struct {
		cand  string
		score int
		index int
	}
	var hits []scored
	seen := make(map[string]bool)
	for i, c := range candidates {
		if seen[c] {
			continue
		}
		cn := normSuggest(c)
		if cn == "" || cn == n && c == name {
			continue
		}
		score := -1
		if d := distance(n, cn); d <= 2 && d < len(n) && d < len(cn) {
			score = d
		} else if len(n) >= 2 && len(cn) >= 2 && (strings.HasPrefix(cn, n) || strings.HasPrefix(n, cn)) {
			score = 3
		}
		if score >= 0 {
			seen[c] = true
			hits = append(hits, scored{c, score, i})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score < hits[j].score })
	var out []string
	for i := 0; i < len(hits) && i < 3; i++ {
		out = append(out, hits[i].cand)
	}
	return out
}

func normSuggest(s string) string {
	s = strings.ToLower(strings.TrimLeft(s, "-"))
	if len(s) > maxSuggestLen {
		s = s[:maxSuggestLen]
	}
	return s
}

// distance is the optimal-string-alignment Damerau–Levenshtein distance
// between a and b, counted in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

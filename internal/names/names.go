// Package names is how agsh spells and suggests names: the kebab-casing of
// schema property names into flags, the one did-you-mean ranking used for
// commands and flags alike, and the "a, b or c" list of suggestions. It is a
// leaf: catalog, generated, interp and the command table all use it.
package names

import "strings"

// Kebab turns a property name into the kebab-case used for flags:
// "perPage" → "per-page", "HTTPServer" → "http-server", "URLs" → "urls",
// "$filter" → "filter"; an empty result becomes "arg".
func Kebab(name string) string {
	r := []rune(name)
	var b strings.Builder
	b.Grow(len(name) + 4)
	for i, c := range r {
		if i > 0 && isUpper(c) {
			prev := r[i-1]
			switch {
			case isLower(prev) || isDigit(prev):
				b.WriteByte('-')
			case isUpper(prev) && startsLowerWord(r[i+1:]):
				b.WriteByte('-')
			}
		}
		b.WriteRune(c)
	}
	return squeeze(strings.ToLower(b.String()))
}

// startsLowerWord reports whether r begins with two or more lowercase letters.
func startsLowerWord(r []rune) bool {
	return len(r) >= 2 && isLower(r[0]) && isLower(r[1])
}

func isUpper(c rune) bool { return c >= 'A' && c <= 'Z' }
func isLower(c rune) bool { return c >= 'a' && c <= 'z' }
func isDigit(c rune) bool { return c >= '0' && c <= '9' }

// squeeze maps every character outside a-z0-9 to '-', squeezes runs of '-',
// trims them at both ends and gives "arg" for an empty result.
func squeeze(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	dash := false
	for _, c := range s {
		if isLower(c) || isDigit(c) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "arg"
	}
	return b.String()
}

// OrList joins suggestions: "a", "a or b", "a, b or c".
func OrList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

package render

import "strings"

// Dedent removes the common leading indentation of a description before it is
// rendered (DESCRIPTION in docs/rendering.md#help-for-one-tool): descriptions
// written as indented template literals would otherwise become markdown code
// blocks, cut mid-word. The first line is left out of the common indentation
// when it has none (text that starts right after the opening quote) and loses
// its own leading blanks; blank lines count for nothing and leading and
// trailing blank lines go. Indentation is compared byte for byte (a tab is
// not four spaces).
//
// A description whose first line is indented is an indented template: its
// lines written at the left margin (text a server interpolates into the
// template, as a container notice) are left as they are and do not count,
// so the template's own indentation still goes.
func Dedent(s string) string {
	if !strings.Contains(s, "\n") {
		return strings.TrimLeft(s, " \t")
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return ""
	}
	from := 0
	template := indentOf(lines[0]) != ""
	if !template {
		from = 1
	}
	prefix, have := "", false
	for _, l := range lines[from:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := indentOf(l)
		if template && ind == "" {
			continue // interpolated at the margin
		}
		if !have {
			prefix, have = ind, true
			continue
		}
		prefix = commonPrefix(prefix, ind)
		if prefix == "" {
			break
		}
	}
	for i, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
			lines[i] = ""
		case i == 0 && from == 1:
		default:
			lines[i] = strings.TrimPrefix(l, prefix)
		}
	}
	return strings.Join(lines, "\n")
}

// indentOf is the leading run of spaces and tabs of a line.
func indentOf(l string) string {
	return l[:len(l)-len(strings.TrimLeft(l, " \t"))]
}

func commonPrefix(a, b string) string {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return a[:i]
}

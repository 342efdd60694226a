package curated

import (
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/internal/exitcode"
)

// ReformatGrep prints grep's result as grep -rn does: "path:LN:text" for
// matches, "path-LN-text" for context lines, and "--" between groups that
// are not adjacent when context was asked for; files_with_matches as one
// path per line; count as "path:count". The "Found …" line is dropped (an
// "at least" count becomes a note). "No matches found" prints nothing and
// reports status 1.
func ReformatGrep(text string, context bool) (Output, bool) {
	text = strings.TrimSuffix(text, "\n")
	if text == "No matches found" {
		return Output{Status: exitcode.ToolError}, true
	}
	header, body, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(header, "Found ") {
		return Output{}, false
	}
	var out Output
	if strings.HasPrefix(header, "Found at least ") {
		out.Notes = append(out.Notes, "note: "+header+" (the head limit cut the result)")
	}
	var ok bool
	switch {
	case strings.Contains(header, " across "):
		out.Stdout, ok = grepCounts(body)
	case strings.HasSuffix(header, " file") || strings.HasSuffix(header, " files"):
		out.Stdout, ok = grepPaths(body)
	case strings.HasSuffix(header, " matching line") || strings.HasSuffix(header, " matching lines"):
		out.Stdout, ok = grepContent(body, context)
	}
	if !ok {
		return Output{}, false
	}
	return out, true
}

func grepPaths(body string) (string, bool) {
	if body == "" {
		return "", true
	}
	var b strings.Builder
	for _, l := range strings.Split(body, "\n") {
		if l == "" {
			return "", false
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), true
}

func grepCounts(body string) (string, bool) {
	if body == "" {
		return "", true
	}
	var b strings.Builder
	for _, l := range strings.Split(body, "\n") {
		i := strings.LastIndexByte(l, ':')
		if i < 1 {
			return "", false
		}
		if _, err := strconv.ParseUint(l[i+1:], 10, 64); err != nil {
			return "", false
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), true
}

// grepContent turns per-file blocks ("path", then "LN:text" / "LN-text"
// lines, blocks separated by a blank line) into grep -rn lines.
func grepContent(body string, context bool) (string, bool) {
	if body == "" {
		return "", true
	}
	var b strings.Builder
	b.Grow(len(body) * 2)
	path := ""
	prev := -1 // previous line number in this file; -1 at a file start
	printed := false
	for _, l := range strings.Split(body, "\n") {
		if l == "" {
			path = ""
			continue
		}
		if path == "" {
			path = l
			prev = -1
			continue
		}
		n, sep, rest, ok := splitNumbered(l)
		if !ok {
			return "", false
		}
		if context && printed && (prev < 0 || n != prev+1) {
			b.WriteString("--\n")
		}
		b.WriteString(path)
		b.WriteByte(sep)
		b.WriteString(strconv.Itoa(n))
		b.WriteByte(sep)
		b.WriteString(rest)
		b.WriteByte('\n')
		prev, printed = n, true
	}
	return b.String(), true
}

// splitNumbered splits "12:text" or "12-text".
func splitNumbered(l string) (n int, sep byte, rest string, ok bool) {
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i == 0 || i == len(l) || (l[i] != ':' && l[i] != '-') {
		return 0, 0, "", false
	}
	n, err := strconv.Atoi(l[:i])
	if err != nil {
		return 0, 0, "", false
	}
	return n, l[i], l[i+1:], true
}

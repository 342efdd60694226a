package curated

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/agsh-dev/agsh/internal/exitcode"
)

// ReformatGrep prints grep's result as grep -rn does: "path:LN:text" for
// matches, "path-LN-text" for context lines, and "--" between groups that
// are not adjacent when context was asked for; files_with_matches as one
// path per line; count as "path:count". The "Found …" line is dropped (an
// "at least" count becomes a note). "No matches found" prints nothing and
// reports status 1. The lines are grep's line format (grepLines), the one
// a long result streams through.
func ReformatGrep(text string, context bool) (Output, bool) {
	if strings.TrimSuffix(text, "\n") == "No matches found" {
		return Output{Status: exitcode.ToolError}, true
	}
	if !strings.HasPrefix(text, "Found ") {
		return Output{}, false
	}
	return reformatWhole(text, &grepLines{context: context})
}

// grepLines is ReformatGrep line by line.
type grepLines struct {
	context bool
	mode    byte // 'c' content, 'f' files, 'n' counts
	path    []byte
	inFile  bool
	prev    int
	printed bool
	seen    []string // notes
}

func (g *grepLines) line(out, l []byte, first bool) ([]byte, bool) {
	if first {
		h := string(l)
		if !strings.HasPrefix(h, "Found ") {
			return out, false
		}
		switch {
		case strings.Contains(h, " across "):
			g.mode = 'n'
		case strings.HasSuffix(h, " file") || strings.HasSuffix(h, " files"):
			g.mode = 'f'
		case strings.HasSuffix(h, " matching line") || strings.HasSuffix(h, " matching lines"):
			g.mode = 'c'
		default:
			return out, false
		}
		if strings.HasPrefix(h, "Found at least ") {
			g.seen = append(g.seen, "note: "+h+" (the head limit cut the result)")
		}
		return out, true
	}
	switch g.mode {
	case 'f':
		if len(l) == 0 {
			return out, false
		}
		return append(append(out, l...), '\n'), true
	case 'n':
		i := bytes.LastIndexByte(l, ':')
		if i < 1 || !isUint(l[i+1:]) {
			return out, false
		}
		return append(append(out, l...), '\n'), true
	}
	if len(l) == 0 {
		g.inFile = false
		return out, true
	}
	if !g.inFile {
		g.path, g.prev, g.inFile = append(g.path[:0], l...), -1, true
		return out, true
	}
	n, sep, rest, ok := splitNumberedBytes(l)
	if !ok {
		return out, false
	}
	if g.context && g.printed && (g.prev < 0 || n != g.prev+1) {
		out = append(out, "--\n"...)
	}
	out = append(append(out, g.path...), sep)
	out = append(strconv.AppendInt(out, int64(n), 10), sep)
	out = append(append(out, rest...), '\n')
	g.prev, g.printed = n, true
	return out, true
}

// splitNumberedBytes is splitNumbered on bytes.
func splitNumberedBytes(l []byte) (n int, sep byte, rest []byte, ok bool) {
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i == 0 || i == len(l) || (l[i] != ':' && l[i] != '-') {
		return 0, 0, nil, false
	}
	for _, c := range l[:i] {
		d := int(c - '0')
		if n > (math.MaxInt-d)/10 {
			return 0, 0, nil, false // strconv.Atoi's range error
		}
		n = n*10 + d
	}
	return n, l[i], l[i+1:], true
}

func (g *grepLines) joins() bool { return false }

func (g *grepLines) last(lines [][]byte, before int) ([][]byte, []string) {
	// The text's final newline, if any, is trimmed; a header followed
	// by nothing else but an empty line has no lines after it.
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	if n := len(lines); n > 0 && before+n == 2 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	return lines, nil
}

func (g *grepLines) notes() []string { return g.seen }

func (g *grepLines) end(bool) string { return "" }
func (g *grepLines) status() int     { return 0 }

package curated

import (
	"strconv"
	"strings"
)

// Output is what a reformatter makes of a tool's result text.
type Output struct {
	// Stdout is final text, written byte for byte (never taken for JSON).
	Stdout string
	// Notes go to standard error, one line each.
	Notes []string
	// Status is the exit status the command reports: 1 for a grep without
	// matches, else 0.
	Status int
}

// ReformatText runs the command's reformatter. ok is false when the
// command has none or the text does not have the expected format: the
// caller then prints the text verbatim.
func (s *Spec) ReformatText(text string, opts ReformatOptions) (out Output, ok bool) {
	if s == nil || s.Reformat == nil {
		return Output{}, false
	}
	return s.Reformat(text, opts)
}

// ReformatOptions carries what a reformatter needs to know of the call.
type ReformatOptions struct {
	// Context is true when grep was given -A, -B or -C: groups are then
	// separated by "--" as grep -rn does.
	Context bool
	// Numbers: read keeps the deployment's line numbers (read -n, and
	// read PATH:N), as cat -n prints them.
	Numbers bool
}

// ReformatLs prints the immediate children of the listed directory, one name
// per line, directories keeping their "/". The header, deeper rows and
// collapsed summaries are dropped; a "[N more entries]" row becomes a note.
func ReformatLs(text string) (Output, bool) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "- ") || !strings.HasSuffix(lines[0], "/") {
		return Output{}, false
	}
	var b strings.Builder
	var out Output
	for _, l := range lines[1:] {
		indent := len(l) - len(strings.TrimLeft(l, " "))
		body := l[indent:]
		if indent < 2 || indent%2 != 0 || body == "" {
			return Output{}, false
		}
		switch {
		case strings.HasPrefix(body, "- "):
			if indent == 2 {
				b.WriteString(body[2:])
				b.WriteByte('\n')
			}
		case strings.HasPrefix(body, "[") && strings.HasSuffix(body, "]"):
			if indent == 2 && strings.HasSuffix(body, " more entries]") {
				out.Notes = append(out.Notes, body)
			}
		default:
			return Output{}, false
		}
	}
	out.Stdout = b.String()
	return out, true
}

// ReformatRead prints the file's text without the line-number prefixes,
// byte for byte as cat prints it (with numbers, as cat -n prints it: the
// deployment's number, a tab, the line). "File is empty." prints nothing;
// the truncation and "more lines" notices become notes, their "offset=N"
// in the flag's spelling ("--offset N").
func ReformatRead(text string, numbers bool) (Output, bool) {
	if text == "File is empty." {
		return Output{}, true
	}
	lines := strings.Split(text, "\n")
	var out Output
	// A notice closes the text: a blank line, then a bracketed line.
	if n := len(lines); n >= 3 && lines[n-2] == "" && isNotice(lines[n-1]) {
		out.Notes = append(out.Notes, flagSpelling(lines[n-1]))
		lines = lines[:n-2]
	}
	ends := len(out.Notes) > 0 // the last line shown has its newline
	if n := len(lines); numbers && !ends && n >= 1 && emptyNumbered([]byte(lines[n-1])) {
		lines, ends = lines[:n-1], true // it only ends the file
	}
	var b strings.Builder
	b.Grow(len(text))
	for i, l := range lines {
		bar := strings.IndexByte(l, '|')
		if bar < 1 {
			return Output{}, false
		}
		num := strings.TrimLeft(l[:bar], " ")
		if num == "" {
			return Output{}, false
		}
		if _, err := strconv.ParseUint(num, 10, 64); err != nil {
			return Output{}, false
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		if numbers {
			b.WriteString(l[:bar])
			b.WriteByte('\t')
		}
		b.WriteString(l[bar+1:])
	}
	if ends && (len(lines) > 0 || !numbers) {
		b.WriteByte('\n')
	}
	out.Stdout = b.String()
	return out, true
}

// flagSpelling rewrites a notice's "Use offset=N" in the spelling of the
// command line: "Use --offset N".
func flagSpelling(notice string) string {
	i := strings.Index(notice, "Use offset=")
	if i < 0 {
		return notice
	}
	num := notice[i+len("Use offset="):]
	end := 0
	for end < len(num) && (num[end] >= '0' && num[end] <= '9' || end == 0 && num[end] == '-') {
		end++
	}
	if end == 0 {
		return notice
	}
	return notice[:i] + "Use --offset " + num
}

func isNotice(l string) bool {
	return strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") &&
		(strings.HasPrefix(l, "[Showing lines ") || strings.Contains(l, " more line"))
}

// ReformatGlob prints one path per line, the header dropped.
func ReformatGlob(text string) (Output, bool) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "Result of search in ") || !strings.HasSuffix(lines[0], "):") {
		return Output{}, false
	}
	var b strings.Builder
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "- ") {
			return Output{}, false
		}
		b.WriteString(l[2:])
		b.WriteByte('\n')
	}
	return Output{Stdout: b.String()}, true
}

package curated

import (
	"bytes"
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
// in the flag's spelling ("--offset N"). The lines are read's line format
// (readLines), the one a long result streams through.
func ReformatRead(text string, numbers bool) (Output, bool) {
	if text == "File is empty." {
		return Output{}, true
	}
	return reformatWhole(text, &readLines{numbers: numbers})
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

// lineFormat is the line-by-line form of a reformatter.
type lineFormat interface {
	// line appends the reformatted line (first: the text's first line)
	// to out; false (out unchanged) when it is not in the format.
	line(out, l []byte, first bool) ([]byte, bool)
	// joins: lines are joined by newlines (read), not ended by them.
	joins() bool
	// last takes the lines still waiting at the end, before of them
	// reformatted already: those to reformat, and notes.
	last(lines [][]byte, before int) ([][]byte, []string)
	// end is what follows the last line.
	end(noted bool) string
	// notes are those of the lines reformatted (grep's "at least"), after
	// last's.
	notes() []string
	status() int
}

// reformatWhole reformats a whole text in its line format, all or nothing:
// the same lines, notes and end as a Stream that reformats it line by line
// (the last three lines, what waits at a Stream's end, go to last).
func reformatWhole(text string, f lineFormat) (Output, bool) {
	t := []byte(text)
	tail, found := len(t), 0 // where the last three lines begin
	for ; found < 3; found++ {
		i := bytes.LastIndexByte(t[:tail], '\n')
		if i < 0 {
			break
		}
		tail = i
	}
	if found == 3 {
		tail++ // after the newline that ends the head
	} else {
		tail = 0
	}
	out := make([]byte, 0, len(t)+1)
	n := 0
	for head := t[:tail]; len(head) > 0; n++ {
		i := bytes.IndexByte(head, '\n')
		var ok bool
		if out, ok = f.line(out, head[:i], n == 0); !ok {
			return Output{}, false
		}
		head = head[i+1:]
	}
	lines, notes := f.last(bytes.Split(t[tail:], []byte{'\n'}), n)
	for _, l := range lines {
		var ok bool
		if out, ok = f.line(out, l, n == 0); !ok {
			return Output{}, false
		}
		n++
	}
	out = append(out, f.end(len(notes) > 0)...)
	notes = append(notes, f.notes()...)
	return Output{Stdout: string(out), Notes: notes, Status: f.status()}, true
}

// readLines is ReformatRead line by line. With numbers (read -n) a line
// keeps the deployment's number, a tab in place of its "|", as cat -n
// prints it; the last line, when empty and no notice follows, only ends
// the file with its newline (dropped).
type readLines struct {
	numbers, dropped bool
	shown            bool // a line was reformatted
}

func (r *readLines) line(out, l []byte, first bool) ([]byte, bool) {
	// The first '|' must follow spaces, then digits (at least one).
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	d := i
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	bar := i
	if bar >= len(l) || l[bar] != '|' || bar == d || bar-d >= 20 && !isUint(l[d:bar]) {
		return out, false // (fewer than 20 digits are always a uint64)
	}
	if !first {
		out = append(out, '\n')
	}
	if r.numbers {
		out = append(append(out, l[:bar]...), '\t')
	}
	r.shown = true
	return append(out, l[bar+1:]...), true
}

func (*readLines) joins() bool { return true }

func (r *readLines) last(lines [][]byte, before int) ([][]byte, []string) {
	// A notice closes a text of three lines at least.
	if n := len(lines); n >= 2 && before+n >= 3 && len(lines[n-2]) == 0 && isNotice(string(lines[n-1])) {
		return lines[:n-2], []string{flagSpelling(string(lines[n-1]))}
	}
	if n := len(lines); r.numbers && n >= 1 && emptyNumbered(lines[n-1]) {
		r.dropped = true
		return lines[:n-1], nil
	}
	return lines, nil
}

func (r *readLines) end(noted bool) string {
	if (noted || r.dropped) && r.shown {
		// More of the file follows, or the file ends with a newline: the
		// last line shown had its newline.
		return "\n"
	}
	return ""
}

// emptyNumbered reports a numbered line without text ("    63|").
func emptyNumbered(l []byte) bool {
	t := bytes.TrimLeft(l, " ")
	return len(t) >= 2 && t[len(t)-1] == '|' && isUint(t[:len(t)-1])
}

func (*readLines) notes() []string { return nil }
func (*readLines) status() int     { return 0 }

// isUint reports what strconv.ParseUint(string(b), 10, 64) accepts.
func isUint(b []byte) bool {
	const maxUint = "18446744073709551615"
	if len(b) == 0 || len(b) > len(maxUint) {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) < len(maxUint) || string(b) <= maxUint
}

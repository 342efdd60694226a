package curated

import (
	"bytes"
	"io"
	"strconv"
	"strings"
)

// HoldLimit is how much of a streamed read or grep result is held before
// it is reformatted line by line: up to it, the whole text is reformatted
// at the end, all or nothing (a text not in the expected format prints
// verbatim); past it, lines are reformatted as they come, and from the
// first line that is not in the format the rest prints verbatim, with one
// note.
const HoldLimit = 8 << 20

// flushSize is how much reformatted output is gathered per write.
const flushSize = 64 << 10

// Streams reports whether a command's results can be reformatted as a
// stream (NewStream).
func Streams(command string) bool { return command == "read" || command == "grep" }

// Stream reformats a streamed read or grep result written to it (the
// decoded text, in chunks cut anywhere) onto w. Close ends it and tells
// what the caller still has to do.
type Stream struct {
	w       io.Writer
	command string
	opts    ReformatOptions

	held  []byte // the text, while it is at most HoldLimit
	lines bool   // past HoldLimit: reformatting line by line
	part  []byte // the line being received
	queue []string
	n     int // lines reformatted so far
	fmt   lineFormat
	raw   bool // verbatim from here on
	out   []byte
	err   error
	notes []string
}

// NewStream returns the reformatting stream of command (Streams) onto w.
func NewStream(w io.Writer, command string, opts ReformatOptions) *Stream {
	return &Stream{w: w, command: command, opts: opts}
}

// StreamEnd is what a Stream leaves to its caller.
type StreamEnd struct {
	// Notes go to standard error, one line each.
	Notes []string
	// Status is the command's exit status (grep without matches: 1).
	Status int
	// Verbatim: the output ends as text printed verbatim does (a newline
	// is added when it has none), not as reformatted output.
	Verbatim bool
}

// Write takes the next bytes of the text.
func (s *Stream) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if !s.lines {
		if len(s.held)+len(p) <= HoldLimit {
			s.held = append(s.held, p...)
			return len(p), nil
		}
		s.lines = true
		s.fmt = newLineFormat(s.command, s.opts)
		held := s.held
		s.held = nil
		s.feed(held)
	}
	s.feed(p)
	if s.err != nil {
		return 0, s.err
	}
	return len(p), nil
}

// feed splits p into lines and reformats the complete ones.
func (s *Stream) feed(p []byte) {
	s.out = s.out[:0]
	if s.raw {
		s.out = append(s.out, p...)
	} else {
		for len(p) > 0 {
			i := bytes.IndexByte(p, '\n')
			if i < 0 {
				s.part = append(s.part, p...)
				break
			}
			line := p[:i]
			if len(s.part) > 0 {
				line = append(s.part, line...)
				s.part = s.part[:0]
			}
			p = p[i+1:]
			s.queue = append(s.queue, string(line))
			// Two lines wait: a read's closing notice is a blank line
			// and a bracketed one.
			for len(s.queue) > 2 && !s.raw {
				s.emit(s.queue[0])
				s.queue = s.queue[1:]
			}
			if len(s.out) >= flushSize && s.err == nil {
				_, s.err = s.w.Write(s.out)
				s.out = s.out[:0]
			}
			if s.raw {
				// The rest goes as received.
				for _, l := range s.queue {
					s.out = append(append(s.out, '\n'), l...)
				}
				s.queue = nil
				s.out = append(s.out, '\n')
				s.out = append(s.out, p...)
				break
			}
		}
	}
	if len(s.out) > 0 && s.err == nil {
		_, s.err = s.w.Write(s.out)
	}
}

// emit reformats one line; a line not in the format turns the stream
// verbatim from it on.
func (s *Stream) emit(l string) {
	out, ok := s.fmt.line(l, s.n == 0)
	if !ok {
		s.raw = true
		s.notes = append(s.notes, "note: the "+s.command+" result is not in its usual format from line "+
			strconv.Itoa(s.n+1)+" on; the rest is printed as received")
		if s.n > 0 && s.fmt.joins() {
			s.out = append(s.out, '\n')
		}
		s.out = append(s.out, l...)
		s.n++
		return
	}
	s.out = append(s.out, out...)
	s.n++
}

// Close ends the text: a held text is reformatted whole (or printed
// verbatim), a line-by-line one finished.
func (s *Stream) Close() (StreamEnd, error) {
	if s.err != nil {
		return StreamEnd{}, s.err
	}
	if !s.lines {
		text := string(s.held)
		s.held = nil
		out, ok := Reformat(s.command, text, s.opts)
		if !ok {
			return StreamEnd{Verbatim: true}, s.write(text)
		}
		return StreamEnd{Notes: out.Notes, Status: out.Status}, s.write(out.Stdout)
	}
	if s.raw {
		s.out = append(s.out[:0], s.part...)
		return StreamEnd{Notes: s.notes, Verbatim: true}, s.write(string(s.out))
	}
	// The last line has no newline after it.
	s.queue = append(s.queue, string(s.part))
	s.part = nil
	s.out = s.out[:0]
	lines, notes := s.fmt.last(s.queue)
	for i, l := range lines {
		if s.emit(l); s.raw {
			// The rest as received, a closing notice included.
			for _, r := range s.queue[i+1:] {
				s.out = append(append(s.out, '\n'), r...)
			}
			notes = nil
			break
		}
	}
	s.queue = nil
	s.notes = append(s.notes, notes...)
	if !s.raw {
		s.out = append(s.out, s.fmt.end(len(notes) > 0)...)
	}
	if err := s.write(string(s.out)); err != nil {
		return StreamEnd{}, err
	}
	return StreamEnd{Notes: s.notes, Status: s.fmt.status(), Verbatim: s.raw}, nil
}

func (s *Stream) write(text string) error {
	if text == "" {
		return nil
	}
	_, err := io.WriteString(s.w, text)
	return err
}

// lineFormat is the line-by-line form of a reformatter.
type lineFormat interface {
	// line reformats one line (first: the text's first line).
	line(l string, first bool) (string, bool)
	// joins: lines are joined by newlines (read), not ended by them.
	joins() bool
	// last takes the lines still waiting at the end: those to reformat,
	// and notes.
	last(lines []string) ([]string, []string)
	// end is what follows the last line.
	end(noted bool) string
	status() int
}

func newLineFormat(command string, opts ReformatOptions) lineFormat {
	if command == "grep" {
		return &grepLines{context: opts.Context}
	}
	return readLines{}
}

// readLines is ReformatRead line by line.
type readLines struct{}

func (readLines) line(l string, first bool) (string, bool) {
	bar := strings.IndexByte(l, '|')
	if bar < 1 {
		return "", false
	}
	num := strings.TrimLeft(l[:bar], " ")
	if num == "" {
		return "", false
	}
	if _, err := strconv.ParseUint(num, 10, 64); err != nil {
		return "", false
	}
	if first {
		return l[bar+1:], true
	}
	return "\n" + l[bar+1:], true
}

func (readLines) joins() bool { return true }

func (readLines) last(lines []string) ([]string, []string) {
	if n := len(lines); n >= 2 && lines[n-2] == "" && isNotice(lines[n-1]) {
		return lines[:n-2], []string{lines[n-1]}
	}
	return lines, nil
}

func (readLines) end(noted bool) string {
	if noted {
		// More of the file follows: the last line shown had its newline.
		return "\n"
	}
	return ""
}

func (readLines) status() int { return 0 }

// grepLines is ReformatGrep line by line.
type grepLines struct {
	context bool
	mode    byte // 'c' content, 'f' files, 'n' counts
	path    string
	prev    int
	printed bool
	notes   []string
}

func (g *grepLines) line(l string, first bool) (string, bool) {
	if first {
		if !strings.HasPrefix(l, "Found ") {
			return "", false
		}
		switch {
		case strings.Contains(l, " across "):
			g.mode = 'n'
		case strings.HasSuffix(l, " file") || strings.HasSuffix(l, " files"):
			g.mode = 'f'
		case strings.HasSuffix(l, " matching line") || strings.HasSuffix(l, " matching lines"):
			g.mode = 'c'
		default:
			return "", false
		}
		if strings.HasPrefix(l, "Found at least ") {
			g.notes = append(g.notes, "note: "+l+" (the head limit cut the result)")
		}
		return "", true
	}
	switch g.mode {
	case 'f':
		if l == "" {
			return "", false
		}
		return l + "\n", true
	case 'n':
		i := strings.LastIndexByte(l, ':')
		if i < 1 {
			return "", false
		}
		if _, err := strconv.ParseUint(l[i+1:], 10, 64); err != nil {
			return "", false
		}
		return l + "\n", true
	}
	if l == "" {
		g.path = ""
		return "", true
	}
	if g.path == "" {
		g.path, g.prev = l, -1
		return "", true
	}
	n, sep, rest, ok := splitNumbered(l)
	if !ok {
		return "", false
	}
	var b strings.Builder
	if g.context && g.printed && (g.prev < 0 || n != g.prev+1) {
		b.WriteString("--\n")
	}
	b.WriteString(g.path)
	b.WriteByte(sep)
	b.WriteString(strconv.Itoa(n))
	b.WriteByte(sep)
	b.WriteString(rest)
	b.WriteByte('\n')
	g.prev, g.printed = n, true
	return b.String(), true
}

func (g *grepLines) joins() bool { return false }

func (g *grepLines) last(lines []string) ([]string, []string) {
	// The text's final newline, if any, was trimmed.
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	return lines, g.notes
}

func (g *grepLines) end(bool) string { return "" }
func (g *grepLines) status() int     { return 0 }

package curated

import (
	"bytes"
	"io"
	"math"
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

// Stream reformats a streamed read or grep result written to it (the
// decoded text, in chunks cut anywhere) onto w. Close ends it and tells
// what the caller still has to do.
type Stream struct {
	w       io.Writer
	spec    *Spec
	command string
	opts    ReformatOptions

	held  []byte // the text, while it is at most HoldLimit
	lines bool   // past HoldLimit: reformatting line by line
	// Up to two complete lines wait (a read's closing notice is a blank
	// line and a bracketed one); between writes they and the line being
	// received (from scan on) are in buf. A write's complete lines are
	// reformatted where they are: only what waits at its end is copied
	// (into spare, which then becomes buf).
	buf   []byte
	spare []byte
	wait  [2][]byte
	nwait int
	scan  int
	n     int // lines reformatted so far
	fmt   lineFormat
	read  bool // fmt is a *readLines (rl, called directly, not through fmt)
	rl    *readLines
	raw   bool // verbatim from here on
	out   []byte
	err   error
	notes []string
}

// NewStream returns the reformatting stream of the command of spec
// (Spec.Streams) onto w.
func NewStream(w io.Writer, spec *Spec, opts ReformatOptions) *Stream {
	return &Stream{w: w, spec: spec, command: spec.Name, opts: opts}
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
			s.hold(p)
			return len(p), nil
		}
		s.lines = true
		s.fmt = s.spec.lines(s.opts)
		s.rl, s.read = s.fmt.(*readLines)
		// The held lines are reformatted where they are, as a write's;
		// what still waits moves to a small buffer, so that the held one
		// is let go.
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

// hold appends p to held, growing it by doubling up to HoldLimit: the
// buffers it leaves behind add up to less than the text (append's smaller
// steps for large slices leave several times it, all garbage at once).
func (s *Stream) hold(p []byte) {
	if n := len(s.held) + len(p); n > cap(s.held) {
		c := min(max(2*cap(s.held), n, 64<<10), HoldLimit)
		s.held = append(make([]byte, 0, c), s.held...)
	}
	s.held = append(s.held, p...)
}

// feed reformats the complete lines received so far but the two last.
func (s *Stream) feed(p []byte) {
	s.out = s.out[:0]
	if s.raw {
		s.put(p)
		return
	}
	j := bytes.IndexByte(p, '\n')
	if j < 0 {
		s.buf = append(s.buf, p...) // the line being received goes on
		s.put(nil)
		s.boundLine()
		return
	}
	// The line being received ends in p: it is completed in buf and
	// taken; p's own lines are taken where they are.
	s.buf = append(s.buf, p[:j+1]...)
	p = p[j+1:]
	if _, ok := s.take(s.buf, s.scan); !ok {
		s.put(p)
		return
	}
	i, ok := s.take(p, 0)
	if !ok {
		return
	}
	// What waits (in buf or p) and the line begun moves to spare.
	nb := s.spare[:0]
	for w := 0; w < s.nwait; w++ {
		a := len(nb)
		nb = append(append(nb, s.wait[w]...), '\n')
		s.wait[w] = nb[a : len(nb)-1 : len(nb)-1]
	}
	s.scan = len(nb)
	nb = append(nb, p[i:]...)
	s.spare, s.buf = s.buf[:0], nb
	s.put(nil)
	s.boundLine()
}

// boundLine ends the reformatting at the line being received (buf from
// scan on) when it is longer than HoldLimit: it is not held until its
// newline (one that never ends would grow agsh without bound). The lines
// waiting before it are reformatted; from it on the rest prints as
// received, with one note.
func (s *Stream) boundLine() {
	if s.raw || len(s.buf)-s.scan <= HoldLimit {
		return
	}
	begun := s.buf[s.scan:]
	for w := 0; w < s.nwait; w++ {
		if s.emit(s.wait[w]); s.raw {
			for _, r := range s.wait[w+1 : s.nwait] {
				s.out = append(append(s.out, '\n'), r...)
			}
			s.out = append(s.out, '\n')
			s.put(begun)
			s.letGo()
			return
		}
	}
	s.raw = true
	s.notes = append(s.notes, "note: line "+strconv.Itoa(s.n+1)+" of the "+s.command+
		" result is longer than "+strconv.Itoa(HoldLimit>>20)+" MiB; from it on the rest is printed as received")
	if s.n > 0 && s.fmt.joins() {
		s.out = append(s.out, '\n')
	}
	s.put(begun)
	s.letGo()
}

// letGo drops the lines held for reformatting (the stream is verbatim).
func (s *Stream) letGo() {
	s.buf, s.spare, s.wait, s.nwait, s.scan = nil, nil, [2][]byte{}, 0, 0
}

// take reformats the complete lines of data from i on, the two last
// excepted (they wait), and returns where the line after them begins.
// false: a line was not in the format; the rest of data went verbatim,
// and what waited, which is then let go.
func (s *Stream) take(data []byte, i int) (int, bool) {
	for {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			return i, true
		}
		line := data[i : i+j]
		i += j + 1
		if s.nwait < 2 {
			s.wait[s.nwait] = line
			s.nwait++
			continue
		}
		first := s.wait[0]
		s.wait[0], s.wait[1] = s.wait[1], line
		s.emit(first)
		if s.raw {
			// The rest goes as received.
			s.out = append(append(s.out, '\n'), s.wait[0]...)
			s.out = append(append(s.out, '\n'), s.wait[1]...)
			s.out = append(s.out, '\n')
			s.put(data[i:])
			s.letGo()
			return 0, false
		}
		if len(s.out) >= flushSize {
			s.put(nil)
		}
	}
}

// put writes out and then p.
func (s *Stream) put(p []byte) {
	if s.err != nil {
		return
	}
	if len(s.out) > 0 {
		_, s.err = s.w.Write(s.out)
		s.out = s.out[:0]
	}
	if len(p) > 0 && s.err == nil {
		_, s.err = s.w.Write(p)
	}
}

// emit reformats one line onto out; a line not in the format turns the
// stream verbatim from it on.
func (s *Stream) emit(l []byte) {
	var out []byte
	var ok bool
	if s.read {
		out, ok = s.rl.line(s.out, l, s.n == 0)
	} else {
		out, ok = s.fmt.line(s.out, l, s.n == 0)
	}
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
	s.out = out
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
		out, ok := s.spec.ReformatText(text, s.opts)
		if !ok {
			return StreamEnd{Verbatim: true}, s.write(text)
		}
		return StreamEnd{Notes: out.Notes, Status: out.Status}, s.write(out.Stdout)
	}
	s.out = s.out[:0]
	if s.raw {
		return StreamEnd{Notes: s.notes, Verbatim: true}, nil
	}
	// The lines still waiting, and the last (no newline after it).
	var all [][]byte
	all = append(all, s.wait[:s.nwait]...)
	all = append(all, s.buf[s.scan:])
	lines, notes := s.fmt.last(all)
	for i, l := range lines {
		if s.emit(l); s.raw {
			// The rest as received, a closing notice included.
			for _, r := range all[i+1:] {
				s.out = append(append(s.out, '\n'), r...)
			}
			notes = nil
			break
		}
	}
	s.buf, s.spare = nil, nil
	s.notes = append(s.notes, notes...)
	if !s.raw {
		s.out = append(s.out, s.fmt.end(len(notes) > 0)...)
	}
	if s.put(nil); s.err != nil {
		return StreamEnd{}, s.err
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
	// line appends the reformatted line (first: the text's first line)
	// to out; false (out unchanged) when it is not in the format.
	line(out, l []byte, first bool) ([]byte, bool)
	// joins: lines are joined by newlines (read), not ended by them.
	joins() bool
	// last takes the lines still waiting at the end: those to reformat,
	// and notes.
	last(lines [][]byte) ([][]byte, []string)
	// end is what follows the last line.
	end(noted bool) string
	status() int
}

// readLines is ReformatRead line by line. With numbers (read -n) a line
// keeps the deployment's number, a tab in place of its "|", as cat -n
// prints it; the last line, when empty and no notice follows, only ends
// the file with its newline (dropped).
type readLines struct {
	numbers, dropped bool
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
	return append(out, l[bar+1:]...), true
}

func (*readLines) joins() bool { return true }

func (r *readLines) last(lines [][]byte) ([][]byte, []string) {
	if n := len(lines); n >= 2 && len(lines[n-2]) == 0 && isNotice(string(lines[n-1])) {
		return lines[:n-2], []string{flagSpelling(string(lines[n-1]))}
	}
	if n := len(lines); r.numbers && n >= 1 && emptyNumbered(lines[n-1]) {
		r.dropped = true
		return lines[:n-1], nil
	}
	return lines, nil
}

func (r *readLines) end(noted bool) string {
	if noted || r.dropped {
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

func (*readLines) status() int { return 0 }

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

// grepLines is ReformatGrep line by line.
type grepLines struct {
	context bool
	mode    byte // 'c' content, 'f' files, 'n' counts
	path    []byte
	inFile  bool
	prev    int
	printed bool
	notes   []string
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
			g.notes = append(g.notes, "note: "+h+" (the head limit cut the result)")
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

func (g *grepLines) last(lines [][]byte) ([][]byte, []string) {
	// The text's final newline, if any, was trimmed.
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	return lines, g.notes
}

func (g *grepLines) end(bool) string { return "" }
func (g *grepLines) status() int     { return 0 }

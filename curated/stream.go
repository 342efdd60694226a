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
// note. One of the thresholds of docs/rendering.md#hold-or-stream.
const HoldLimit = 8 << 20

// flushSize is how much reformatted output is gathered per write (and
// what an input chunk gathered is written at its end, EndRuns): a write to
// a file costs some microseconds beside its bytes, and a one-shot read of
// 50 MiB to a file spent 7 ms more CPU time (a tenth) in 64 KiB writes.
const flushSize = 256 << 10

// Stream reformats a streamed read or grep result onto w: its decoded text
// comes line by line (WriteRun: a jsontext.RunWriter, as the pass that
// reads the answer hands it on) or in chunks cut anywhere (Write). Close
// ends it and tells what the caller still has to do.
type Stream struct {
	w       io.Writer
	spec    *Spec
	command string
	opts    ReformatOptions

	// The text, while it is at most HoldLimit: chunks filled in turn,
	// each as large as the ones before it together, none copied again
	// (docs/rendering.md#hold-or-stream); nheld bytes in all.
	held  [][]byte
	nheld int
	limit int  // how much is held: HoldLimit, or less (Declared)
	lines bool // past HoldLimit: reformatting line by line
	// Up to two complete lines wait (a read's closing notice is a blank
	// line and a bracketed one): slices of the runs until EndRuns, then
	// copied into own[cur]. part is the line being received, when it
	// began in an earlier run.
	wait  [2][]byte
	nwait int
	own   [2][]byte
	cur   int
	part  []byte
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
	return &Stream{w: w, spec: spec, command: spec.Name, opts: opts, limit: HoldLimit}
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

// Write takes the next bytes of the text, cut anywhere.
func (s *Stream) Write(p []byte) (int, error) {
	n := len(p)
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			break
		}
		if err := s.WriteRun(p[:i], true); err != nil {
			return 0, err
		}
		p = p[i+1:]
	}
	if len(p) > 0 {
		if err := s.WriteRun(p, false); err != nil {
			return 0, err
		}
	}
	if err := s.EndRuns(); err != nil {
		return 0, err
	}
	return n, nil
}

// WriteRun takes the next run of the text; nl: a line break follows it
// (jsontext.RunWriter).
func (s *Stream) WriteRun(text []byte, nl bool) error {
	if s.err != nil {
		return s.err
	}
	if s.read && nl && s.nwait == 2 && len(s.part) == 0 && !s.raw {
		// The common step of a read past the hold: a whole line, two
		// waiting before it; the first of them is reformatted.
		if out, ok := s.rl.line(s.out, s.wait[0], s.n == 0); ok {
			s.wait[0], s.wait[1] = s.wait[1], text
			s.out = out
			s.n++
			if len(s.out) >= flushSize {
				s.put(nil)
			}
			return s.err
		}
	}
	if !s.lines {
		n := len(text)
		if nl {
			n++
		}
		if s.nheld+n <= s.limit {
			s.hold(text, nl)
			return nil
		}
		s.startLines()
		// The held lines are reformatted where they are (a line cut by
		// the end of a chunk is joined in part); what still waits is
		// copied at EndRuns, so that the held text is let go.
		held := s.held
		s.held, s.nheld = nil, 0
		for _, c := range held {
			for {
				i := bytes.IndexByte(c, '\n')
				if i < 0 {
					break
				}
				s.run(c[:i], true)
				c = c[i+1:]
			}
			if len(c) > 0 {
				s.run(c, false)
			}
		}
	}
	s.run(text, nl)
	return s.err
}

// startLines turns the stream to reformatting line by line.
func (s *Stream) startLines() {
	s.lines = true
	s.fmt = s.spec.lines(s.opts)
	s.rl, s.read = s.fmt.(*readLines)
}

// DeclaredHold is what a stream holds of a text whose answer is declared
// longer than HoldLimit (Declared).
const DeclaredHold = 64 << 10

// Declared tells the stream, before its first run, that the answer its
// text comes in is declared n more bytes long from the text's first byte
// on (jsontext.Declared). Above HoldLimit the text is taken to be past it:
// only DeclaredHold of it is held, so that a text that ends within it is
// still reformatted whole, and a longer one is reformatted line by line
// from its first line on. Holding HoldLimit would only cost a copy of it
// into fresh memory (a one-shot read of 50 MiB spent a tenth of its CPU
// time on it). Such an answer whose text is shorter than HoldLimit (the
// rest of the answer is not its text) gets the line-by-line rule: from a
// line not in the format on, the rest prints as received, with a note
// (docs/rendering.md#hold-or-stream).
func (s *Stream) Declared(n int64) {
	if n > HoldLimit && !s.lines && s.nheld == 0 {
		s.limit = DeclaredHold
	}
}

// hold appends a run to the held text. A chunk that is full is kept as
// it is and the next one is as large as all before it (64 KiB at first),
// so that the held text is written once, into at most HoldLimit of fresh
// memory: growing one buffer by doubling would copy it again at every
// step and leave as much again behind (in a one-shot process every one
// of those bytes is a fresh page).
func (s *Stream) hold(text []byte, nl bool) {
	for len(text) > 0 || nl {
		last := len(s.held) - 1
		if last < 0 || len(s.held[last]) == cap(s.held[last]) {
			c := min(max(s.nheld, 64<<10), s.limit-s.nheld)
			s.held = append(s.held, make([]byte, 0, c))
			last++
		}
		b := s.held[last]
		k := min(len(text), cap(b)-len(b))
		b = append(b, text[:k]...)
		text = text[k:]
		s.nheld += k
		if nl && len(text) == 0 && len(b) < cap(b) {
			b = append(b, '\n')
			s.nheld++
			nl = false
		}
		s.held[last] = b
	}
}

// heldText is the held text as one string.
func (s *Stream) heldText() string {
	if len(s.held) == 1 {
		return string(s.held[0])
	}
	var b strings.Builder
	b.Grow(s.nheld)
	for _, c := range s.held {
		b.Write(c)
	}
	return b.String()
}

// run reformats a run of the text past HoldLimit.
func (s *Stream) run(text []byte, nl bool) {
	if s.raw {
		s.out = append(s.out, text...)
		if nl {
			s.out = append(s.out, '\n')
		}
		if len(s.out) >= flushSize {
			s.put(nil)
		}
		return
	}
	if !nl {
		s.part = append(s.part, text...)
		s.boundLine()
		return
	}
	line := text
	if len(s.part) > 0 {
		line = append(s.part, text...)
		s.part = nil // the line may wait: its bytes are not reused
	}
	if s.nwait < 2 {
		s.wait[s.nwait] = line
		s.nwait++
		return
	}
	first := s.wait[0]
	s.wait[0], s.wait[1] = s.wait[1], line
	s.emit(first)
	if s.raw {
		// The rest goes as received.
		s.out = append(append(s.out, '\n'), s.wait[0]...)
		s.out = append(append(s.out, '\n'), s.wait[1]...)
		s.out = append(s.out, '\n')
		s.letGo()
		return
	}
	if len(s.out) >= flushSize {
		s.put(nil)
	}
}

// EndRuns ends the runs of one chunk: the lines that wait are copied (the
// runs are let go) and the output gathered is written.
func (s *Stream) EndRuns() error {
	if s.err != nil {
		return s.err
	}
	if s.nwait > 0 {
		s.cur ^= 1
		nb := s.own[s.cur][:0]
		for w := 0; w < s.nwait; w++ {
			a := len(nb)
			nb = append(nb, s.wait[w]...)
			s.wait[w] = nb[a:len(nb):len(nb)]
		}
		s.own[s.cur] = nb
	}
	s.put(nil)
	return s.err
}

// boundLine ends the reformatting at the line being received when it is
// longer than HoldLimit: it is not held until its newline (one that never
// ends would grow agsh without bound). The lines waiting before it are
// reformatted; from it on the rest prints as received, with one note.
func (s *Stream) boundLine() {
	if len(s.part) <= HoldLimit {
		return
	}
	begun := s.part
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
	s.part, s.own, s.wait, s.nwait = nil, [2][]byte{}, [2][]byte{}, 0
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
		text := s.heldText()
		s.held, s.nheld = nil, 0
		out, ok := s.spec.ReformatText(text, s.opts)
		if !ok {
			return StreamEnd{Verbatim: true}, s.write(text)
		}
		return StreamEnd{Notes: out.Notes, Status: out.Status}, s.write(out.Stdout)
	}
	if s.put(nil); s.err != nil {
		return StreamEnd{}, s.err
	}
	if s.raw {
		return StreamEnd{Notes: s.notes, Verbatim: true}, nil
	}
	// The lines still waiting, and the last (no newline after it).
	var all [][]byte
	all = append(all, s.wait[:s.nwait]...)
	all = append(all, s.part)
	lines, notes := s.fmt.last(all, s.n)
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
	s.letGo()
	s.notes = append(s.notes, notes...)
	if !s.raw {
		s.out = append(s.out, s.fmt.end(len(notes) > 0)...)
		s.notes = append(s.notes, s.fmt.notes()...)
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

// Package termbg finds out whether a terminal's background is light, for
// picking light or dark color styles
// (docs/rendering.md#color-and-highlighting).
//
// The facts come from the caller (only cmd/agsh reads the environment):
// COLORFGBG first; otherwise the terminal is asked with an OSC 11 query on
// its own device, bounded by a timeout, and only when a Detector is first
// asked — that is, when colored markdown or highlighting is about to be
// written, never at start-up (internal/termquiet keeps the libraries from
// asking earlier).
package termbg

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// FromColorFGBG reads rxvt's COLORFGBG ("fg;bg" or "fg;xpm;bg"): ok is
// false when it says nothing usable. Backgrounds 0–6 and 8 are dark, 7 and
// 9–15 light.
func FromColorFGBG(v string) (light, ok bool) {
	if v == "" {
		return false, false
	}
	fields := strings.Split(v, ";")
	bg, err := strconv.Atoi(strings.TrimSpace(fields[len(fields)-1]))
	if err != nil || bg < 0 || bg > 15 {
		return false, false
	}
	return bg == 7 || bg >= 9, true
}

// FromOSC11 reads a terminal's answer to "ESC ] 11 ; ? ST":
// "ESC ] 11 ; rgb:RRRR/GGGG/BBBB" ended by BEL or ST (1 to 4 hex digits a
// component). The background is light when its relative luminance is above
// one half.
func FromOSC11(answer []byte) (light, ok bool) {
	i := bytes.Index(answer, []byte("\x1b]11;"))
	if i < 0 {
		return false, false
	}
	rest := answer[i+5:]
	end := bytes.IndexAny(rest, "\x07\x1b")
	if end < 0 {
		return false, false
	}
	spec := string(rest[:end])
	spec, found := strings.CutPrefix(spec, "rgb:")
	if !found {
		spec, found = strings.CutPrefix(spec, "rgba:")
		if !found {
			return false, false
		}
	}
	parts := strings.Split(spec, "/")
	if len(parts) < 3 {
		return false, false
	}
	var c [3]float64
	for k := 0; k < 3; k++ {
		p := parts[k]
		if len(p) < 1 || len(p) > 4 {
			return false, false
		}
		n, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return false, false
		}
		c[k] = float64(n) / float64(uint64(1)<<(4*len(p))-1)
	}
	lum := 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
	return lum > 0.5, true
}

// DrainTimeout bounds how long Query waits, past its own timeout, for the
// device attributes answer that ends the terminal's answers: a late
// OSC 11 answer (common over ssh) is read up to it rather than left in
// the input for the next program to take for typed keys.
const DrainTimeout = 500 * time.Millisecond

// Query asks the terminal open as tty for its background color, waiting at
// most timeout for the answer. It sends OSC 11 followed by a primary device
// attributes request (DA1), which every terminal answers, and reads up to
// that answer (DrainTimeout more when it is late), so that no late reply is
// left to be read as typed input. It does not ask when keys are already
// waiting in the input (they are left for their reader), and bytes that
// arrive among the answers and are not part of them (keys typed meanwhile)
// are given back to the terminal's input. ok is false when the terminal
// does not tell (or tty cannot be put in raw mode).
func Query(tty *os.File, timeout time.Duration) (light, ok bool) {
	light, ok, _ = query(tty, timeout, DrainTimeout, nil)
	return light, ok
}

// query is Query; giveBack receives the bytes that are not answers (nil:
// they are pushed back into the terminal's input), rest reports them.
func query(tty *os.File, timeout, drain time.Duration, giveBack func([]byte)) (light, ok bool, rest []byte) {
	// Not tty.Fd(): it would put the file in blocking mode, where the read
	// deadline does nothing.
	rc, err := tty.SyscallConn()
	if err != nil {
		return false, false, nil
	}
	fd := -1
	if rc.Control(func(f uintptr) { fd = int(f) }) != nil || fd < 0 {
		return false, false, nil
	}
	old, err := term.MakeRaw(fd)
	if err != nil {
		return false, false, nil
	}
	defer term.Restore(fd, old)
	if pending(fd) != 0 {
		// Keys typed ahead (or the count unknown): asking would read them.
		return false, false, nil
	}
	if _, err := tty.WriteString("\x1b]11;?\x1b\\\x1b[c"); err != nil {
		return false, false, nil
	}
	defer tty.SetReadDeadline(time.Time{})
	var got []byte
	buf := make([]byte, 256)
	read := func(until time.Time) {
		if tty.SetReadDeadline(until) != nil {
			return
		}
		for len(got) < 4096 && !da1End(got) {
			n, err := tty.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				return
			}
		}
	}
	start := time.Now()
	read(start.Add(timeout))
	if !da1End(got) && drain > 0 {
		// Late: read on to the fence, so that nothing of the answers is
		// left in the input.
		read(start.Add(timeout + drain))
	}
	answer, rest := splitAnswers(got)
	if len(rest) > 0 {
		if giveBack != nil {
			giveBack(rest)
		} else {
			pushBack(fd, rest)
		}
	}
	light, ok = FromOSC11(answer)
	return light, ok, rest
}

// splitAnswers separates the terminal's answers in b (an OSC 11 reply, up
// to BEL or ST, and the DA1 reply "ESC [ ? … c") from the other bytes (keys
// typed meanwhile), in order.
func splitAnswers(b []byte) (answers, rest []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0x1b)
		if i < 0 {
			rest = append(rest, b...)
			break
		}
		rest = append(rest, b[:i]...)
		b = b[i:]
		n := answerLen(b)
		if n == 0 {
			rest = append(rest, b[0])
			b = b[1:]
			continue
		}
		answers = append(answers, b[:n]...)
		b = b[n:]
	}
	return answers, rest
}

// answerLen is the length of the answer at the start of b (ESC first): an
// OSC 11 reply or a DA1 reply, whole or cut off at the end of b; 0 when b
// starts with neither.
func answerLen(b []byte) int {
	switch {
	case bytes.HasPrefix(b, []byte("\x1b]11;")):
		for i := 5; i < len(b); i++ {
			switch {
			case b[i] == 0x07:
				return i + 1
			case b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\':
				return i + 2
			case b[i] == 0x1b:
				return i
			}
		}
		return len(b)
	case bytes.HasPrefix(b, []byte("\x1b[?")):
		for i := 3; i < len(b); i++ {
			if c := b[i]; c == 'c' {
				return i + 1
			} else if !(c >= '0' && c <= '9' || c == ';') {
				return 0
			}
		}
		return len(b)
	}
	return 0
}

// da1End reports whether b holds the answer to the device attributes
// request: "ESC [ ? … c".
func da1End(b []byte) bool {
	i := bytes.Index(b, []byte("\x1b[?"))
	return i >= 0 && bytes.IndexByte(b[i:], 'c') > 0
}

// Detector answers "is the background light?" once, from what it was given:
// COLORFGBG first, else a query of the terminal device at TTYPath (when
// set). Safe for concurrent use.
type Detector struct {
	ColorFGBG string
	TTYPath   string
	Timeout   time.Duration
	// Exclusive, when set, runs the query with the terminal to itself and
	// reports whether it ran (the REPL releases the terminal for it, or
	// its input reader would take the answer for typed keys).
	Exclusive func(query func()) bool

	once  sync.Once
	light bool
}

// Light reports whether the background is light (false when unknown).
func (d *Detector) Light() bool {
	d.once.Do(func() {
		if light, ok := FromColorFGBG(d.ColorFGBG); ok {
			d.light = light
			return
		}
		if d.TTYPath == "" {
			return
		}
		if d.Exclusive == nil {
			d.light = d.query()
			return
		}
		var light bool
		if d.Exclusive(func() { light = d.query() }) {
			d.light = light
		}
	})
	return d.light
}

// query asks the terminal at TTYPath (false when it cannot be opened or
// does not tell).
func (d *Detector) query() bool {
	f, err := os.OpenFile(d.TTYPath, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	timeout := d.Timeout
	if timeout <= 0 {
		timeout = 100 * time.Millisecond
	}
	light, _ := Query(f, timeout)
	return light
}

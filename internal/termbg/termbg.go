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

// Query asks the terminal open as tty for its background color, waiting at
// most timeout. It sends OSC 11 followed by a primary device attributes
// request, which every terminal answers, and reads up to that answer, so
// no late reply is left to be read as typed input. ok is false when the
// terminal does not tell (or tty cannot be put in raw mode).
func Query(tty *os.File, timeout time.Duration) (light, ok bool) {
	// Not tty.Fd(): it would put the file in blocking mode, where the read
	// deadline does nothing.
	rc, err := tty.SyscallConn()
	if err != nil {
		return false, false
	}
	fd := -1
	if rc.Control(func(f uintptr) { fd = int(f) }) != nil || fd < 0 {
		return false, false
	}
	old, err := term.MakeRaw(fd)
	if err != nil {
		return false, false
	}
	defer term.Restore(fd, old)
	if _, err := tty.WriteString("\x1b]11;?\x1b\\\x1b[c"); err != nil {
		return false, false
	}
	if tty.SetReadDeadline(time.Now().Add(timeout)) != nil {
		return false, false
	}
	defer tty.SetReadDeadline(time.Time{})
	var got []byte
	buf := make([]byte, 256)
	for len(got) < 4096 {
		n, err := tty.Read(buf)
		got = append(got, buf[:n]...)
		if da1End(got) {
			break
		}
		if err != nil {
			break
		}
	}
	return FromOSC11(got)
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

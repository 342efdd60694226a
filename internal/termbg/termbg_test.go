package termbg

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

func TestFromColorFGBG(t *testing.T) {
	for v, want := range map[string][2]bool{
		"15;0": {false, true}, "0;15": {true, true}, "0;7": {true, true}, "15;8": {false, true},
		"12;default;0": {false, true}, "0;default;15": {true, true}, "0;11": {true, true},
		"": {false, false}, "15;default": {false, false}, "x": {false, false}, "0;16": {false, false},
	} {
		light, ok := FromColorFGBG(v)
		if light != want[0] || ok != want[1] {
			t.Errorf("FromColorFGBG(%q) = %v, %v; want %v, %v", v, light, ok, want[0], want[1])
		}
	}
}

func TestFromOSC11(t *testing.T) {
	for answer, want := range map[string][2]bool{
		"\x1b]11;rgb:ffff/ffff/ffff\x1b\\": {true, true},
		"\x1b]11;rgb:0000/0000/0000\x07":   {false, true},
		"\x1b]11;rgb:fdf6/e3e3/e3e3\x1b\\": {true, true},  // solarized light
		"\x1b]11;rgb:28/2c/34\x07":         {false, true}, // one dark, two digits
		"\x1b]11;rgba:ff/ff/ff/ff\x07":     {true, true},
		"junk\x1b]11;rgb:f/f/f\x07":        {true, true},
		"\x1b]11;rgb:ffff/ffff\x07":        {false, false},
		"\x1b]11;rgb:fffff/0/0\x07":        {false, false},
		"\x1b]11;#ffffff\x07":              {false, false},
		"\x1b]11;rgb:ffff/ffff/ffff":       {false, false},
		"\x1b[?62;c":                       {false, false},
	} {
		light, ok := FromOSC11([]byte(answer))
		if light != want[0] || ok != want[1] {
			t.Errorf("FromOSC11(%q) = %v, %v; want %v, %v", answer, light, ok, want[0], want[1])
		}
	}
}

// openPTY returns the two ends of a new pseudo-terminal.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(fdOf(t, m), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(fdOf(t, m), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("ptsname: %v", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open slave: %v", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

// terminal plays the terminal on the master side: it reads the queries and
// writes answer once both have arrived.
func terminal(t *testing.T, master *os.File, answer string) <-chan string {
	got := make(chan string, 1)
	go func() {
		var b []byte
		buf := make([]byte, 64)
		for !bytes.Contains(b, []byte("\x1b[c")) {
			n, err := master.Read(buf)
			if err != nil {
				break
			}
			b = append(b, buf[:n]...)
		}
		if answer != "" {
			master.WriteString(answer)
		}
		got <- string(b)
	}()
	return got
}

func TestQuery(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		light, ok    bool
	}{
		{"light", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c", true, true},
		{"dark", "\x1b]11;rgb:1e1e/1e1e/1e1e\x07\x1b[?1;2c", false, true},
		{"no OSC 11 support", "\x1b[?1;2c", false, false},
		{"no answer at all", "", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			master, slave := openPTY(t)
			sent := terminal(t, master, tc.answer)
			timeout := 5 * time.Second
			if tc.answer == "" {
				timeout = 100 * time.Millisecond
			}
			light, ok := Query(slave, timeout)
			if light != tc.light || ok != tc.ok {
				t.Errorf("Query = %v, %v; want %v, %v", light, ok, tc.light, tc.ok)
			}
			if q := <-sent; q != "\x1b]11;?\x1b\\\x1b[c" {
				t.Errorf("queries sent = %q", q)
			}
		})
	}
}

func TestDetectorPrefersColorFGBG(t *testing.T) {
	d := &Detector{ColorFGBG: "0;15", TTYPath: "/nonexistent/tty"}
	if first, again := d.Light(), d.Light(); !first || !again { // the second answer comes from the first
		t.Error("COLORFGBG 0;15 is a light background")
	}
	d = &Detector{TTYPath: "/nonexistent/tty"}
	if d.Light() {
		t.Error("no facts: dark")
	}
}

// fdOf is f's descriptor, leaving f in non-blocking mode (unlike f.Fd).
func fdOf(t *testing.T, f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	fd := -1
	rc.Control(func(u uintptr) { fd = int(u) })
	return fd
}

// With Exclusive set (the REPL), the query runs inside it; when it cannot
// run there, nothing is asked and the background counts as dark.
func TestDetectorExclusive(t *testing.T) {
	master, slave := openPTY(t)
	sent := terminal(t, master, "\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c")
	inside := 0
	d := &Detector{TTYPath: slave.Name(), Timeout: 5 * time.Second, Exclusive: func(query func()) bool {
		inside++
		query()
		return true
	}}
	first := d.Light()
	if again := d.Light(); !first || !again || inside != 1 {
		t.Errorf("light %v then %v, queries inside Exclusive %d; want true, true, 1", first, again, inside)
	}
	<-sent
	d = &Detector{TTYPath: "/nonexistent/tty", Exclusive: func(func()) bool { return false }}
	if d.Light() {
		t.Error("a query that could not run: dark")
	}
	d = &Detector{ColorFGBG: "0;15", TTYPath: "/nonexistent/tty", Exclusive: func(func()) bool {
		t.Error("asked with COLORFGBG set")
		return false
	}}
	if !d.Light() {
		t.Error("COLORFGBG 0;15 is light")
	}
}

// answerAfter plays a slow terminal: once both queries have arrived it
// waits delay, then writes answer.
func answerAfter(t *testing.T, master *os.File, delay time.Duration, answer string) <-chan string {
	got := make(chan string, 1)
	go func() {
		var b []byte
		buf := make([]byte, 64)
		for !bytes.Contains(b, []byte("\x1b[c")) {
			n, err := master.Read(buf)
			if err != nil {
				break
			}
			b = append(b, buf[:n]...)
		}
		time.Sleep(delay)
		master.WriteString(answer)
		got <- string(b)
	}()
	return got
}

// leftover is what a program reading the terminal after the query would
// get within a moment (raw mode, so that a line need not be complete).
func leftover(t *testing.T, slave *os.File) string {
	t.Helper()
	old, err := term.MakeRaw(fdOf(t, slave))
	if err != nil {
		t.Fatal(err)
	}
	defer term.Restore(fdOf(t, slave), old)
	slave.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	defer slave.SetReadDeadline(time.Time{})
	var b []byte
	buf := make([]byte, 256)
	for {
		n, err := slave.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			return string(b)
		}
	}
}

// TestQueryLateAnswer: an answer that comes after the wait (as over ssh)
// is read up to the DA1 fence, not left in the input for the next program.
func TestQueryLateAnswer(t *testing.T) {
	master, slave := openPTY(t)
	sent := answerAfter(t, master, 250*time.Millisecond, "\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c")
	light, ok, rest := query(slave, 50*time.Millisecond, 5*time.Second, nil)
	<-sent
	if !light || !ok || len(rest) != 0 {
		t.Errorf("query = %v, %v, rest %q; want the late answer read", light, ok, rest)
	}
	if left := leftover(t, slave); left != "" {
		t.Errorf("the answer was left in the input: %q", left)
	}
}

// TestQueryLeavesTypeahead: keys typed before the query are not read: the
// terminal is not asked, and the keys are there for their reader.
func TestQueryLeavesTypeahead(t *testing.T) {
	master, slave := openPTY(t)
	master.WriteString("ls -l")
	time.Sleep(50 * time.Millisecond) // the keys reach the input queue first
	asked := make(chan string, 1)
	go func() {
		master.SetReadDeadline(time.Now().Add(2 * time.Second))
		buf := make([]byte, 64)
		n, _ := master.Read(buf)
		asked <- string(buf[:n])
	}()
	if _, ok, _ := query(slave, 100*time.Millisecond, time.Second, nil); ok {
		t.Error("asked with keys waiting")
	}
	if left := leftover(t, slave); left != "ls -l" {
		t.Errorf("the typed keys: %q, want %q", left, "ls -l")
	}
	if q := <-asked; strings.Contains(q, "\x1b]11;?") {
		t.Errorf("the terminal was asked: %q", q)
	}
}

// TestQueryGivesBackKeys: keys typed while the answers arrive are not
// eaten: they are given back (to the hook, else into the input).
func TestQueryGivesBackKeys(t *testing.T) {
	master, slave := openPTY(t)
	answerAfter(t, master, 0, "x\x1b]11;rgb:0000/0000/0000\x07yz\x1b[?1;2c")
	var back []byte
	light, ok, _ := query(slave, 5*time.Second, time.Second, func(b []byte) { back = append(back, b...) })
	if light || !ok || string(back) != "xyz" {
		t.Errorf("query = %v, %v, gave back %q; want dark, told, xyz", light, ok, back)
	}
	answerAfter(t, master, 0, "a\x1b]11;rgb:0000/0000/0000\x07b\x1b[?1;2c")
	if _, ok := Query(slave, 5*time.Second); !ok {
		t.Fatal("no answer")
	}
	switch left := leftover(t, slave); left {
	case "ab":
	case "":
		t.Skip("the system refuses TIOCSTI: the keys could not be given back")
	default:
		t.Errorf("the keys in the input: %q, want ab", left)
	}
}

func TestSplitAnswers(t *testing.T) {
	for in, want := range map[string][2]string{
		"\x1b]11;rgb:1/2/3\x1b\\\x1b[?62;22c":   {"\x1b]11;rgb:1/2/3\x1b\\\x1b[?62;22c", ""},
		"k\x1b]11;rgb:1/2/3\x07e\x1b[?1cy":      {"\x1b]11;rgb:1/2/3\x07\x1b[?1c", "key"},
		"\x1b[A\x1b]11;rgb:1/2/3\x07\x1b[?1;2c": {"\x1b]11;rgb:1/2/3\x07\x1b[?1;2c", "\x1b[A"},
	} {
		a, r := splitAnswers([]byte(in))
		if string(a) != want[0] || string(r) != want[1] {
			t.Errorf("splitAnswers(%q) = %q, %q; want %q, %q", in, a, r, want[0], want[1])
		}
	}
}

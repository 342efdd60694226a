package pager

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "less -FRX"},
		{map[string]string{"PAGER": "more"}, "more"},
		{map[string]string{"PAGER": "cat"}, ""},
		{map[string]string{"PAGER": ""}, ""},
		{map[string]string{"AGSH_PAGER": ""}, ""},
		{map[string]string{"AGSH_PAGER": "", "PAGER": "more"}, ""},
		{map[string]string{"AGSH_PAGER": "bat -p", "PAGER": "cat"}, "bat -p"},
		{map[string]string{"AGSH_PAGER": " cat "}, ""},
	} {
		lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
		if got := Command(lookup); got != tc.want {
			t.Errorf("Command(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

// fakePager writes a script that marks its output, for the pager command.
func fakePager(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pager")
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho '[pager start]'\ncat\necho '[pager end]'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestShortOutputIsNotPaged(t *testing.T) {
	var tty, stderr bytes.Buffer
	p := New(fakePager(t), 5, 80, &tty, &stderr, nil)
	p.Out().Write([]byte("one\ntwo\n"))
	p.Err().Write([]byte("note\n"))
	p.Out().Write([]byte("three\nfour\n"))
	if tty.Len() != 0 {
		t.Errorf("written before Close: %q", tty.String())
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if p.Paging() || tty.String() != "one\ntwo\nthree\nfour\n" || stderr.String() != "note\n" {
		t.Errorf("paging %v, tty %q, stderr %q", p.Paging(), tty.String(), stderr.String())
	}
}

func TestTallOutputIsPaged(t *testing.T) {
	var tty, stderr bytes.Buffer
	p := New(fakePager(t), 5, 80, &tty, &stderr, []string{"PATH=/usr/bin:/bin"})
	var want strings.Builder
	for i := 0; i < 50; i++ {
		line := strings.Repeat("x", i) + "\n"
		want.WriteString(line)
		p.Out().Write([]byte(line))
	}
	p.Err().Write([]byte("(2 more columns)\n"))
	if stderr.Len() != 0 {
		t.Errorf("standard error written before the pager exited: %q", stderr.String())
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !p.Paging() || tty.String() != "[pager start]\n"+want.String()+"[pager end]\n" {
		t.Errorf("paging %v, tty %q", p.Paging(), tty.String())
	}
	if stderr.String() != "(2 more columns)\n" {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestWrappedLinesCount(t *testing.T) {
	var tty, stderr bytes.Buffer
	p := New(fakePager(t), 5, 10, &tty, &stderr, nil)
	p.Out().Write([]byte(strings.Repeat("y", 35) + "\n" + strings.Repeat("z", 15) + "\n")) // 4 + 2 rows
	p.Close()
	if !p.Paging() {
		t.Errorf("6 rows on a 5-row screen not paged: %q", tty.String())
	}
}

// A line's width counts across writes: output that arrives in pieces
// (a line cut between two writes, one long line not ended yet) is paged
// as it would be in one write.
func TestRowsCountAcrossWrites(t *testing.T) {
	var tty, stderr bytes.Buffer
	p := New(fakePager(t), 10, 80, &tty, &stderr, nil)
	for i := 0; i < 6; i++ { // 6 lines of 120 bytes: 12 rows
		p.Out().Write([]byte(strings.Repeat("x", 60)))
		p.Out().Write([]byte(strings.Repeat("y", 60) + "\n"))
	}
	p.Close()
	if !p.Paging() {
		t.Errorf("12 rows on a 10-row screen, written in halves, not paged")
	}
	tty.Reset()
	p = New(fakePager(t), 10, 80, &tty, &stderr, nil)
	p.Out().Write([]byte(strings.Repeat("z", 2000))) // 25 rows, no newline yet
	if !p.Paging() {
		t.Errorf("a line of 25 rows not paged before it ends")
	}
	p.Close()
	if !strings.Contains(tty.String(), strings.Repeat("z", 2000)) {
		t.Errorf("the long line is lost: %q", tty.String())
	}
}

func TestOffOrNoScreen(t *testing.T) {
	for _, p := range []*Pager{New("", 5, 80, nil, nil, nil), New("less", 0, 80, nil, nil, nil)} {
		var tty, stderr bytes.Buffer
		p.tty, p.stderr = &tty, &stderr
		p.Out().Write([]byte(strings.Repeat("a\n", 100)))
		if tty.Len() != 200 {
			t.Errorf("output held with paging off: %d bytes written", tty.Len())
		}
		p.Close()
		if p.Paging() {
			t.Error("paged with paging off")
		}
	}
}

func TestPagerThatDoesNotStart(t *testing.T) {
	var tty, stderr bytes.Buffer
	p := New("/nonexistent/pager", 2, 80, &tty, &stderr, nil)
	p.Out().Write([]byte("a\nb\nc\n"))
	p.Close()
	if !strings.Contains(tty.String(), "a\nb\nc\n") {
		t.Errorf("output lost: tty %q stderr %q", tty.String(), stderr.String())
	}
}

// TestLongLineCut: on its way to the pager a line keeps its first MaxLine
// bytes (cut at a character, across writes), the lines after it are whole,
// and a note after the pager says so; written straight to the terminal
// nothing is cut.
func TestLongLineCut(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "got")
	pager := filepath.Join(dir, "pager")
	os.WriteFile(pager, []byte("#!/bin/sh\ncat > '"+got+"'\n"), 0o755)
	var tty, stderr bytes.Buffer
	p := New(pager, 5, 80, &tty, &stderr, nil)
	p.Err().Write([]byte("→ no session\n"))
	long := strings.Repeat("é", MaxLine/2) + "x" // one byte past the bound, cut inside no character
	for i := 0; i < len(long); i += 4096 {
		p.Out().Write([]byte(long[i:min(i+4096, len(long))]))
	}
	p.Out().Write([]byte("\nshort\n" + strings.Repeat("a\n", 10)))
	p.Close()
	b, _ := os.ReadFile(got)
	want := strings.Repeat("é", MaxLine/2) + "\nshort\n" + strings.Repeat("a\n", 10)
	if string(b) != want {
		t.Errorf("the pager got %d bytes, want %d (the line cut at %d)", len(b), len(want), MaxLine)
	}
	if stderr.String() != CutNote+"→ no session\n" {
		t.Errorf("stderr %q", stderr.String())
	}
	tty.Reset()
	stderr.Reset()
	p = New("", 5, 80, &tty, &stderr, nil)
	p.Out().Write([]byte(long + "\n"))
	p.Close()
	if tty.Len() != len(long)+1 || stderr.Len() != 0 {
		t.Errorf("unpaged output was cut: %d bytes, stderr %q", tty.Len(), stderr.String())
	}
}

// TestQuit: Quit is closed once the pager exits, and what is written after
// it is dropped without an error.
func TestQuit(t *testing.T) {
	dir := t.TempDir()
	pager := filepath.Join(dir, "pager")
	os.WriteFile(pager, []byte("#!/bin/sh\nhead -c 10 >/dev/null\n"), 0o755)
	var tty, stderr bytes.Buffer
	p := New(pager, 2, 80, &tty, &stderr, nil)
	chunk := []byte(strings.Repeat("line\n", 1000))
	for {
		if _, err := p.Out().Write(chunk); err != nil {
			t.Fatal(err)
		}
		select {
		case <-p.Quit():
			if _, err := p.Out().Write(chunk); err != nil {
				t.Errorf("a write after the pager quit: %v", err)
			}
			p.Close()
			return
		default:
		}
	}
}

// TestQuitDuringEndlessLine: a line that never ends is ended for the pager
// at the cut, so a pager that waits for a line's end (less draws the
// screen, and reads the user's q, only then) can quit while the line still
// streams.
func TestQuitDuringEndlessLine(t *testing.T) {
	dir := t.TempDir()
	pager := filepath.Join(dir, "pager")
	os.WriteFile(pager, []byte("#!/bin/sh\nhead -n 1 >/dev/null\n"), 0o755)
	var tty, stderr bytes.Buffer
	p := New(pager, 2, 80, &tty, &stderr, nil)
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	// The line streams on (64 MiB at most) while the pager reads it.
	for written := 0; written < 64*MaxLine; written += len(chunk) {
		p.Out().Write(chunk)
		if p.exited.Load() {
			break
		}
	}
	select {
	case <-p.Quit():
	case <-time.After(time.Minute): // a hang detector
		t.Fatal("the pager never saw the cut line end, so it could not quit")
	}
	p.Close()
	if stderr.Len() != 0 {
		t.Errorf("a note after the user quit: %q", stderr.String())
	}
}

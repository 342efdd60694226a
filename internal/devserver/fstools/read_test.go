package fstools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func numbered(from, to int, text func(i int) string) string {
	var lines []string
	for i := from; i <= to; i++ {
		lines = append(lines, fmt.Sprintf("%6d|%s", i, text(i)))
	}
	return strings.Join(lines, "\n")
}

func TestRead(t *testing.T) {
	var big strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	long := strings.Repeat("x", 60*1024)
	dir := writeTree(t, map[string]string{
		"empty.txt":  "",
		"crlf.txt":   "one\r\ntwo\r\nthree",
		"nonl.txt":   "a\nb",
		"nl.txt":     "a\nb\n",
		"big.txt":    big.String(),
		"long.txt":   "short\n" + long + "\nafter\n",
		"longonly":   long,
		"twelve.txt": strings.Repeat("z\n", 11) + "z",
		"bin.png":    "\x89PNG\x00\x01",
		"dir/x":      "",
		".hidden":    "secret\n",
	})
	ts := toolSet(dir)
	lineN := func(i int) string { return fmt.Sprintf("line %d", i) }
	tests := []struct {
		name, in, want string
		isErr          bool
	}{
		{"empty", `{"path":"empty.txt"}`, "File is empty.", false},
		{"crlf", `{"path":"/repo/crlf.txt"}`, "     1|one\n     2|two\n     3|three", false},
		{"no trailing newline", `{"path":"nonl.txt"}`, "     1|a\n     2|b", false},
		{"trailing newline", `{"path":"nl.txt"}`, "     1|a\n     2|b\n     3|", false},
		{"offset 0 is 1", `{"path":"nl.txt","offset":0}`, "     1|a\n     2|b\n     3|", false},
		{"offset last", `{"path":"nonl.txt","offset":2}`, "     2|b", false},
		{"negative offset", `{"path":"nonl.txt","offset":-1}`, "     2|b", false},
		{"negative offset first", `{"path":"nonl.txt","offset":-2}`, "     1|a\n     2|b", false},
		{"offset past end", `{"path":"twelve.txt","offset":40}`, "Offset 40 is beyond end of file (12 lines total)", true},
		{"offset just past end", `{"path":"twelve.txt","offset":13}`, "Offset 13 is beyond end of file (12 lines total)", true},
		{"offset before start", `{"path":"twelve.txt","offset":-13}`, "Offset -13 is beyond end of file (12 lines total)", true},
		{"offset past int32", `{"path":"twelve.txt","offset":99999999999999999999}`, "Offset 99999999999999999999 is beyond end of file (12 lines total)", true},
		{"offset before int32", `{"path":"twelve.txt","offset":-4294967296}`, "Offset -4294967296 is beyond end of file (12 lines total)", true},
		{"limit zero", `{"path":"nl.txt","limit":0}`, "limit must be at least 1", true},
		{"limit negative", `{"path":"nl.txt","limit":-3}`, "limit must be at least 1", true},
		{"limit short", `{"path":"twelve.txt","offset":3,"limit":2}`, "     3|z\n     4|z\n\n[8 more lines in file. Use offset=5 to continue.]", false},
		{"limit to end", `{"path":"twelve.txt","offset":11,"limit":2}`, "    11|z\n    12|z", false},
		{"limit beyond end", `{"path":"twelve.txt","offset":-1,"limit":5}`, "    12|z", false},
		{"3000 lines cut at 2000", `{"path":"big.txt"}`, numbered(1, 2000, lineN) + "\n\n[Showing lines 1-2000 of 3001. Use offset=2001 to continue.]", false},
		{"continue", `{"path":"big.txt","offset":2001}`, numbered(2001, 3000, lineN) + "\n  3001|", false},
		{"size notice wins", `{"path":"big.txt","limit":2500}`, numbered(1, 2000, lineN) + "\n\n[Showing lines 1-2000 of 3001. Use offset=2001 to continue.]", false},
		{"long line stops before", `{"path":"long.txt"}`, "     1|short\n\n[Showing lines 1-1 of 4. Use offset=2 to continue.]", false},
		{"long line truncated", `{"path":"long.txt","offset":2}`, "     2|" + long[:51200] + "… [line truncated at 51200 bytes]\n\n[Showing lines 2-2 of 4. Use offset=3 to continue.]", false},
		{"long only line", `{"path":"longonly"}`, "     1|" + long[:51200] + "… [line truncated at 51200 bytes]", false},
		{"binary", `{"path":"bin.png"}`, "Binary file: /repo/bin.png", true},
		{"directory", `{"path":"dir"}`, "Is a directory: /repo/dir", true},
		{"root directory", `{"path":"/"}`, "Is a directory: /", true},
		{"missing", `{"path":"/repo/nope.txt"}`, "No such file or directory: /repo/nope.txt", true},
		{"not a directory", `{"path":"nl.txt/x"}`, "Not a directory: /repo/nl.txt/x", true},
		{"dot dot out", `{"path":"../../etc/passwd"}`, "Path is outside the workspace: /etc/passwd", true},
		{"absolute outside", `{"path":"/etc/passwd"}`, "Path is outside the workspace: /etc/passwd", true},
		{"dot dot inside", `{"path":"/repo/dir/../nonl.txt"}`, "     1|a\n     2|b", false},
		{"hidden readable", `{"path":".hidden"}`, "     1|secret\n     2|", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := run(t, ts, "read", tt.in)
			if o.err != nil {
				t.Fatalf("input error: %v", o.err)
			}
			if o.text != tt.want || o.isError != tt.isErr {
				t.Fatalf("got (isError %v)\n%.300q\nwant (isError %v)\n%.300q", o.isError, o.text, tt.isErr, tt.want)
			}
		})
	}
}

func TestReadSizeCutAtWholeLine(t *testing.T) {
	line := strings.Repeat("y", 999) // 1000 bytes with its newline
	dir := writeTree(t, map[string]string{"f": strings.Repeat(line+"\n", 100)})
	got := mustText(t, toolSet(dir), "read", `{"path":"f"}`)
	want := numbered(1, 51, func(int) string { return line }) + "\n\n[Showing lines 1-51 of 101. Use offset=52 to continue.]"
	if got != want {
		t.Fatalf("cut at the wrong line: got %d bytes, want %d; tail %q", len(got), len(want), got[len(got)-80:])
	}
}

func TestReadSymlinkOutOfMount(t *testing.T) {
	outside := writeTree(t, map[string]string{"secret.txt": "s\n"})
	dir := writeTree(t, map[string]string{"in.txt": "i\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.txt", filepath.Join(dir, "inside.txt")); err != nil {
		t.Fatal(err)
	}
	ts := toolSet(dir)
	for in, want := range map[string]string{
		`{"path":"link.txt"}`:           "Path is outside the workspace: /repo/link.txt",
		`{"path":"linkdir/secret.txt"}`: "Path is outside the workspace: /repo/linkdir/secret.txt",
		`{"path":"linkdir/missing"}`:    "Path is outside the workspace: /repo/linkdir/missing",
	} {
		o := run(t, ts, "read", in)
		if !o.isError || o.text != want {
			t.Errorf("read %s = %q (isError %v), want %q", in, o.text, o.isError, want)
		}
	}
	if got := mustText(t, ts, "read", `{"path":"inside.txt"}`); got != "     1|i\n     2|" {
		t.Errorf("symlink inside the mount: %q", got)
	}
	ls := mustText(t, ts, "ls", `{"target_directory":"/repo"}`)
	if ls != "- /repo/\n  - in.txt\n  - inside.txt" {
		t.Errorf("ls shows links out of the mount:\n%s", ls)
	}
}

func TestReadBadInput(t *testing.T) {
	ts := toolSet(writeTree(t, map[string]string{"a": "a"}))
	for _, in := range []string{`[]`, `"x"`, `{"path":3}`, `{"path":"a","offset":1.5}`, `{"path":"a","limit":"2"}`, `{`} {
		if o := run(t, ts, "read", in); o.err == nil {
			t.Errorf("read %s: want an input error, got %q", in, o.text)
		}
	}
	if got := mustText(t, ts, "read", `{"path":"a","offset":1e0,"limit":99999999999999999999}`); got != "     1|a" {
		t.Errorf("huge limit: %q", got)
	}
}

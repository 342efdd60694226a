package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// checkGolden compares got with testdata/<name>.golden (rewriting it with
// -update).
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// structure is what a golden output must satisfy whatever the golden file
// says, so regenerating goldens cannot hide a break.
type structure struct {
	width    int
	color    bool
	sections []string // section headers expected, in order (help pages)
}

func checkStructure(t *testing.T, out string, s structure) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Error("output is not valid UTF-8")
	}
	plain := stripANSI(out)
	for i, r := range plain {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Errorf("control character %U at byte %d of the escape-stripped output", r, i)
			break
		}
	}
	if !s.color && strings.ContainsRune(out, 0x1b) {
		t.Error("escape sequence in output with color off")
	}
	if s.color && !strings.Contains(out, "\x1b[") {
		t.Error("no color sequence in output with color on")
	}
	for n, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		// Only a word wider than the line may pass it, alone on its line:
		// a word is never broken.
		if w := displayWidth(l); w > s.width && len(strings.Fields(stripANSI(l))) > 1 {
			t.Errorf("line %d is %d cells wide (limit %d): %q", n+1, w, s.width, stripANSI(l))
		}
		if p := stripANSI(l); strings.TrimRight(p, " \t") != p {
			t.Errorf("line %d ends in whitespace: %q", n+1, p)
		}
	}
	if s.sections != nil {
		var got []string
		for _, l := range strings.Split(plain, "\n") {
			if l != "" && l == strings.ToUpper(l) && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "Run ") {
				got = append(got, l)
			}
		}
		if strings.Join(got, ",") != strings.Join(s.sections, ",") {
			t.Errorf("sections = %v, want %v", got, s.sections)
		}
	}
}

// bothColors runs f for color off and on, naming the goldens name.golden
// and name.color.golden.
func bothColors(t *testing.T, name string, f func(o Options) string, s structure) {
	for _, color := range []bool{false, true} {
		n := name
		if color {
			n += ".color"
		}
		t.Run(n, func(t *testing.T) {
			out := f(Options{TTY: true, Color: color, Width: 80})
			s := s
			s.color = color
			checkStructure(t, out, s)
			checkGolden(t, n, []byte(out))
		})
	}
}

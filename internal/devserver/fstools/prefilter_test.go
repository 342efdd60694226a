package fstools

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func TestBuildPrefilter(t *testing.T) {
	tests := []struct {
		expr string
		want string // lits|fold|complete, or "none"
	}{
		{"(?m)func", "func|false|true"},
		{"(?m)foo|bar", "foo,bar|false|true"},
		{"(?m)(?i)handler|error", "handler,error|true|true"},
		{"(?m)^import", "import|false|false"},
		{`(?m)\bid\b`, "id|false|false"},
		{"(?m)a.c", "none"},
		{"(?m)x*", "none"},
		{"(?m)func [A-Z]\\w+Handler", "Handler|false|false"},
		{"(?m)(?i)kelvin", "none"},
		{"(?m)(?i)ask", "none"},
		{"(?m)(ab){2}", "ab|false|false"},
		{"(?m)foo|", "none"},
		{"(?m)x", "x|false|true"},
		{"(?m)[0-9]+ apples", " apples|false|false"},
		{"(?m)(?i)Foo|bar", "foo,bar|true|true"},
		{"(?m)Foo|(?i)bar", "foo,bar|true|false"},
	}
	for _, tt := range tests {
		p := buildPrefilter(tt.expr)
		got := "none"
		if p != nil {
			var ls []string
			for _, l := range p.lits {
				ls = append(ls, string(l))
			}
			got = fmt.Sprintf("%s|%v|%v", strings.Join(ls, ","), p.fold, p.complete)
		}
		if got != tt.want {
			t.Errorf("buildPrefilter(%q) = %s, want %s", tt.expr, got, tt.want)
		}
	}
}

// TestPrefilterAgreesWithRegexp checks that the literal-first search finds
// exactly the lines the plain whole-buffer search finds.
func TestPrefilterAgreesWithRegexp(t *testing.T) {
	var text strings.Builder
	for _, c := range genTree(3, 12, 400) {
		text.WriteString(c)
	}
	text.WriteString("\u212Aelvin KELVIN kelvin\nASK a\u017Fk\nfoo\nab ab abab\n")
	buf := []byte(text.String())
	for _, p := range []string{"func", "foo|bar", `\bid\b`, "^import", "error$", "[Ee]rror", "ERR(or)?",
		`\d{3} abc`, "(ab){2}", `[0-9]{4} [a-z]+$`, `\d+`, `[A-Z][a-z]+ [0-9]`, `^[A-Z]`, `\bX?[0-9]`, `(?:Z|1)?[23]`, `[[:upper:]]{2}`, `\pL\d`, `X*1|Y+2`, "kelvin", "ask", "Handler|x", "nil ctx", "go\r", "a1c|abc", "value$"} {
		for _, flags := range []string{"(?m)", "(?m)(?i)", "(?m)(?s)", "(?m)(?i)(?s)"} {
			re := regexp.MustCompile(flags + p)
			for _, content := range []bool{false, true} {
				plain := &scanner{re: re, multiline: strings.Contains(flags, "s"), content: content, before: 1, after: 2}
				fast := *plain
				fast.pre = buildPrefilter(flags + p)
				if fast.pre == nil {
					fast.first = firstBytes(flags + p)
				}
				var a, b fileResult
				var scratch []byte
				plain.scan(buf, &a, &scratch)
				fast.scan(buf, &b, &scratch)
				if a.count != b.count || fmt.Sprint(a.lines) != fmt.Sprint(b.lines) {
					t.Errorf("%s%s (content %v): prefiltered %d lines, plain %d", flags, p, content, b.count, a.count)
				}
			}
		}
	}
}

func TestFirstBytes(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"(?m)[0-9]{4} [a-z]+$", "0123456789"},
		{`(?m)^\d+`, "0123456789"},
		{`(?m)(?i)[A-C]x`, "none"}, // folding adds lower case: not selective
		{`(?m)X?[0-9]`, "0123456789X"},
		{`(?m)\bQ|R`, "QR"},
		{"(?m)[a-z]+", "none"},
		{"(?m)x*", "none"},
		{"(?m).Z", "none"},
		{"(?m) X", "none"},
		{"(?m)(Z|)Y", "none"},
	}
	for _, tt := range tests {
		got := "none"
		if s := firstBytes(tt.expr); s != nil {
			got = ""
			for b := range 256 {
				if s[b] {
					got += string(rune(b))
				}
			}
		}
		if got != tt.want {
			t.Errorf("firstBytes(%q) = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

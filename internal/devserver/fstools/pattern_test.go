package fstools

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestMatchSegment(t *testing.T) {
	tests := []struct {
		pat, name string
		want      bool
	}{
		{"*.go", "main.go", true},
		{"*.go", "main.go.txt", false},
		{"*", "", true},
		{"?", "é", true},
		{"??", "é", false},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxbyy", false},
		{"[abc].txt", "b.txt", true},
		{"[!abc].txt", "b.txt", false},
		{"[^abc].txt", "d.txt", true},
		{"[a-c]x", "cx", true},
		{"[a-c]x", "dx", false},
		{"[]]", "]", true},
		{"[[:digit:]]*", "9lives", true},
		{"[[:upper:]]*", "lower", false},
		{`\*`, "*", true},
		{`\*`, "x", false},
		{`\#notes`, "#notes", true},
		{"[unclosed", "[unclosed", true},
		{"***", "anything", true},
		{"a?c", "abc", true},
		{"", "", true},
		{"", "x", false},
	}
	for _, tt := range tests {
		if got := matchSegment(tt.pat, tt.name); got != tt.want {
			t.Errorf("matchSegment(%q, %q) = %v, want %v", tt.pat, tt.name, got, tt.want)
		}
	}
}

func TestGlobPattern(t *testing.T) {
	tests := []struct {
		pat, rel string
		isDir    bool
		want     bool
	}{
		{"*.go", "main.go", false, true},
		{"*.go", "a/b/main.go", false, true},
		{"**/*.go", "main.go", false, true},
		{"src/*.go", "src/x.go", false, true},
		{"src/*.go", "a/src/x.go", false, true},
		{"src/*.go", "src/sub/x.go", false, false},
		{"src/**/*.go", "src/x.go", false, true},
		{"src/**/*.go", "src/a/b/x.go", false, true},
		{"*.{ts,tsx}", "a/b.tsx", false, true},
		{"*.{ts,tsx}", "a/b.js", false, false},
		{"{cmd,internal}/**", "internal/x/y.go", false, true},
		{"{cmd,internal}/**", "other/x.go", false, false},
		{"*.GO", "x.go", false, false},
		{"node_modules", "a/node_modules", true, true},
		{"build/", "build", false, false},
		{"build/", "build", true, true},
		{"{a,{b,c}}.txt", "c.txt", false, true},
		{"{unbalanced.txt", "{unbalanced.txt", false, true},
	}
	for _, tt := range tests {
		if got := mustGlob(t, tt.pat).match(tt.rel, tt.isDir); got != tt.want {
			t.Errorf("glob %q on %q (dir %v) = %v, want %v", tt.pat, tt.rel, tt.isDir, got, tt.want)
		}
	}
}

func TestExpandBracesBounded(t *testing.T) {
	p := ""
	for range 13 { // 8,192 patterns: taken
		p += "{a,b}"
	}
	if alts, err := expandBraces(p); err != nil || len(alts) != 8192 {
		t.Fatalf("expanded to %d patterns (%v), want 8192", len(alts), err)
	}
	for range 27 { // 2^40 patterns: refused at once, not expanded
		p += "{a,b}"
	}
	if alts, err := expandBraces(p); err == nil || alts != nil {
		t.Fatalf("2^40 patterns: got %d (%v), want a refusal", len(alts), err)
	}
	if _, err := compileGlob(p); err == nil || !strings.Contains(err.Error(), "more than 10000 patterns") {
		t.Fatalf("compileGlob: %v", err)
	}
	if _, err := compileGlob(strings.Repeat("a", maxGlobLength+1)); err == nil {
		t.Fatal("an overlong glob was taken")
	}
	ten := strings.Repeat("{0,1,2,3,4,5,6,7,8,9}", 4)
	if alts, err := expandBraces(ten); err != nil || len(alts) != maxBraceExpansions {
		t.Fatalf("exactly 10,000 patterns: %d (%v)", len(alts), err)
	}
	if _, err := expandBraces(ten + "{x,}"); err == nil {
		t.Fatal("20,000 patterns were taken")
	}
	// Few patterns, but long ones: the byte bound says so.
	long := strings.Repeat("{", 3000) + strings.Repeat("{a,b}", 11)
	if _, err := compileGlob(long); err == nil || !strings.Contains(err.Error(), "bytes of patterns") {
		t.Fatalf("2,048 patterns of 3 KB each: %v, want the byte bound", err)
	}
}

// The expansion is the one of expanding the leftmost group and rescanning
// the result (refBraces), pattern for pattern and in order.
func TestExpandBracesAsRescanning(t *testing.T) {
	pats := []string{
		"", "a", "{a,b}", "{a,b}{c,d}", "x{a,{b,c}d}y", "{{a,b}}", "{a}", "{,}", "{,a,}",
		"{unbalanced", "}{a,b}{", "{a,{b}", "{{{a,b},c},d}", `\{a,b}`, `{a\,b,c}`, `{a\,b}`,
		`{a,b\}`, "{a,b}/{c,{d,e}}/**", "{{a,b},{c,d}}{e,{f,g}}", "a{b{c,d}e,f}g", "{a{,b},}",
		strings.Repeat("{", 50) + "{a,b}" + strings.Repeat("}", 20),
	}
	rng := rand.New(rand.NewPCG(13, 13))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(14) {
			const alphabet = "{},a\\b"
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		pats = append(pats, b.String())
	}
	for _, p := range pats {
		want := refBraces(p)
		got, err := expandBraces(p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: got %q, want %q", p, got, want)
		}
	}
}

// refBraces expands the leftmost group with a top-level comma, then
// rescans each result: the plain reading of brace expansion, quadratic in
// unbalanced braces (the reference, not the implementation).
func refBraces(p string) []string {
	out := []string{}
	var expand func(s string)
	expand = func(s string) {
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '{':
				depth, end, commas := 0, -1, []int(nil)
			scan:
				for j := i; j < len(s); j++ {
					switch s[j] {
					case '\\':
						j++
					case '{':
						depth++
					case '}':
						if depth--; depth == 0 {
							end = j
							break scan
						}
					case ',':
						if depth == 1 {
							commas = append(commas, j)
						}
					}
				}
				if end < 0 || len(commas) == 0 {
					continue
				}
				prev := i + 1
				for _, c := range append(commas, end) {
					expand(s[:i] + s[prev:c] + s[end+1:])
					prev = c + 1
				}
				return
			}
		}
		out = append(out, s)
	}
	expand(p)
	return out
}

// BenchmarkExpandBracesUnbalanced: 3,900 unbalanced braces before nine
// groups (512 patterns of 3.9 KB) parse once, not once per group visited.
func BenchmarkExpandBracesUnbalanced(b *testing.B) {
	p := "**/" + strings.Repeat("{", 3900) + strings.Repeat("{a,b}", 9)
	for b.Loop() {
		if _, err := expandBraces(p); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzGlob(f *testing.F) {
	for _, s := range []string{"*.go", "**/a/**/b", "[a-", "{a,{b", `\`, "[[:x:]]", "[!]"} {
		f.Add(s, "a/b/c.go")
	}
	f.Fuzz(func(t *testing.T, pat, rel string) {
		if g, err := compileGlob(pat); err == nil {
			g.match(rel, false)
		}
		parseIgnore([]byte(pat), "").rules = nil
		matchSegment(pat, rel)
	})
}

func mustGlob(t *testing.T, p string) globPattern {
	t.Helper()
	g, err := compileGlob(p)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

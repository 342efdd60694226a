package fstools

import (
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
	if alts, ok := expandBraces(p); !ok || len(alts) != 8192 {
		t.Fatalf("expanded to %d patterns (ok %v), want 8192", len(alts), ok)
	}
	for range 27 { // 2^40 patterns: refused at once, not expanded
		p += "{a,b}"
	}
	if alts, ok := expandBraces(p); ok || alts != nil {
		t.Fatalf("2^40 patterns: got %d (ok %v), want a refusal", len(alts), ok)
	}
	if _, err := compileGlob(p); err == nil || !strings.Contains(err.Error(), "more than 10000 patterns") {
		t.Fatalf("compileGlob: %v", err)
	}
	if _, err := compileGlob(strings.Repeat("a", maxGlobLength+1)); err == nil {
		t.Fatal("an overlong glob was taken")
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

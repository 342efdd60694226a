package render

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// nearWhite matches 256-color foregrounds that vanish on a light
// background: 15, 231 and the light grays 250–255.
var nearWhite = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?38;5;(?:15|231|25[0-5])m`)

func counter(light bool) (func() bool, *int) {
	n := 0
	return func() bool { n++; return light }, &n
}

func TestMarkdownStyleSelection(t *testing.T) {
	asked, n := counter(true)
	for _, tc := range []struct {
		o    Options
		want string
		asks int
	}{
		{Options{Light: asked}, "notty", 0},
		{Options{Color: true}, "dark", 0},
		{Options{Color: true, Light: asked}, "light", 1},
		{Options{Color: true, Light: asked, GlamourStyle: "auto"}, "light", 1},
		{Options{Color: true, Light: asked, GlamourStyle: "dracula"}, "dracula", 0},
		{Options{Color: true, Light: asked, GlamourStyle: "/x/style.json"}, "/x/style.json", 0},
	} {
		*n = 0
		if got := tc.o.mdStyle(); got != tc.want || *n != tc.asks {
			t.Errorf("mdStyle(%+v) = %q after %d questions; want %q after %d", tc.o, got, *n, tc.want, tc.asks)
		}
	}
	dark, _ := counter(false)
	if s := (Options{Color: true, Light: dark}).chromaStyle(); s != chromaDark {
		t.Errorf("chroma style on dark = %q", s)
	}
	if s := (Options{Color: true, Light: asked}).chromaStyle(); s != chromaLight {
		t.Errorf("chroma style on light = %q", s)
	}
}

// TestNoBackgroundQuestionWithoutColoredMarkdown: tables, text, property
// views and help without a description never ask about the background.
func TestNoBackgroundQuestionWithoutColoredMarkdown(t *testing.T) {
	asked, n := counter(true)
	o := Options{TTY: true, Color: true, Width: 80, Light: asked}
	for _, v := range []Value{jsonValue(`[{"a":1}]`), jsonValue(`{"a":1}`), TextValue("x"), FinalValue("y")} {
		if err := Write(&bytes.Buffer{}, nil, v, o); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteHelp(&bytes.Buffer{}, HelpPage{Name: "t", Synopsis: "t"}, o); err != nil {
		t.Fatal(err)
	}
	if err := WriteHelp(&bytes.Buffer{}, HelpPage{Name: "t", Synopsis: "t", Description: "Some **bold** text."}, Options{Width: 80, Light: asked}); err != nil {
		t.Fatal(err)
	}
	if err := HighlightFileFor(&bytes.Buffer{}, "notes.unknownext", "text", o); err != nil {
		t.Fatal(err)
	}
	if *n != 0 {
		t.Errorf("the background was asked %d times", *n)
	}
}

func TestLightBackgroundHasNoNearWhiteText(t *testing.T) {
	md := "A *description* with `code`, a [link](https://example.com), **bold** text and\n\n" +
		"- a list\n- of items\n\n```go\nfunc main() { fmt.Println(\"hi\") }\n```\n\n> a quote\n\n# A heading\n"
	page := HelpPage{Name: "tool", Synopsis: "tool [options...]", Description: md,
		Options: []HelpItem{{Term: "--flag <string>", Description: "A flag."}}}
	src := "package main\n\n// main prints.\nfunc main() {\n\tx := \"s\" + 1\n\tfmt.Println(x)\n}\n"
	diff := "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n context\n"
	views := func(light bool) map[string]string {
		asked, n := counter(light)
		o := Options{TTY: true, Color: true, Width: 80, Light: asked}
		var help, code, patch bytes.Buffer
		if err := WriteHelp(&help, page, o); err != nil {
			t.Fatal(err)
		}
		if err := HighlightFileFor(&code, "main.go", src, o); err != nil {
			t.Fatal(err)
		}
		if err := HighlightDiffFor(&patch, diff, o); err != nil {
			t.Fatal(err)
		}
		if *n == 0 {
			t.Error("colored markdown and highlighting did not ask about the background")
		}
		return map[string]string{"help": help.String(), "source": code.String(), "diff": patch.String()}
	}
	for name, out := range views(true) {
		if m := nearWhite.FindString(out); m != "" {
			t.Errorf("%s on a light background uses near-white text %q:\n%q", name, m, out)
		}
		if !strings.Contains(out, "\x1b[") {
			t.Errorf("%s on a light background has no color", name)
		}
	}
	// The check can fail: the dark styles do use near-white text.
	dark := views(false)
	if nearWhite.FindString(dark["help"]) == "" || nearWhite.FindString(dark["source"]) == "" {
		t.Errorf("the dark styles use no near-white text; the light check proves nothing:\n%q\n%q", dark["help"], dark["source"])
	}
}

func TestGlamourStyleHonored(t *testing.T) {
	page := HelpPage{Name: "t", Synopsis: "t", Description: "Plain words."}
	help := func(o Options) string {
		var b bytes.Buffer
		if err := WriteHelp(&b, page, o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	path := t.TempDir() + "/style.json"
	if err := os.WriteFile(path, []byte(`{"document":{"color":"#ff0000"},"paragraph":{"color":"#ff0000"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := help(Options{Color: true, Width: 80, GlamourStyle: path}); !strings.Contains(out, "38;5;196") {
		t.Errorf("GLAMOUR_STYLE file not used:\n%q", out)
	}
	if out := help(Options{Color: true, Width: 80, GlamourStyle: "light"}); nearWhite.MatchString(out) || !strings.Contains(out, "38;5;234") {
		t.Errorf("GLAMOUR_STYLE=light not used:\n%q", out)
	}
	// A style that does not load falls back to dark rather than fail.
	if out := help(Options{Color: true, Width: 80, GlamourStyle: "/nonexistent.json"}); !strings.Contains(stripANSI(out), "Plain words.") {
		t.Errorf("a bad GLAMOUR_STYLE broke help:\n%q", out)
	}
}

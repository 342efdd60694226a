package render

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// hostileMarkdown holds character references that goldmark and glamour
// decode to control characters: a window title, a screen clear, a
// clipboard write, a color, one without its semicolon, one whose number
// wraps around to 27, and bidi and zero-width controls.
const hostileMarkdown = "Retitle &#27;]2;TITLE&#7; clear &#x1b;[2J clip &#27;]52;c;aGk=&#7;\n\n" +
	"* `span &#x1B;[31m` and **bold &#27;X**\n* nosemi &#27 x wrap &#18446744073709551643;\n" +
	"* [link &#x9b;](http://x/&#27;) del &#127; nul &#0; rlo &#x202E; lri &#x2066; zw &ZeroWidthSpace;\n\n" +
	"Kept: emoji 👩\u200d💻, Hebrew שלום, &amp;#27; and &lt;b&gt;."

// deploymentESC finds an ESC or BEL that is not part of an SGR sequence.
var deploymentESC = regexp.MustCompile("\x1b[^\\[]|\x1b\\[[0-9;]*[^0-9;m]|\a|[\u0080-\u009f]|[\u202a-\u202e\u2066-\u2069\u200b]")

// Help markdown cannot write control bytes: what goldmark decodes from
// character references shows escaped (never dropped), with and without
// color, on a terminal and piped; only agsh's own color remains.
func TestHelpMarkdownReferences(t *testing.T) {
	for _, o := range []Options{{}, {TTY: true}, {TTY: true, Color: true}, {Color: true}} {
		var b bytes.Buffer
		hp := HelpPage{Name: "evil", Title: "Evil", Synopsis: "evil [options...]", Description: hostileMarkdown}
		if err := WriteHelp(&b, hp, o); err != nil {
			t.Fatal(err)
		}
		var ib bytes.Buffer
		if err := WriteIndex(&ib, IndexPage{Name: "agent", Description: hostileMarkdown}, o); err != nil {
			t.Fatal(err)
		}
		for _, out := range []string{b.String(), ib.String()} {
			if loc := deploymentESC.FindStringIndex(out); loc != nil {
				t.Errorf("%+v: raw control %q in\n%s", o, out[loc[0]:loc[1]], out)
			}
			if !o.Color && strings.Contains(out, "\x1b") {
				t.Errorf("%+v: ESC without color:\n%s", o, out)
			}
			plain := stripANSI(out)
			for _, want := range []string{`\x1b]2;TITLE\x07`, `\x1b[2J`, `\x1b]52;c;aGk=\x07`, `span \x1b[31m`,
				`bold \x1bX`, `nosemi \x1b x`, `wrap \x1b`, `rlo \u202e`, `lri \u2066`, `zw \u200b`,
				"emoji 👩\u200d💻", "Hebrew שלום", "&#27; and <b>"} {
				if !strings.Contains(plain, want) {
					t.Errorf("%+v: %q missing in\n%s", o, want, plain)
				}
			}
		}
	}
}

// Bidi override and isolate controls and the zero-width space show escaped
// in names, titles and table cells; right-to-left letters and the joiner
// inside an emoji do not.
func TestBidiInNamesTitlesCells(t *testing.T) {
	name := "exec\u202eftp.sh"
	var b bytes.Buffer
	ip := IndexPage{Name: "agent\u2067x", Commands: []IndexRow{{Name: name, Title: "Run \u200bthis שלום 👩\u200d💻"}},
		Groups: []IndexGroup{{Name: "grp\u202d", Rows: []IndexRow{{Name: "g\u2069"}}}}}
	if err := WriteIndex(&b, ip, Options{}); err != nil {
		t.Fatal(err)
	}
	hp := HelpPage{Name: name, Title: "T\u202a", Synopsis: name + " [options...]",
		Options: []HelpItem{{Term: "--x\u202e <string>", Property: "x\u202e", Description: "d\u2066"}}}
	if err := WriteHelp(&b, hp, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`exec\u202eftp.sh`, `agent\u2067x`, `Run \u200bthis שלום 👩` + "\u200d" + `💻`, `GRP\u202d`,
		`g\u2069`, `T\u202a`, `--x\u202e <string> (property "x\u202e")`, `d\u2066`} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing in\n%s", want, out)
		}
	}
	if deploymentESC.MatchString(out) {
		t.Errorf("raw bidi control in\n%s", out)
	}
	var tb bytes.Buffer
	v := jsonValue(`[{"name":"a\u202eb","note":"שלום 👩\u200d💻","x":{"k":"\u2066"}}]`)
	if err := Write(&tb, &tb, v, Options{TTY: true, Width: 80}); err != nil {
		t.Fatal(err)
	}
	if s := tb.String(); !strings.Contains(s, `a\u202eb`) || !strings.Contains(s, "שלום 👩\u200d💻") ||
		!strings.Contains(s, `\u2066`) || deploymentESC.MatchString(s) {
		t.Errorf("table:\n%s", s)
	}
	tb.Reset()
	// Piped, a cell is data: unchanged.
	if err := Write(&tb, &tb, v, Options{Width: 80}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tb.String(), "a\u202eb") {
		t.Errorf("piped table changed a cell:\n%s", tb.String())
	}
}

func TestSafeLabel(t *testing.T) {
	for in, want := range map[string]string{
		"a\u202eb":                       `a\u202eb`,
		"\u202a\u202b\u202c\u202d\u202e": `\u202a\u202b\u202c\u202d\u202e`,
		"\u2066\u2067\u2068\u2069":       `\u2066\u2067\u2068\u2069`,
		"zero\u200bwidth":                `zero\u200bwidth`,
		"\x1b[2J\u202e":                  `\x1b[2J\u202e`,
		"שלום مرحبا":                     "שלום مرحبا",
		"👩\u200d💻 \u200c \u200d":         "👩\u200d💻 \u200c \u200d",
		"\u2010 \u2070":                  "\u2010 \u2070",
	} {
		if got := SafeLabel(in); got != want {
			t.Errorf("SafeLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

// A description too long for markdown (glamour took 20 s and 900 MiB on
// 15 MiB) is wrapped as plain text, still escaped.
func TestHugeDescriptionIsPlain(t *testing.T) {
	desc := strings.Repeat("word *em* &#27;[2J ", maxMarkdown/18+1)
	var b bytes.Buffer
	if err := WriteHelp(&b, HelpPage{Name: "t", Synopsis: "t", Description: desc}, Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "word *em* &#27;[2J word") || deploymentESC.MatchString(stripANSI(out)) {
		t.Errorf("not plain: %.200q", out)
	}
	if _, err := renderMarkdown(desc[:maxMarkdown], 80, "notty"); err != nil {
		t.Errorf("a description of exactly the limit: %v", err)
	}
}

package render

import (
	"errors"
	"strings"
	"sync"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	"github.com/muesli/termenv"
)

// mdKey identifies one glamour renderer: the style (Options.mdStyle) and
// the word-wrap width.
type mdKey struct {
	style string
	wrap  int
}

// mdCache holds the glamour renderers made so far; they are created on
// first use only (glamour's setup is not free) and used under the lock.
var mdCache struct {
	sync.Mutex
	r map[mdKey]*glamour.TermRenderer
}

// renderMarkdown renders markdown as terminal text lines no wider than
// width cells: made safe (SafeLabel), character references that would
// decode to a control character written out as its escape, `<` that is
// not an allowed inline tag escaped, through glamour in style
// (Options.mdStyle), checked again (nothing but glamour's own color
// sequences may remain), trailing whitespace stripped, blank runs
// collapsed, common indentation removed, and anything still too wide
// hard-wrapped.
func renderMarkdown(md string, width int, style string) ([]string, error) {
	if len(md) > maxMarkdown {
		return nil, errLongMarkdown
	}
	width = max(width, 8)
	md = escapeReferences(SafeLabel(md))
	md = prepareMarkdown(strings.ReplaceAll(md, "\t", "    "), width)
	color := style != styles.NoTTYStyle
	out, err := glamourRender(protectLongWords(protectHyphens(md), width, color), width, style)
	if err != nil {
		return nil, err
	}
	out = safeRendered(out, color)
	out = strings.ReplaceAll(strings.ReplaceAll(out, nbHyphen, "-"), dotStandIn, ".")
	return tidyLines(out, width), nil
}

// dotStandIn stands in for the dots of a word while glamour wraps: it
// breaks a link's text after a dot ("https://example.\ncom/…"), and takes a
// file name for a link (linkify) and breaks it there too ("tsconfig." then
// "json", inside a list item as well); a word is never broken across lines.
const dotStandIn = "\u2024"

// protectLongWords replaces with dotStandIn the dots of every word (a run
// without spaces) wider than width, and the dots between two letters or
// digits of any other word, but for a link ("://", "www.") in color: a
// link that fits keeps its dots and so its link style there (glamour may
// then still break it at a dot); "tsconfig.json" is no link.
func protectLongWords(md string, width int, color bool) string {
	if !strings.Contains(md, ".") {
		return md
	}
	var b strings.Builder
	start := -1
	flush := func(end int) {
		w := md[start:end]
		if strings.Contains(w, ".") {
			if textWidth(w) > width {
				w = strings.ReplaceAll(w, ".", dotStandIn)
			} else if !color || !strings.Contains(w, "://") && !strings.Contains(w, "www.") {
				w = innerDots(w)
			}
		}
		b.WriteString(w)
		start = -1
	}
	for i, r := range md {
		if r == ' ' || r == '\n' || r == '\t' {
			if start >= 0 {
				flush(i)
			}
			b.WriteRune(r)
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		flush(len(md))
	}
	return b.String()
}

// innerDots replaces the dots of w that stand between two letters or
// digits with dotStandIn ("package.json", "v1.2"); a list's "1." and a
// sentence's last dot stay.
func innerDots(w string) string {
	var b []byte
	for i := 1; i+1 < len(w); i++ {
		if w[i] == '.' && wordByte(w[i-1]) && wordByte(w[i+1]) {
			if b == nil {
				b = make([]byte, 0, len(w)+8)
				b = append(b, w[:i]...)
			}
			b = append(b, dotStandIn...)
			continue
		}
		if b != nil {
			b = append(b, w[i])
		}
	}
	if b == nil {
		return w
	}
	return string(append(b, w[len(w)-1]))
}

// maxMarkdown is the longest description rendered as markdown; a longer
// one (a tool's description is a few KiB; 15 MiB took glamour 20 s and
// 900 MiB) is wrapped as plain text by the caller.
const maxMarkdown = 256 << 10

var errLongMarkdown = errors.New("render: description too long for markdown")

// nbHyphen stands in for a hyphen inside a word while glamour wraps: its
// word wrapper breaks after hyphens and then miscounts the line, leaving a
// lone word on a line of its own ("Dot-files,\nignored\nand binary …").
const nbHyphen = "\u2011"

// protectHyphens turns every hyphen between two letters or digits into a
// non-breaking one. Markdown's own hyphens (list bullets, rules, table
// rows, setext underlines) never stand between two word characters.
func protectHyphens(md string) string {
	if !strings.Contains(md, "-") {
		return md
	}
	var b strings.Builder
	b.Grow(len(md) + 16)
	for i := 0; i < len(md); i++ {
		if md[i] == '-' && i > 0 && i+1 < len(md) && wordByte(md[i-1]) && wordByte(md[i+1]) {
			b.WriteString(nbHyphen)
			continue
		}
		b.WriteByte(md[i])
	}
	return b.String()
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func glamourRender(md string, wrap int, style string) (string, error) {
	mdCache.Lock()
	defer mdCache.Unlock()
	key := mdKey{style, wrap}
	r := mdCache.r[key]
	if r == nil {
		var err error
		r, err = newGlamour(style, wrap)
		if err != nil {
			return "", err
		}
		if mdCache.r == nil {
			mdCache.r = map[mdKey]*glamour.TermRenderer{}
		}
		mdCache.r[key] = r
	}
	return r.Render(md)
}

// newGlamour makes a renderer with no document margin (agsh indents the
// section itself) and a fixed color profile, so nothing is read from the
// environment or asked of the terminal. style is a glamour style name or a
// JSON style file (GLAMOUR_STYLE); one that does not load is dark.
func newGlamour(style string, wrap int) (*glamour.TermRenderer, error) {
	var st ansi.StyleConfig
	profile := termenv.Ascii
	if style != styles.NoTTYStyle {
		profile = termenv.ANSI256
		if builtin, ok := styles.DefaultStyles[style]; ok {
			st = *builtin
			if style == styles.LightStyle {
				// Its code blocks keep a dark theme's near-white text.
				st.CodeBlock.Chroma, st.CodeBlock.Theme = nil, chromaLight
			}
		} else if custom, err := glamour.NewTermRenderer(glamour.WithStylePath(style),
			glamour.WithColorProfile(profile), glamour.WithWordWrap(wrap)); err == nil {
			return custom, nil
		} else {
			st = styles.DarkStyleConfig
		}
	} else {
		st = styles.NoTTYStyleConfig
		// Keep code spans visible without color: `--dry-run`.
		st.Code.Prefix, st.Code.Suffix = "`", "`"
		st.Code.BlockPrefix, st.Code.BlockSuffix = "", ""
	}
	zero := uint(0)
	st.Document.Margin = &zero
	return glamour.NewTermRenderer(
		glamour.WithStyles(st),
		glamour.WithColorProfile(profile),
		glamour.WithWordWrap(wrap),
	)
}

// tidyLines normalizes glamour's output: trailing whitespace (also before a
// closing color sequence) removed, leading and trailing blank lines dropped,
// runs of blank lines collapsed, the common indentation removed, list items
// given a hanging indent, and lines wider than width hard-wrapped.
func tidyLines(out string, width int) []string {
	var lines []string
	blank := false
	for _, l := range strings.Split(out, "\n") {
		l = trimRightANSI(dropEmptySGR(l))
		if visibleBlank(l) {
			blank = len(lines) > 0
			continue
		}
		if blank {
			lines = append(lines, "")
			blank = false
		}
		lines = append(lines, l)
	}
	indent := -1
	for _, l := range lines {
		if l == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if l != "" {
			lines[i] = l[indent:]
		}
	}
	var res []string
	for _, l := range hangListItems(lines, width) {
		res = append(res, hardWrap(l, width)...)
	}
	return res
}

// visibleBlank reports whether a line shows nothing but spaces.
func visibleBlank(l string) bool {
	return strings.TrimSpace(stripANSI(l)) == ""
}

package render

import (
	"strings"
	"sync"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	"github.com/muesli/termenv"
)

// mdKey identifies one glamour renderer: the style (color or notty) and the
// word-wrap width.
type mdKey struct {
	color bool
	wrap  int
}

// mdCache holds the glamour renderers made so far; they are created on
// first use only (glamour's setup is not free) and used under the lock.
var mdCache struct {
	sync.Mutex
	r map[mdKey]*glamour.TermRenderer
}

// renderMarkdown renders markdown as terminal text lines no wider than
// width cells: made safe, `<` that is not an allowed inline tag escaped,
// through glamour (notty style without color, dark with), trailing
// whitespace stripped, blank runs collapsed, common indentation removed, and
// anything still too wide hard-wrapped.
func renderMarkdown(md string, width int, color bool) ([]string, error) {
	width = max(width, 8)
	md = prepareMarkdown(strings.ReplaceAll(Safe(md), "\t", "    "), width)
	out, err := glamourRender(md, width, color)
	if err != nil {
		return nil, err
	}
	return tidyLines(out, width), nil
}

func glamourRender(md string, wrap int, color bool) (string, error) {
	mdCache.Lock()
	defer mdCache.Unlock()
	key := mdKey{color, wrap}
	r := mdCache.r[key]
	if r == nil {
		var err error
		r, err = newGlamour(color, wrap)
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
// environment or asked of the terminal.
func newGlamour(color bool, wrap int) (*glamour.TermRenderer, error) {
	var st ansi.StyleConfig
	profile := termenv.Ascii
	if color {
		st = styles.DarkStyleConfig
		profile = termenv.ANSI256
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

package render

import (
	"bytes"
	"html"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// inlineTags are the plain inline HTML tags a description may use; glamour
// drops their markup and keeps the text between them. Any other `<` that
// markdown would take for HTML (`<path to file>`, `<examples>`, `<uid>`,
// block tags, comments) is escaped so it prints literally.
var inlineTags = [...]string{
	"a", "abbr", "b", "br", "code", "del", "em", "i", "ins", "kbd", "mark",
	"s", "small", "span", "strong", "sub", "sup", "u",
}

// maxEscapeRounds bounds the re-parsing in escapeHTML: escaping the start
// of an HTML block turns the block into a paragraph whose own tags then show
// up as inline HTML.
const maxEscapeRounds = 8

// prepareMarkdown readies a description for glamour: every `<` that
// goldmark parses as raw HTML (inline or a block) and that does not open or
// close an allowed inline tag gets a backslash, so it prints literally (code
// spans, code blocks and autolinks are untouched, since markdown reads no
// HTML there); then code lines wider than width are split, because glamour
// word-wraps code badly.
func prepareMarkdown(md string, width int) string {
	src := []byte(md)
	p := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)).Parser()
	for round := 0; round < maxEscapeRounds; round++ {
		doc := p.Parse(text.NewReader(src))
		at := htmlStarts(doc, src)
		if len(at) == 0 {
			return string(splitCodeLines(doc, src, width))
		}
		src = insertBackslashes(src, at)
	}
	return string(src)
}

// htmlStarts returns the sorted offsets of the `<` that begin disallowed
// raw HTML in the parsed document.
func htmlStarts(doc ast.Node, src []byte) []int {
	var at []int
	add := func(start int) {
		i := bytes.IndexByte(src[start:], '<')
		if i < 0 {
			return
		}
		if !allowedTag(src[start+i:]) {
			at = append(at, start+i)
		}
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.RawHTML:
			if n.Segments.Len() > 0 {
				add(n.Segments.At(0).Start)
			}
		case *ast.HTMLBlock:
			if n.Lines().Len() > 0 {
				add(n.Lines().At(0).Start)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	sort.Ints(at)
	return at
}

// allowedTag reports whether b (starting at `<`) opens or closes one of
// inlineTags: `<b>`, `</b>`, `<br/>`, `<a href="…">`.
func allowedTag(b []byte) bool {
	i := 1
	if i < len(b) && b[i] == '/' {
		i++
	}
	start := i
	for i < len(b) && (b[i] >= 'a' && b[i] <= 'z' || b[i] >= 'A' && b[i] <= 'Z' || b[i] >= '0' && b[i] <= '9') {
		i++
	}
	if i == start || i >= len(b) {
		return false
	}
	if c := b[i]; c != '>' && c != '/' && c != ' ' && c != '\t' && c != '\n' {
		return false
	}
	name := bytes.ToLower(b[start:i])
	for _, t := range inlineTags {
		if string(name) == t {
			return true
		}
	}
	return false
}

// insertBackslashes returns src with a backslash inserted before each
// offset in at (sorted ascending). When the escaped `<` starts its line
// (an XML-like tag such as <examples> on a line of its own), blank lines go
// around that line: glamour joins the lines of a paragraph (it renders hard
// breaks as spaces), and a tag joined into the text around it reads badly.
func insertBackslashes(src []byte, at []int) []byte {
	type insertion struct {
		pos int
		s   string
	}
	var ins []insertion
	for _, i := range at {
		lineStart := bytes.LastIndexByte(src[:i], '\n') + 1
		if len(bytes.TrimSpace(src[lineStart:i])) == 0 {
			if lineStart > 0 && len(bytes.TrimSpace(src[bytes.LastIndexByte(src[:lineStart-1], '\n')+1:lineStart-1])) > 0 {
				ins = append(ins, insertion{lineStart - 1, "\n"})
			}
			ins = append(ins, insertion{i, "\\"})
			if end := bytes.IndexByte(src[i:], '\n'); end >= 0 {
				ins = append(ins, insertion{i + end, "\n"})
			}
			continue
		}
		ins = append(ins, insertion{i, "\\"})
	}
	sort.SliceStable(ins, func(a, b int) bool { return ins[a].pos < ins[b].pos })
	out := make([]byte, 0, len(src)+3*len(ins))
	prev := 0
	for _, in := range ins {
		out = append(out, src[prev:in.pos]...)
		out = append(out, in.s...)
		prev = in.pos
	}
	return append(out, src[prev:]...)
}

// codeMargin is glamour's indentation of code blocks.
const codeMargin = 2

// splitCodeLines breaks the lines of code blocks that are wider than width
// (less glamour's code margin and the line's own container prefix) into
// pieces, each continuation repeating the prefix so it stays in the block.
func splitCodeLines(doc ast.Node, src []byte, width int) []byte {
	type cutAt struct {
		pos    int
		prefix []byte
	}
	var cuts []cutAt
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock:
		default:
			return ast.WalkContinue, nil
		}
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			if seg.Start >= seg.Stop || seg.Stop > len(src) {
				continue
			}
			lineStart := bytes.LastIndexByte(src[:seg.Start], '\n') + 1
			prefix := src[lineStart:seg.Start]
			room := max(width-codeMargin-textWidth(string(prefix)), 20)
			line := string(bytes.TrimRight(src[seg.Start:seg.Stop], "\r\n"))
			// Cut at spaces only: a word is never broken across lines.
			for off := 0; ; {
				i := wordCut(line, room)
				if i <= 0 || i >= len(line) {
					break
				}
				off += i
				cuts = append(cuts, cutAt{seg.Start + off, prefix})
				line = line[i:]
			}
		}
		return ast.WalkSkipChildren, nil
	})
	if len(cuts) == 0 {
		return src
	}
	out := make([]byte, 0, len(src)+len(cuts)*8)
	prev := 0
	for _, c := range cuts {
		out = append(out, src[prev:c.pos]...)
		out = append(out, '\n')
		out = append(out, c.prefix...)
		prev = c.pos
	}
	return append(out, src[prev:]...)
}

// escapeReferences replaces every character reference of md that would
// decode to a character Safe or SafeLabel escapes (`&#27;`, `&#x1b;`,
// `&#X202E;`, `&ZeroWidthSpace;`, `&#0000027`) with that escape written
// out (`\x1b`, `\u202e`), so that the text the renderer decodes holds no
// control character: it shows what was sent, and nothing is dropped.
// References are matched as the renderer decodes them (html.UnescapeString
// on each text: a missing semicolon, any number of digits), not only as
// CommonMark reads them.
func escapeReferences(md string) string {
	if !strings.Contains(md, "&") {
		return md
	}
	var b strings.Builder
	prev := 0
	for i := strings.IndexByte(md, '&'); i >= 0; {
		end := len(md)
		if j := strings.IndexByte(md[i+1:], '&'); j >= 0 {
			end = i + 1 + j
		}
		w := md[i:end]
		if u := html.UnescapeString(w); u != w && !isLabelSafe(u) {
			// w holds one reference, at its start: what follows it is
			// the common tail of w and u.
			k := 0
			for k < len(w) && k < len(u) && w[len(w)-1-k] == u[len(u)-1-k] {
				k++
			}
			if prev == 0 {
				b.Grow(len(md) + 16)
			}
			b.WriteString(md[prev:i])
			b.WriteString(SafeLabel(u[:len(u)-k]))
			prev = end - k
		}
		if end == len(md) {
			break
		}
		i = end
	}
	if prev == 0 {
		return md
	}
	b.WriteString(md[prev:])
	return b.String()
}

// isLabelSafe reports whether SafeLabel leaves s unchanged.
func isLabelSafe(s string) bool { return SafeLabel(s) == s }

package render

import (
	"io"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// HighlightFile writes text highlighted for a terminal by the lexer that
// chroma picks from the file name's extension (terminal256 colors); a name
// chroma does not know is written plain. The text is made safe first (Safe)
// and ends with a newline. Call it only when color is on. The style is
// the dark one; HighlightFileFor picks by o's background.
func HighlightFile(w io.Writer, name, text string) error {
	return HighlightFileFor(w, name, text, Options{})
}

// HighlightFileFor is HighlightFile in the chroma style for o's background
// (asked only when chroma knows the file's language).
func HighlightFileFor(w io.Writer, name, text string, o Options) error {
	lexer := lexers.Match(name)
	if lexer == nil {
		return writeText(w, text, Options{TTY: true})
	}
	return highlight(w, lexer, text, o.chromaStyle())
}

// HighlightDiff writes a unified diff highlighted for a terminal (added
// lines green, removed red, headers and hunks marked). The text is made
// safe first and ends with a newline. Call it only when color is on. The
// style is the dark one; HighlightDiffFor picks by o's background.
func HighlightDiff(w io.Writer, text string) error {
	return HighlightDiffFor(w, text, Options{})
}

// HighlightDiffFor is HighlightDiff in the chroma style for o's background.
func HighlightDiffFor(w io.Writer, text string, o Options) error {
	lexer := lexers.Get("diff")
	if lexer == nil {
		return writeText(w, text, Options{TTY: true})
	}
	return highlight(w, lexer, text, o.chromaStyle())
}

// highlight tokenises the sanitized text and formats it with terminal256.
func highlight(w io.Writer, lexer chroma.Lexer, text, styleName string) error {
	text = Safe(text)
	if text == "" {
		return nil
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, text)
	if err != nil {
		return writeString(w, text)
	}
	style := styles.Get(styleName)
	return formatters.TTY256.Format(w, style, it)
}

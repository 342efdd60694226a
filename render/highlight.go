package render

import (
	"bufio"
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

// highlightBuffer is the size of the buffer between chroma's formatter,
// which writes each token and color sequence separately, and w.
const highlightBuffer = 64 << 10

// highlight tokenises the sanitized text and formats it with terminal256,
// through a buffer: the bytes are the formatter's, in a few large writes
// instead of several per token.
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
	bw := bufio.NewWriterSize(w, highlightBuffer)
	if err := formatters.TTY256.Format(bw, style, it); err != nil {
		return err
	}
	return bw.Flush()
}

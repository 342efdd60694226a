package syntax

import (
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a lexical token.
type tokKind int

const (
	tWord tokKind = iota
	tPipe
	tAnd
	tOr
	tSemi
	tNewline
	tEOF
)

// token is one lexical token. For words, litLen is the number of bytes at the start
// of val that came from plain unquoted, unescaped characters (used to recognise
// assignments, which must be written bare); end is the byte offset just past the
// token's last source character; open is the quote left open at the end of a
// partial scan ('\” or '"'), else 0.
type token struct {
	kind   tokKind
	val    string
	pos    Pos
	end    int
	litLen int
	open   byte
}

func (t token) String() string {
	switch t.kind {
	case tPipe:
		return "'|'"
	case tAnd:
		return "'&&'"
	case tOr:
		return "'||'"
	case tSemi:
		return "';'"
	case tNewline:
		return "end of line"
	case tEOF:
		return "end of input"
	}
	return "word"
}

// lexer turns source text into tokens, tracking the byte offset, and line and
// column in runes (an invalid byte counts as one rune, U+FFFD, as in a range
// loop). A partial lexer (ScanPartial) ends a word at the end of the input
// instead of failing on an open quote or a trailing backslash.
type lexer struct {
	src     string
	i       int // byte offset
	line    int
	col     int
	partial bool
}

func newLexer(src string) *lexer { return &lexer{src: src, line: 1, col: 1} }

func (l *lexer) pos() Pos { return Pos{Line: l.line, Col: l.col, Offset: l.i} }

// peek returns the rune k runes ahead.
func (l *lexer) peek(k int) (rune, bool) {
	i := l.i
	for ; k > 0 && i < len(l.src); k-- {
		_, n := utf8.DecodeRuneInString(l.src[i:])
		i += n
	}
	if i >= len(l.src) {
		return 0, false
	}
	r, _ := utf8.DecodeRuneInString(l.src[i:])
	return r, true
}

func (l *lexer) advance() rune {
	r, n := utf8.DecodeRuneInString(l.src[l.i:])
	l.i += n
	if r == '\n' {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	return r
}

func isBlank(r rune) bool { return r == ' ' || r == '\t' }

// isMeta reports whether r ends an unquoted word.
func isMeta(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '|', '&', ';', '<', '>', '(', ')', '`':
		return true
	}
	return false
}

// tokenize splits the whole source into tokens, ending with tEOF.
func tokenize(src string) ([]token, error) {
	l := newLexer(src)
	toks := make([]token, 0, tokenEstimate(src))
	for {
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks, nil
		}
	}
}

// tokenEstimate is about how many tokens src makes: its words (runs
// apart by blanks and newlines) and its newlines, plus the end. The usual
// script then holds its tokens in one slice, not copied as it grows; a
// line of operators without blanks makes more, and the slice grows then.
func tokenEstimate(src string) int {
	n, inWord := 1, false
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t':
			inWord = false
		case '\n':
			n, inWord = n+1, false
		default:
			if !inWord {
				n, inWord = n+1, true
			}
		}
	}
	return n
}

// next returns the next token, skipping blanks, comments and line continuations.
func (l *lexer) next() (token, error) {
	t, err := l.scan()
	t.end = l.i
	return t, err
}

func (l *lexer) scan() (token, error) {
	for {
		r, ok := l.peek(0)
		if !ok {
			return token{kind: tEOF, pos: l.pos()}, nil
		}
		switch {
		case isBlank(r):
			l.advance()
			continue
		case r == '\r':
			if n, _ := l.peek(1); n == '\n' {
				l.advance()
				continue
			}
		case r == '\\':
			if _, ok := l.peek(1); !ok {
				if l.partial {
					break // the word being typed starts here
				}
				return token{}, incompleteAt(l.pos(), "'\\' at end of input")
			}
			if k := l.lineBreak(1); k > 0 {
				if err := l.continuation(k); err != nil {
					return token{}, err
				}
				continue
			}
		case r == '#':
			for {
				c, ok := l.peek(0)
				if !ok || c == '\n' {
					break
				}
				l.advance()
			}
			continue
		}
		break
	}
	p := l.pos()
	r, _ := l.peek(0)
	switch r {
	case '\n':
		l.advance()
		return token{kind: tNewline, pos: p}, nil
	case ';':
		l.advance()
		return token{kind: tSemi, pos: p}, nil
	case '|':
		l.advance()
		if n, _ := l.peek(0); n == '|' {
			l.advance()
			return token{kind: tOr, pos: p}, nil
		}
		return token{kind: tPipe, pos: p}, nil
	case '&':
		n, _ := l.peek(1)
		switch n {
		case '&':
			l.advance()
			l.advance()
			return token{kind: tAnd, pos: p}, nil
		case '>':
			return token{}, errAt(p, "redirection (&>) is not supported: agsh has no local files")
		}
		return token{}, errAt(p, "background (&) is not supported: commands run one at a time")
	case '<', '>':
		return token{}, l.redirection(p, "")
	case '(', ')':
		return token{}, errAt(p, "parentheses (%c) are not supported: quote %q to pass it literally", r, string(r))
	case '`':
		return token{}, errAt(p, "command substitution (`…`) is not supported")
	}
	return l.word(p)
}

// redirection builds the error for a redirection operator at the lexer's
// position; digits is the file-descriptor number written before it, if any.
func (l *lexer) redirection(p Pos, digits string) error {
	op := digits
	for k := 0; k < 3; k++ {
		c, ok := l.peek(k)
		if !ok || (c != '<' && c != '>' && c != '&') {
			break
		}
		op += string(c)
	}
	return errAt(p, "redirection (%s) is not supported: agsh has no local files", op)
}

// word reads one word starting at p, removing quotes and escapes.
func (l *lexer) word(p Pos) (token, error) {
	var b strings.Builder
	litLen := -1
	markQuoted := func() {
		if litLen < 0 {
			litLen = b.Len()
		}
	}
	for {
		r, ok := l.peek(0)
		if !ok {
			break
		}
		if r == '\r' {
			if n, _ := l.peek(1); n == '\n' {
				break
			}
		}
		if isMeta(r) {
			if (r == '<' || r == '>') && litLen < 0 && isDigits(b.String()) {
				return token{}, l.redirection(p, b.String())
			}
			break
		}
		switch r {
		case '\'', '"':
			markQuoted()
			open, err := l.quoted(&b, r)
			if err != nil {
				return token{}, err
			}
			if open {
				return token{kind: tWord, val: b.String(), pos: p, litLen: litLen, open: byte(r)}, nil
			}
		case '\\':
			n, ok := l.peek(1)
			if !ok && l.partial {
				l.advance() // a trailing backslash: the word ends with the input
				return token{kind: tWord, val: b.String(), pos: p, litLen: litLen}, nil
			}
			if !ok {
				return token{}, incompleteAt(l.pos(), "'\\' at end of input")
			}
			if k := l.lineBreak(1); k > 0 { // backslash-newline is a line continuation
				if err := l.continuation(k); err != nil {
					return token{}, err
				}
				continue
			}
			l.advance()
			l.advance()
			markQuoted()
			b.WriteRune(n)
		case '$':
			if n, _ := l.peek(1); n == '(' {
				return token{}, errAt(l.pos(), "command substitution ($(…)) is not supported")
			}
			l.advance()
			b.WriteRune(r)
		default:
			l.advance()
			b.WriteRune(r)
		}
	}
	if litLen < 0 {
		litLen = b.Len()
	}
	return token{kind: tWord, val: b.String(), pos: p, litLen: litLen}, nil
}

// quoted reads a quoted part of a word, from its opening quote q, into b. Inside
// double quotes a backslash escapes only '"' and '\\'. open reports that a partial
// lexer met the end of the input before the closing quote.
func (l *lexer) quoted(b *strings.Builder, q rune) (open bool, err error) {
	start := l.pos()
	l.advance()
	for {
		c, ok := l.peek(0)
		if !ok && l.partial {
			return true, nil
		}
		if !ok && q == '\'' {
			return false, incompleteAt(start, "unclosed single quote")
		}
		if !ok {
			return false, incompleteAt(start, "unclosed double quote")
		}
		l.advance()
		if c == q {
			return false, nil
		}
		if q == '"' && c == '\\' {
			if n, ok := l.peek(0); ok && (n == '"' || n == '\\') {
				l.advance()
				c = n
			}
		}
		b.WriteRune(c)
	}
}

// lineBreak is the length of the line break ("\n" or "\r\n") k runes ahead, or 0.
func (l *lexer) lineBreak(k int) int {
	switch r, _ := l.peek(k); r {
	case '\n':
		return 1
	case '\r':
		if n, _ := l.peek(k + 1); n == '\n' {
			return 2
		}
	}
	return 0
}

// continuation consumes a backslash and the k-rune line break after it. A
// continuation with nothing after it leaves the input incomplete: the
// script's last line asks for one more (docs/shell.md#language).
func (l *lexer) continuation(k int) error {
	p := l.pos()
	if _, ok := l.peek(1 + k); !ok && !l.partial {
		return incompleteAt(p, "'\\' at end of input")
	}
	for ; k >= 0; k-- {
		l.advance()
	}
	return nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

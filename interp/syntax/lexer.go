package syntax

import "strings"

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
// assignments, which must be written bare).
type token struct {
	kind   tokKind
	val    string
	pos    Pos
	litLen int
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

// lexer turns source text into tokens, tracking line and column in runes.
type lexer struct {
	src  []rune
	i    int
	line int
	col  int
}

func (l *lexer) pos() Pos { return Pos{Line: l.line, Col: l.col} }

func (l *lexer) peek(k int) (rune, bool) {
	if l.i+k < len(l.src) {
		return l.src[l.i+k], true
	}
	return 0, false
}

func (l *lexer) advance() rune {
	r := l.src[l.i]
	l.i++
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
	l := &lexer{src: []rune(src), line: 1, col: 1}
	var toks []token
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

// next returns the next token, skipping blanks, comments and line continuations.
func (l *lexer) next() (token, error) {
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
		case '\'':
			markQuoted()
			q := l.pos()
			l.advance()
			for {
				c, ok := l.peek(0)
				if !ok {
					return token{}, incompleteAt(q, "unclosed single quote")
				}
				l.advance()
				if c == '\'' {
					break
				}
				b.WriteRune(c)
			}
		case '"':
			markQuoted()
			q := l.pos()
			l.advance()
			for {
				c, ok := l.peek(0)
				if !ok {
					return token{}, incompleteAt(q, "unclosed double quote")
				}
				l.advance()
				if c == '"' {
					break
				}
				if c == '\\' {
					if n, ok := l.peek(0); ok && (n == '"' || n == '\\') {
						l.advance()
						b.WriteRune(n)
						continue
					}
				}
				b.WriteRune(c)
			}
		case '\\':
			n, ok := l.peek(1)
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
// continuation with nothing after it leaves the input incomplete: the script's
// last line asks for one more (shell.md).
func (l *lexer) continuation(k int) error {
	p := l.pos()
	if _, ok := l.peek(1 + k); !ok {
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

package syntax

import "fmt"

// Parse parses a whole script. On failure it returns a *Error; when the input
// merely stops too early (open quote, trailing operator or backslash), the
// error's Incomplete method reports true.
func Parse(src string) (*Script, error) {
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	s := &Script{}
	for {
		p.skipNewlines()
		if p.peek().kind == tEOF {
			return s, nil
		}
		l, err := p.list()
		if err != nil {
			return nil, err
		}
		s.Lists = append(s.Lists, l)
	}
}

// parser walks the token slice; the last token is always tEOF.
type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) take() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) skipNewlines() {
	for p.peek().kind == tNewline {
		p.i++
	}
}

// list parses pipelines joined by operators up to the end of the line.
func (p *parser) list() (*List, error) {
	first, err := p.pipeline()
	if err != nil {
		return nil, err
	}
	l := &List{Pipelines: []*Pipeline{first}, Pos: first.Pos}
	for {
		t := p.peek()
		var op Op
		switch t.kind {
		case tNewline, tEOF:
			return l, nil
		case tSemi:
			p.take()
			if k := p.peek().kind; k == tNewline || k == tEOF {
				return l, nil
			}
			op = OpSemi
		case tAnd, tOr:
			p.take()
			op = OpAnd
			if t.kind == tOr {
				op = OpOr
			}
			p.skipNewlines()
			if p.peek().kind == tEOF {
				return nil, incompleteAt(t.pos, "expected a command after %s", t)
			}
		default:
			return nil, errAt(t.pos, "unexpected %s", t)
		}
		if n := p.peek(); n.kind != tWord {
			return nil, errAt(n.pos, "expected a command after %s, found %s", t, n)
		}
		next, err := p.pipeline()
		if err != nil {
			return nil, err
		}
		l.Ops = append(l.Ops, op)
		l.Pipelines = append(l.Pipelines, next)
	}
}

// pipeline parses commands joined by '|'.
func (p *parser) pipeline() (*Pipeline, error) {
	first, err := p.command()
	if err != nil {
		return nil, err
	}
	pl := &Pipeline{Commands: []*Command{first}, Pos: first.Pos}
	for p.peek().kind == tPipe {
		bar := p.take()
		p.skipNewlines()
		n := p.peek()
		if n.kind == tEOF {
			return nil, incompleteAt(bar.pos, "expected a command after '|'")
		}
		if n.kind != tWord {
			return nil, errAt(n.pos, "expected a command after '|', found %s", n)
		}
		c, err := p.command()
		if err != nil {
			return nil, err
		}
		pl.Commands = append(pl.Commands, c)
	}
	return pl, nil
}

// command parses one or more words.
func (p *parser) command() (*Command, error) {
	t := p.peek()
	if t.kind != tWord {
		return nil, errAt(t.pos, "%s needs a command before it", t)
	}
	if name, ok := assignment(t); ok {
		return nil, errAt(t.pos, "assignment (%s=…) is not supported: agsh has no variables", name)
	}
	c := &Command{Pos: t.pos}
	for p.peek().kind == tWord {
		w := p.take()
		c.Words = append(c.Words, &Word{Value: w.val, Pos: w.pos, End: w.end})
	}
	return c, nil
}

// assignment reports whether a word is written as NAME=… with a bare name and '='.
func assignment(t token) (string, bool) {
	for i := 0; i < len(t.val) && i < t.litLen; i++ {
		c := t.val[i]
		switch {
		case c == '=':
			return t.val[:i], i > 0
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return "", false
		}
	}
	return "", false
}

// Error is a parse error at a position. Its text is "line L: col C: message".
type Error struct {
	Pos
	Msg        string
	incomplete bool
}

// Error formats the error as "line 3: col 14: <message>".
func (e *Error) Error() string {
	return fmt.Sprintf("line %d: col %d: %s", e.Line, e.Col, e.Msg)
}

// Incomplete reports whether the input ended inside a construct (an open quote, a
// trailing '|', '&&', '||' or '\'), so more input could complete it.
func (e *Error) Incomplete() bool { return e.incomplete }

func errAt(p Pos, format string, args ...any) *Error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

func incompleteAt(p Pos, format string, args ...any) *Error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...), incomplete: true}
}

package syntax

// Partial is what the text before a cursor says about the command being typed,
// for completion.
type Partial struct {
	// Words are the complete words of the current command before the one
	// being typed, quotes and escapes removed.
	Words []string
	// Current is the word being typed, quotes and escapes removed ("" when
	// the cursor follows a blank or an operator).
	Current string
	// Start is the byte offset where Current starts in the text (its first
	// character or opening quote); the text's length when no word is started.
	Start int
	// Quote is the quote left open in Current ('\'' or '"'), else 0.
	Quote byte
	// AfterPipe reports that the current command follows '|'.
	AfterPipe bool
}

// ScanPartial scans src, the text before a cursor, with the lexer of Parse. It
// never fails: an open quote or a trailing backslash ends the word being
// typed, and a construct the language rejects (a redirection, '&', '(') is
// skipped and starts a new command.
func ScanPartial(src string) Partial {
	l := newLexer(src)
	l.partial = true
	var p Partial
	last := token{kind: tNewline} // the last word or operator token
	for {
		t, err := l.next()
		if err != nil {
			l.advance()
			p.Words, p.AfterPipe, last = nil, false, token{kind: tNewline}
			continue
		}
		switch t.kind {
		case tEOF:
			p.Start = len(src)
			if last.kind == tWord && last.end == len(src) {
				p.Words = p.Words[:len(p.Words)-1]
				p.Current, p.Start, p.Quote = last.val, last.pos.Offset, last.open
			}
			if len(p.Words) == 0 {
				p.Words = nil
			}
			return p
		case tWord:
			p.Words = append(p.Words, t.val)
		case tNewline:
			if last.kind == tPipe || last.kind == tAnd || last.kind == tOr {
				continue // the command after the operator is still to come
			}
			p.Words, p.AfterPipe = nil, false
		default:
			p.Words, p.AfterPipe = nil, t.kind == tPipe
		}
		last = t
	}
}

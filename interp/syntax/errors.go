package syntax

import "fmt"

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

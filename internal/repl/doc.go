// Package repl is agsh's interactive shell: the bubbletea REPL used when
// standard input and standard output are terminals (Run), and the plain
// line-reading shell used when only standard output is piped (RunPlain).
//
// The package knows nothing of the interpreter, the renderer or the
// deployment: it reaches them through the small Runner and Completer
// interfaces, wired in cmd/agsh.
//
// The REPL is a set of small Elm-style models: a line editor (buffer of
// runes and a cursor), a history ring with incremental search, a completion
// state and a run state. Update is pure; every piece of I/O (running a line,
// asking for completions, reading and appending the history file, reading a
// run's output) happens in a tea.Cmd.
//
// Output design. While a line runs, the Runner writes to an in-memory pipe
// (bounded, so a runaway producer waits for the terminal instead of filling
// memory). A tea.Cmd drains the pipe in whole lines and the model prints them
// above the prompt with tea.Println, one print in flight at a time so that
// order is kept. Bytes are passed through unchanged except that a "\r\n" line
// ending becomes "\n" (the terminal shows both alike, and bubbletea would
// otherwise erase the line after a carriage return) and a last line without
// a newline is ended by one, so the prompt always starts on a fresh line.
// Standard error of a run is interleaved with standard output in the order
// it was written: in this mode both are the same terminal.
package repl

// Package repl is agsh's interactive shell: the bubbletea REPL used when
// standard input and standard output are terminals (Run), and the plain
// line-reading shell used when only standard output is piped (RunPlain).
//
// The package knows nothing of the interpreter, the renderer or the
// deployment, and imports nothing of agsh: it reaches them through the
// small Runner and Completer interfaces and the Escape and Redact
// functions of its Config, wired in internal/cli.
//
// # Models
//
// The REPL is a set of small Elm-style models: a line editor (buffer of
// runes and a cursor), a history ring with incremental search, a completion
// state and a run state. Update is pure; every piece of I/O (running a line,
// asking for completions, reading and appending the history file, reading a
// run's output) happens in a tea.Cmd.
//
// # Keys
//
//	Enter            run the input, or continue it on a "… " line when the
//	                 Runner says it is incomplete
//	←/→ Ctrl-B/F     move by character; Alt-B/F, Ctrl-←/→ by word
//	Home/End Ctrl-A/E  start and end of the line
//	Backspace Delete remove a character; Ctrl-D too on a non-empty line
//	Ctrl-K/U/W       kill to the end, to the start, the word before;
//	Alt-D Alt-Bksp   the word after, the alphanumeric word before;
//	Ctrl-Y           yank the last kill
//	↑/↓ Ctrl-P/N     browse the history (the line being typed comes back)
//	Ctrl-R           search the history: type to narrow, Ctrl-R for older,
//	                 Enter (or any editing key) accepts into the line without
//	                 running it, Esc/Ctrl-G restores the line
//	Tab              complete: one candidate is inserted (with a space unless
//	                 it ends in / or =), a longer common prefix is inserted,
//	                 otherwise the candidates are listed below the prompt (in
//	                 columns; when they take more than a page, with a count,
//	                 and Tab again shows the next page)
//	Ctrl-C           clear the input (echoed with ^C), or cancel the call in
//	                 flight
//	Ctrl-D           exit on an empty line; in a continuation, run what was
//	                 typed so the interpreter reports it
//	Ctrl-L Ctrl-Z    clear the screen, suspend
//
// Keys pressed while a line runs are kept and replayed when it ends
// (Ctrl-C drops them).
//
// # Output
//
// While a line runs, the Runner writes to an in-memory pipe (bounded, so a
// runaway producer waits for the terminal instead of filling memory). A
// tea.Cmd drains the pipe in whole lines and the model prints them above the
// prompt with tea.Println, one print in flight at a time so that order is
// kept. Bytes pass unchanged except that a "\r\n" line ending becomes "\n"
// (the terminal shows both alike, and bubbletea would otherwise erase the
// line after the carriage return) and a last line without a newline is
// ended by one, so the prompt always starts on a fresh line. A run's
// standard error is shown in order with its standard output: in this mode
// both are the same terminal. A spinner replaces the prompt once a run has
// been silent for 300 ms.
//
// # History
//
// Accepted inputs are appended, one per line, to Config.HistoryPath
// (directory 0700, file 0600; an input of several lines is stored with \n
// escapes), never when they contain a value of Config.Secrets; consecutive
// duplicates are kept once and the file is cut to the newest 5,000 entries
// when loaded.
package repl

// Package meta is agsh's meta commands: the words that start with ':'
// (docs/shell.md#meta-commands) — :sessions, :describe, :status, :curl, the
// console's words over a session's record (:trace, :tail, :replay), its
// acting words (:approvals, :approve, :deny, :stop, :say, :new), the fleet
// words (:top, :wait) and :help.
//
//   - The table of them (metas, MetaCommands) is one row per command: its
//     name, synopsis, operands and flags, its Check and its Run. A new meta
//     command is a file with its Run and a row in the table.
//   - A command runs through MetaRun, all it may use of the run: the
//     client and binding, the streams and the line's format, the write
//     guard's question (Confirm, Question), and what it needs of a tool's
//     command (Command, Prepare).
//   - Advise words a catalog error for the command line, naming agsh's
//     flags and the console's words.
//
// It knows no command table: internal/command reads these rows to resolve
// a name, check and run a meta command line (CheckMeta, RunMeta), complete
// it and list it in agsh --help, as it reads curated's rows.
package meta

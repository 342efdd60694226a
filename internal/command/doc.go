// Package command is agsh's command table: what a command name on a line
// means and how its command is shaped, for every place that needs to know —
// one-shot dispatch, the shell, completion (internal/replcomp) and help.
//
//   - Resolve answers, for a name and the deployment's catalog: a tool (with a
//     curated shape or a generated one), a local filter, a shell word, a meta
//     command (a row of internal/meta's table), or unknown with suggestions
//     (names.Suggest).
//   - New builds a tool's Command from its detail: curated for the authored
//     workspace tools (ls, read, grep, glob, diff), generated flags otherwise;
//     it parses argument lists and names the flag of an invalid_input issue.
//   - Scan reads a command line once into a Line: agsh's own options through
//     the one table of them, generated.GlobalOptions, the command's name and
//     words; CheckMeta and RunMeta read a meta command's line so; Usage
//     prints agsh --help from the tables.
//   - HelpPage, IndexPage and their JSON forms are the data of agsh's help;
//     render lays them out. WriteGuard decides whether a tool's call asks.
//
// It knows no process state: cmd/agsh wires it to the real streams.
package command

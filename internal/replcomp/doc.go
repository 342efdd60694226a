// Package replcomp answers Tab (Completer): in the REPL, and for the login
// shells through the hidden completion answer (internal/shellcomp). It
// asks the command table what a name means, a live command for its flags
// and values, the deployment's ls for remote paths, and a meta command's
// row (internal/meta) for its flags and operands.
package replcomp

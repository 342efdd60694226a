package interp

import "github.com/agsh-dev/agsh/internal/names"

// unknownCommand builds the message for a command name that names nothing,
// with the names it may mean (agsh's one did-you-mean ranking, names.Suggest).
func unknownCommand(name string, suggestions []string) string {
	msg := "unknown command \"" + name + "\""
	if s := suggestions; len(s) > 0 {
		return msg + "; did you mean " + names.OrList(s) + "?"
	}
	return msg + "; run help for the list of commands"
}

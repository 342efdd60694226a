package main

import (
	"fmt"

	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/internal/version"
)

// printVersion is `agsh --version`: recognized before any command name, with
// at most --output beside it (a tool's --version flag stays the tool's).
func printVersion(ios *iostreams.IOStreams, e env, g globals, rest []string) int {
	if len(rest) > 1 || g.target != "" || g.team != "" || g.token != "" || g.session != "" || g.contToken != "" || g.help {
		return reportEarly(ios, e, g, usagef("--version takes no option but --output, and no command"), g.json())
	}
	in := version.Read("agsh")
	if g.json() {
		fmt.Fprintf(ios.Out, "%s\n", in.JSON())
	} else {
		fmt.Fprintln(ios.Out, in)
	}
	return exitOK
}

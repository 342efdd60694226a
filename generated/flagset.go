package generated

// CommandOf is a command of the given flags alone, as shell completion's
// cache keeps them (docs/cli.md#completion-scripts): Lookup finds each by
// its spelling. It maps no schema: it is for completing, not for parsing.
func CommandOf(flags []*Flag) *Command {
	c := &Command{Flags: flags, byName: make(map[string]*Flag, len(flags)), omitted: map[string]*Flag{}}
	for _, f := range flags {
		c.byName[f.Name] = f
	}
	return c
}

package main

import (
	"context"
	"encoding/json"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/internal/repl"
	"github.com/agsh-dev/agsh/render"
)

// completer answers Tab in the REPL from the live catalog: command names,
// the current command's flags, enum values, and remote paths for curated
// path operands (asked of the deployment's ls, unbound, cached per
// directory for the run).
type completer struct {
	a     *app
	mu    sync.Mutex
	cmds  map[string]*command
	dirs  map[string][]string
	names []string
}

func newCompleter(a *app) *completer {
	c := &completer{a: a, cmds: map[string]*command{}, dirs: map[string][]string{}}
	for _, t := range a.tools {
		c.names = append(c.names, t.Name)
	}
	return c
}

func (c *completer) Complete(ctx context.Context, line string, cursor int) (repl.Completion, error) {
	if cursor > len(line) {
		cursor = len(line)
	}
	lc := scanLine(line[:cursor])
	comp := repl.Completion{Start: lc.start, End: cursor}
	if len(lc.words) == 0 {
		comp.Candidates = c.commandNames(lc)
		return comp, nil
	}
	if lc.afterPipe {
		return comp, nil
	}
	if lc.words[0] == "help" && len(lc.words) == 1 && !c.isTool("help") && !strings.HasPrefix(lc.current, "-") {
		// help's operand is a tool (or a filter).
		comp.Candidates = c.commandNames(lineContext{current: lc.current})
		return comp, nil
	}
	cmd, err := c.command(ctx, lc.words[0])
	if err != nil || cmd == nil {
		return comp, nil
	}
	if strings.HasPrefix(lc.current, "-") {
		comp.Candidates = flagCandidates(cmd, lc.current)
		return comp, nil
	}
	prev := lc.words[len(lc.words)-1]
	if prev == "--output" {
		for _, v := range []string{"text", "json"} {
			if strings.HasPrefix(v, lc.current) {
				comp.Candidates = append(comp.Candidates, repl.Candidate{Text: v})
			}
		}
		return comp, nil
	}
	if f := cmd.flags.Lookup(prev); f != nil && len(f.Enum) > 0 {
		for _, e := range f.Enum {
			if v := enumText(e); strings.HasPrefix(v, lc.current) {
				comp.Candidates = append(comp.Candidates, repl.Candidate{Text: v})
			}
		}
		return comp, nil
	}
	if cmd.reformats() && operandAt(cmd, lc.words[1:]) == "path" {
		comp.Candidates = c.paths(ctx, lc.current)
	}
	return comp, nil
}

func (c *completer) isTool(name string) bool {
	for _, n := range c.names {
		if n == name {
			return true
		}
	}
	return false
}

// operandAt names the curated operand the next word is ("path", "pattern"),
// given the words typed after the command name: flags, their values, and
// operands. "" when the word is no operand.
func operandAt(cmd *command, words []string) string {
	n := 0
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			n += len(words) - i - 1
			i = len(words)
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if f := cmd.flags.Lookup(w); (w == "--output" || f != nil && f.Type != "boolean") && !strings.Contains(w, "=") {
				if i++; i == len(words) {
					return "" // the word being typed is the flag's value
				}
			}
		default:
			n++
		}
	}
	if n < len(cmd.curated.Operands) {
		return cmd.curated.Operands[n].Name
	}
	return ""
}

func (c *completer) commandNames(lc lineContext) []repl.Candidate {
	var pool []string
	if lc.afterPipe {
		pool = filterWords
	} else {
		pool = append(pool, c.names...)
		for _, w := range shellWords {
			pool = append(pool, w)
		}
	}
	seen := map[string]bool{}
	var out []repl.Candidate
	for _, n := range pool {
		if strings.HasPrefix(n, lc.current) && !seen[n] {
			seen[n] = true
			out = append(out, repl.Candidate{Text: n, Display: render.SafeLabel(n)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

// command returns the shape of a tool, fetching its detail once.
func (c *completer) command(ctx context.Context, name string) (*command, error) {
	c.mu.Lock()
	cmd, ok := c.cmds[name]
	c.mu.Unlock()
	if ok {
		return cmd, nil
	}
	known := false
	for _, n := range c.names {
		known = known || n == name
	}
	if !known {
		return nil, nil
	}
	d, err := c.a.client.Tool(ctx, name, c.a.binding)
	if err != nil {
		return nil, err
	}
	cmd, err = newCommand(d)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.cmds[name] = cmd
	c.mu.Unlock()
	return cmd, nil
}

func flagCandidates(cmd *command, prefix string) []repl.Candidate {
	var out []repl.Candidate
	for _, f := range cmd.flags.Flags {
		if !strings.HasPrefix(f.Name, prefix) {
			continue
		}
		display := f.Name
		if f.Placeholder != "" {
			display += " " + f.Placeholder
		}
		desc, _, _ := strings.Cut(f.Description, "\n")
		out = append(out, repl.Candidate{Text: f.Name, Display: display, Description: render.SafeLabel(desc)})
	}
	for _, g := range []string{"--help", "--output"} {
		if strings.HasPrefix(g, prefix) {
			out = append(out, repl.Candidate{Text: g})
		}
	}
	return out
}

// paths completes a remote path: the children of its directory, listed by
// the deployment's ls without a session binding.
func (c *completer) paths(ctx context.Context, word string) []repl.Candidate {
	dir, base := path.Split(word)
	listDir := dir
	if listDir == "" {
		listDir = curated.DefaultRoot
	}
	names, err := c.list(ctx, listDir)
	if err != nil {
		return nil
	}
	var out []repl.Candidate
	for _, n := range names {
		if strings.HasPrefix(n, base) {
			out = append(out, repl.Candidate{Text: dir + n, Display: n})
		}
	}
	return out
}

func (c *completer) list(ctx context.Context, dir string) ([]string, error) {
	c.mu.Lock()
	names, ok := c.dirs[dir]
	c.mu.Unlock()
	if ok {
		return names, nil
	}
	ls, err := c.command(ctx, "ls")
	if err != nil || ls == nil || !ls.reformats() {
		return nil, err
	}
	input, _ := json.Marshal(map[string]string{ls.curated.Operands[0].Field: dir})
	res, err := c.a.client.Call(ctx, "ls", input, catalog.Binding{})
	if err != nil || res.IsError {
		return nil, err
	}
	v := render.FromResult(res.Result)
	out, ok := curated.ReformatLs(v.Text)
	if !ok {
		return nil, nil
	}
	names = strings.Split(strings.TrimSuffix(out.Stdout, "\n"), "\n")
	if out.Stdout == "" {
		names = nil
	}
	c.mu.Lock()
	c.dirs[dir] = names
	c.mu.Unlock()
	return names, nil
}

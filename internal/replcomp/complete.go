package replcomp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/internal/repl"
	"github.com/agsh-dev/agsh/interp"
	"github.com/agsh-dev/agsh/interp/syntax"
	"github.com/agsh-dev/agsh/render"
)

// Completer answers Tab in the REPL from the live catalog: command names,
// the current command's flags, enum and option values, and remote paths for
// curated path operands (asked of the deployment's ls, unbound, cached per
// directory for the run). The text before the cursor is scanned by the
// shell's own lexer (syntax.ScanPartial).
type Completer struct {
	// Command, when set, answers the command a name resolves to (tool is
	// its listing entry) in place of building it from the deployment's
	// detail: shell completion's catalog cache (internal/shellcomp). A nil
	// command completes nothing after the name.
	Command func(ctx context.Context, name string, tool catalog.ToolEntry) (*command.Command, error)
	// Records: a console word's operands complete from the deployment,
	// call ids from the bound session's record and session ids from GET
	// /v1/sessions (the REPL). Without it only the words and their flags
	// complete: a host shell's Tab never reads a record.
	Records bool

	run   *catalog.Run
	table *command.Table
	mu    sync.Mutex
	cmds  map[string]*command.Command
	dirs  map[string][]string
}

// NewCompleter completes against a run whose listing is loaded (table). A
// nil run completes no remote path.
func NewCompleter(run *catalog.Run, table *command.Table) *Completer {
	return &Completer{run: run, table: table, cmds: map[string]*command.Command{}, dirs: map[string][]string{}}
}

// Complete implements repl.Completer.
func (c *Completer) Complete(ctx context.Context, line string, cursor int) (repl.Completion, error) {
	cursor = min(cursor, len(line))
	p := syntax.ScanPartial(line[:cursor])
	comp := repl.Completion{Start: p.Start, End: cursor}
	switch {
	case len(p.Words) == 0:
		comp.Candidates = quoteCandidates(c.commandNames(p.Current, p.AfterPipe), p.Quote)
		return comp, nil
	case p.AfterPipe:
		return comp, nil
	case p.Words[0] == "help" && len(p.Words) == 1 && !c.table.Lookup("help").IsTool() && !strings.HasPrefix(p.Current, "-"):
		// help's operand is a tool (or a filter).
		comp.Candidates = quoteCandidates(c.commandNames(p.Current, false), p.Quote)
		return comp, nil
	}
	if m, ok := meta.LookupMeta(p.Words[0]); ok {
		comp.Candidates = quoteCandidates(c.metaArguments(ctx, m, p), p.Quote)
		return comp, nil
	}
	cmd, err := c.command(ctx, p.Words[0])
	if err != nil || cmd == nil {
		return comp, nil
	}
	comp.Candidates = quoteCandidates(c.arguments(ctx, cmd, p), p.Quote)
	return comp, nil
}

// arguments completes a word after the command name: a flag, a flag's
// value, or a curated path operand.
func (c *Completer) arguments(ctx context.Context, cmd *command.Command, p syntax.Partial) []repl.Candidate {
	if strings.HasPrefix(p.Current, "-") {
		return flagCandidates(cmd, p.Current)
	}
	prev := p.Words[len(p.Words)-1]
	if o, ok := command.LookupOption(prev); ok && o.Values != nil {
		return prefixed(o.Values, p.Current)
	}
	if f := cmd.Flags.Lookup(prev); f != nil && len(f.Enum) > 0 {
		var values []string
		for _, e := range f.Enum {
			values = append(values, command.EnumText(e))
		}
		return prefixed(values, p.Current)
	}
	if op := cmd.OperandAt(p.Words[1:]); cmd.Reformats() && op != nil && op.Path {
		return c.paths(ctx, p.Current)
	}
	return nil
}

func prefixed(values []string, prefix string) []repl.Candidate {
	var out []repl.Candidate
	for _, v := range matching(values, prefix, func(v string) string { return v }) {
		out = append(out, repl.Candidate{Text: v})
	}
	return out
}

// matching keeps the items whose key starts with word, or, when none does,
// those whose key contains it.
func matching[T any](items []T, word string, key func(T) string) []T {
	var out []T
	for _, it := range items {
		if strings.HasPrefix(key(it), word) {
			out = append(out, it)
		}
	}
	if len(out) > 0 || word == "" {
		return out
	}
	for _, it := range items {
		if strings.Contains(key(it), word) {
			out = append(out, it)
		}
	}
	return out
}

// commandNames are the names that may stand at the cursor, sorted.
func (c *Completer) commandNames(prefix string, afterPipe bool) []repl.Candidate {
	pool := interp.FilterNames()
	if !afterPipe {
		pool = c.table.Commands()
	}
	seen := map[string]bool{}
	var out []repl.Candidate
	for _, n := range matching(pool, prefix, func(n string) string { return n }) {
		if !seen[n] {
			seen[n] = true
			out = append(out, repl.Candidate{Text: n})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

// command returns the command a name resolves to, fetching its tool's
// detail once.
func (c *Completer) command(ctx context.Context, word string) (*command.Command, error) {
	r := c.table.Lookup(word)
	if !r.IsTool() {
		return nil, nil
	}
	name := r.Tool.Name
	c.mu.Lock()
	cmd, ok := c.cmds[word]
	c.mu.Unlock()
	if ok {
		return cmd, nil
	}
	var err error
	if c.Command != nil {
		if cmd, err = c.Command(ctx, word, *r.Tool); err != nil || cmd == nil {
			return nil, err
		}
	} else {
		d, err := c.run.Client().Tool(ctx, name, c.run.Binding())
		if err != nil || d == nil {
			return nil, err
		}
		if cmd, err = command.NewNamed(word, d); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	c.cmds[word] = cmd
	c.mu.Unlock()
	return cmd, nil
}

// flagCandidates are the command's flags and agsh's options that start
// with prefix, or, when none does, whose name contains it without its
// dashes (--mode: --output-mode).
func flagCandidates(cmd *command.Command, prefix string) []repl.Candidate {
	var all []repl.Candidate
	for _, f := range cmd.Flags.Flags {
		display := f.Name
		if f.Placeholder != "" {
			display += " " + f.Placeholder
		}
		desc, _, _ := strings.Cut(f.Description, "\n")
		all = append(all, repl.Candidate{Text: f.Name, Display: display, Description: render.Safe(desc)})
	}
	if cmd.Curated != nil {
		// The unix habits the command accepts (grep -l, -F, read -n).
		for _, sh := range cmd.Curated.Shorthands() {
			desc, _, _ := strings.Cut(sh.Description, "\n")
			for _, term := range strings.Split(sh.Term, ", ") {
				name, arg, _ := strings.Cut(term, " ")
				if strings.HasPrefix(name, "-") && cmd.Flags.Lookup(name) == nil {
					display := name
					if arg != "" {
						display += " " + arg
					}
					all = append(all, repl.Candidate{Text: name, Display: display, Description: desc})
				}
			}
		}
	}
	for _, o := range command.Options() {
		if o.Scope == generated.Anywhere {
			all = append(all, repl.Candidate{Text: o.Name})
		}
	}
	if out := matching(all, prefix, func(c repl.Candidate) string { return c.Text }); len(out) > 0 {
		return out
	}
	// The dashes typed are not part of what is looked for inside a name.
	if word := strings.TrimLeft(prefix, "-"); word != "" {
		return matching(all, word, func(c repl.Candidate) string { return strings.TrimLeft(c.Text, "-") })
	}
	return nil
}

// paths completes a remote path: the children of its directory, listed by
// the deployment's ls without a session binding.
func (c *Completer) paths(ctx context.Context, word string) []repl.Candidate {
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
	for _, n := range matching(names, base, func(n string) string { return n }) {
		out = append(out, repl.Candidate{Text: dir + n, Display: n})
	}
	return out
}

// The bounds of one directory's listing for Tab: a directory of millions
// of names is not a list anyone reads, and building it would freeze the
// shell.
const (
	maxListBytes = 4 << 20
	maxListNames = 10000
)

func (c *Completer) list(ctx context.Context, dir string) ([]string, error) {
	c.mu.Lock()
	names, ok := c.dirs[dir]
	c.mu.Unlock()
	if ok || c.run == nil {
		return names, nil
	}
	lister := curated.Lister()
	if lister == nil {
		return nil, nil
	}
	ls, err := c.command(ctx, lister.Name)
	if err != nil || ls == nil || !ls.Reformats() || len(ls.Curated.Operands) == 0 {
		return nil, err
	}
	input, _ := json.Marshal(map[string]string{ls.Curated.Operands[0].Field: dir})
	// A listing that streams is read up to maxListBytes: what follows is
	// not waited for (the call is given up), and the names kept are those
	// of the complete lines before the cut.
	w := &boundedText{limit: maxListBytes}
	res, err := c.run.Client().CallStream(ctx, ls.Detail.Name, input, catalog.Binding{}, func() io.Writer { return w })
	var text string
	switch {
	case res != nil && res.Streamed:
		text = w.text()
	case err != nil || res == nil || res.IsError:
		return nil, err
	default:
		text = render.FromResult(res.Result).Text
	}
	names = listedNames(text, maxListNames)
	c.mu.Lock()
	c.dirs[dir] = names
	c.mu.Unlock()
	return names, nil
}

// quoteCandidates turns candidate values into the text to insert, in the
// shell's quoting (docs/shell.md#language): inside the quote the user left
// open, closed after a complete word (not after a directory's "/" or a flag's
// "="); without one, special characters escaped with a backslash. The list
// still shows the bare value.
func quoteCandidates(cs []repl.Candidate, open byte) []repl.Candidate {
	for i := range cs {
		if cs[i].Display == "" {
			cs[i].Display = cs[i].Text
		}
		cs[i].Text = QuoteWord(cs[i].Text, open)
	}
	return cs
}

// QuoteWord writes value as a shell word that reads back as value: inside
// the quote the user opened (a double or a single quote; 0 for none),
// closed unless value ends in "/" or "=" (more is to be typed).
func QuoteWord(value string, open byte) string {
	more := strings.HasSuffix(value, "/") || strings.HasSuffix(value, "=")
	var b strings.Builder
	switch open {
	case '"':
		b.WriteByte('"')
		for _, r := range value {
			if r == '"' || r == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		if !more {
			b.WriteByte('"')
		}
	case '\'':
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(value, "'", `'\''`))
		if !more {
			b.WriteByte('\'')
		}
	default:
		if value == "" || strings.ContainsAny(value, "\n\r") {
			return QuoteWord(value, '\'')
		}
		for i, r := range value {
			if strings.ContainsRune(" \t'\"\\|;&<>()`$", r) || r == '#' && i == 0 {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// listedNames reads the immediate children out of ls's text (the header
// line "- /dir/", then "  - name" rows; curated.ReformatLs's format), at
// most limit of them. It tolerates what a whole listing may not: a name
// holding a line break shows as a row and a line that is no row, and only
// that name is skipped.
func listedNames(text string, limit int) []string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "- ") || !strings.HasSuffix(lines[0], "/") {
		return nil
	}
	var names []string
	last := -1 // the index in names of the row just read, or -1
	for _, l := range lines[1:] {
		indent := len(l) - len(strings.TrimLeft(l, " "))
		body := l[indent:]
		switch {
		case indent == 2 && strings.HasPrefix(body, "- ") && len(body) > 2:
			if len(names) == limit {
				return names
			}
			names = append(names, body[2:])
			last = len(names) - 1
		case indent >= 2 && indent%2 == 0 && (strings.HasPrefix(body, "- ") || strings.HasPrefix(body, "[") && strings.HasSuffix(body, "]")):
			last = -1 // a deeper row or a summary
		default:
			// The rest of a name that held a line break: that name is not
			// one Tab can write.
			if last >= 0 && last == len(names)-1 {
				names = names[:last]
			}
			last = -1
		}
	}
	return names
}

// boundedText keeps a streamed JSON string's content (escapes as
// received) up to limit bytes, then refuses more, which ends the call.
type boundedText struct {
	limit int
	buf   []byte
	full  bool
}

var errListFull = errors.New("the listing is larger than completion reads")

func (b *boundedText) Write(p []byte) (int, error) {
	room := b.limit - len(b.buf)
	if len(p) > room {
		b.buf = append(b.buf, p[:room]...)
		b.full = true
		return room, errListFull
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// text is what was kept, decoded: when the string was cut, up to its last
// escaped line break, so that no escape is cut in two.
func (b *boundedText) text() string {
	raw := b.buf
	if b.full {
		end := -1
		for i := 0; i+1 < len(raw); i++ {
			if raw[i] == '\\' {
				if raw[i+1] == 'n' {
					end = i + 2
				}
				i++
			}
		}
		if end < 0 {
			return ""
		}
		raw = raw[:end]
	}
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	return jsontext.UnquoteValid(quoted)
}

// EventTypes are the event types --type completes (the types agsh reads,
// and their prefixes).
var EventTypes = []string{"turn", "turn.started", "turn.queued", "turn.completed", "turn.failed",
	"actions.requested", "action.result", "message.completed", "approval", "approval.requested",
	"approval.resolved", "session.waiting", "record.truncated"}

// maxCompleted bounds the ids Tab offers.
const maxCompleted = 200

// metaArguments completes a word after a meta command: its flags, their
// values (--type's event types, --tool's tools), and with Records its
// operands (session ids, the record's call ids).
func (c *Completer) metaArguments(ctx context.Context, m *meta.MetaCommand, p syntax.Partial) []repl.Candidate {
	if strings.HasPrefix(p.Current, "-") {
		var all []repl.Candidate
		for _, f := range m.Flags {
			display := f.Name
			if f.Placeholder != "" {
				display += " " + f.Placeholder
			}
			all = append(all, repl.Candidate{Text: f.Name, Display: display, Description: f.Help})
		}
		all = append(all, repl.Candidate{Text: "--output"})
		if m.Name == meta.MetaApprove || m.Name == meta.MetaDeny {
			all = append(all, repl.Candidate{Text: "--yes", Description: "decide without the question"})
		}
		return matching(all, p.Current, func(c repl.Candidate) string { return c.Text })
	}
	words := p.Words[1:]
	if n := len(words); n > 0 {
		switch prev := words[n-1]; {
		case prev == "--type":
			return prefixed(EventTypes, p.Current)
		case prev == "--tool":
			return prefixed(c.table.ToolNames(), p.Current)
		case prev == "--output":
			return prefixed(render.FormatNames(), p.Current)
		case m.Flag(prev) != nil && len(m.Flag(prev).Values) > 0:
			return prefixed(m.Flag(prev).Values, p.Current)
		case m.Flag(prev) != nil && m.Flag(prev).Placeholder != "":
			return nil
		}
	}
	op := metaOperandAt(m, words)
	if op == nil || !c.Records || c.run == nil {
		return nil
	}
	switch {
	case op.Parked:
		return prefixed(meta.CompleteParkedIDs(ctx, c.run.Client(), c.run.Binding(), maxCompleted), p.Current)
	case op.Call:
		return prefixed(meta.CompleteCallIDs(ctx, c.run.Client(), c.run.Binding(), maxCompleted), p.Current)
	case op.Session:
		ss, err := c.run.Client().Sessions(ctx)
		if err != nil {
			return nil
		}
		var ids []string
		for _, s := range ss {
			if s.SessionID != "" && len(ids) < maxCompleted {
				ids = append(ids, s.SessionID)
			}
		}
		return prefixed(ids, p.Current)
	}
	return nil
}

// metaOperandAt is the operand the next word of a meta command line is,
// given the words typed after its name; nil when none.
func metaOperandAt(m *meta.MetaCommand, words []string) *meta.MetaOperand {
	n := 0
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") && len(w) > 1 {
			if f := m.Flag(w); f != nil && f.Placeholder != "" || w == "--output" {
				i++
			}
			continue
		}
		n++
	}
	if n < len(m.Operands) {
		return &m.Operands[n]
	}
	return nil
}

package shellcomp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/curated"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/compcache"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/internal/meta"
	"github.com/agsh-dev/agsh/internal/replcomp"
	"github.com/agsh-dev/agsh/interp/syntax"
)

// The hidden launch options the completion scripts use. They stand first on
// agsh's command line, so no tool name is shadowed and no tool flag taken.
const (
	// CompleteOption answers: `agsh --__complete SHELL -- ARGS…`.
	CompleteOption = "--__complete"
	// RefreshOption refreshes the catalog cache of the target its
	// options name; agsh runs it detached.
	RefreshOption = "--__complete-refresh"
)

// PathTimeout bounds the one round trip that completes a remote path (or
// fetches a tool's detail the first time its flags are completed).
const PathTimeout = time.Second

// MaxAnswerBytes bounds every answer completion asks for (the listing, the
// agent document, a tool's detail, a directory's ls): far above what a real
// catalog or directory sends, far below what would freeze a Tab.
const MaxAnswerBytes = 4 << 20

// Env is what completion needs of the program: the environment, the
// executable (for the detached refresh) and a way to build a client.
type Env struct {
	Getenv   func(string) string
	ReadFile func(string) ([]byte, error)
	Home     string
	// Environ is the environment the refresh child inherits.
	Environ []string
	// Self is agsh's executable.
	Self string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Dial builds the client of the target g names: without a request for
	// a URL; a production name is resolved through the control plane.
	Dial func(ctx context.Context, g command.Globals) (*catalog.Client, error)
	// Spawn starts the refresh child detached (Detached when nil).
	Spawn func(cmd *exec.Cmd) error
}

func (e Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// Main runs a hidden option (args[0] is CompleteOption or RefreshOption)
// and answers its exit status: always 0, the shell shows no error.
func Main(ctx context.Context, args []string, out io.Writer, env Env) int {
	switch {
	case len(args) >= 3 && args[0] == CompleteOption && args[2] == "--":
		req, err := ParseRequest(args[1], args[3:])
		if err == nil {
			io.WriteString(out, req.Format(Answer(ctx, req, env)))
		}
	case len(args) == 2 && args[0] == CompleteOption && args[1] == "pwsh":
		// PowerShell hands the words in a variable (pwshWordsVar).
		words, ok := PwshWords(env.Getenv(pwshWordsVar))
		if req, err := ParseRequest("pwsh", words); ok && err == nil {
			io.WriteString(out, req.Format(Answer(ctx, req, env)))
		}
	case len(args) >= 1 && args[0] == RefreshOption:
		// `--__complete-refresh [-- COMMAND]`: the whole entry, or the
		// completion data of one command.
		rest, name := args[1:], ""
		if i := slices.Index(rest, "--"); i >= 0 {
			if i+1 < len(rest) {
				name = rest[i+1]
			}
			rest = rest[:i]
		}
		g, _, err := command.SplitGlobals(rest)
		if err == nil {
			_ = refresh(ctx, g, env, name)
		}
	}
	return exitcode.OK
}

// Answer completes the word being typed: agsh's options and their values,
// then what the REPL's Tab offers (tools, flags, enum values, remote paths),
// tools and flags from the catalog cache, paths with one round trip.
func Answer(ctx context.Context, req Request, env Env) []Candidate {
	words, cur := req.Words, req.Current
	g, rest, err := command.SplitGlobals(words)
	if err != nil {
		if n := len(words); n > 0 {
			if o, ok := command.LookupOption(words[n-1]); ok && o.TakesValue() {
				return prefixed(o.Values, cur, "")
			}
		}
		return nil
	}
	if name, value, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(cur, "--") {
		if o, isGlobal := command.LookupOption(name); isGlobal {
			return prefixed(o.Values, value, name+"=")
		}
		if len(rest) > 0 {
			var out []Candidate
			for _, c := range engine(ctx, g, append(rest, name), value, env) {
				out = append(out, Candidate{Value: name + "=" + c.Value, Description: c.Description})
			}
			return out
		}
	}
	if len(rest) == 0 && strings.HasPrefix(cur, "-") {
		var out []Candidate
		for _, o := range command.Options() {
			if strings.HasPrefix(o.Name, cur) {
				help, _, _ := strings.Cut(o.Help, "\n")
				out = append(out, Candidate{Value: o.Name, Description: help})
			}
		}
		return out
	}
	if len(rest) == 0 && strings.HasPrefix(cur, ":") || len(rest) > 0 && isMeta(rest[0]) {
		return metaWords(ctx, rest, cur)
	}
	return engine(ctx, g, rest, cur, env)
}

// isMeta reports a meta command's name.
func isMeta(name string) bool {
	_, ok := meta.LookupMeta(name)
	return ok
}

// metaWords completes a meta command line from agsh's own tables alone:
// the meta commands' names, their flags and --type's event types. It reads
// nothing from the deployment or the cache (a Tab never reads a record).
func metaWords(ctx context.Context, words []string, cur string) []Candidate {
	comp := replcomp.NewCompleter(nil, command.NewTable(nil))
	return complete(ctx, comp, words, cur, nil)
}

func prefixed(values []string, prefix, add string) []Candidate {
	var out []Candidate
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			out = append(out, Candidate{Value: add + v})
		}
	}
	return out
}

// engine asks the REPL's completion engine about the command words and the
// word being typed, written as an agsh command line. A command name's
// description is its tool's title.
func engine(ctx context.Context, g command.Globals, words []string, cur string, env Env) []Candidate {
	p, ok := principal(g, env)
	if !ok {
		return nil
	}
	cache := p.open(env)
	if cache == nil {
		return nil
	}
	tools, fetched, have := cache.Listing()
	if !have || !compcache.Fresh(fetched, env.now()) {
		spawnRefresh(cache, p, g, env, "")
	}
	if !have {
		return nil
	}
	run := pathRun(ctx, p.target, g, env)
	comp := replcomp.NewCompleter(run, command.NewTable(tools))
	comp.Command = func(ctx context.Context, name string, tool catalog.ToolEntry) (*command.Command, error) {
		return tabCommand(ctx, cache, name, tool, run, p, g, env), nil
	}
	return complete(ctx, comp, words, cur, tools)
}

// complete asks comp about the words and the word being typed, written as
// an agsh command line, and answers the candidates as values; a command
// name's description is its tool's title (from tools).
func complete(ctx context.Context, comp *replcomp.Completer, words []string, cur string, tools []catalog.ToolEntry) []Candidate {
	var line strings.Builder
	for _, w := range words {
		line.WriteString(syntax.Quote(w, line.Len() == 0) + " ")
	}
	line.WriteString(escapePartial(cur))
	ctx, cancel := context.WithTimeout(ctx, PathTimeout)
	defer cancel()
	c, err := comp.Complete(ctx, line.String(), line.Len())
	if err != nil {
		return nil
	}
	var out []Candidate
	for _, cand := range c.Candidates {
		// The engine writes each candidate in agsh's own quoting, for the
		// REPL's line: read it back to the value, which the host shell's
		// quoting then writes.
		v := cand.Text
		if p := syntax.ScanPartial(cand.Text); len(p.Words) == 0 && p.Quote == 0 {
			v = p.Current
		}
		out = append(out, Candidate{Value: v, Description: cand.Description})
	}
	if len(words) == 0 && tools != nil {
		titled(out, tools)
	}
	return out
}

// titled sets each command name's description to its tool's title ("" for
// a name that is no tool's; of two tools of one name, the later's): one
// pass over the listing, the candidates looked up, not the listing.
func titled(out []Candidate, tools []catalog.ToolEntry) {
	at := make(map[string][]int, len(out))
	for i := range out {
		out[i].Description = ""
		at[out[i].Value] = append(at[out[i].Value], i)
	}
	for _, t := range tools {
		for _, i := range at[t.Name] {
			out[i].Description = t.Title
		}
	}
}

// tabCommand is the command name (over the tool of entry) as Tab needs it:
// its completion data from the cache; else, for a URL target, its tool's
// detail fetched now (one GET, within the Tab's bound) and its data kept;
// for a production name, whose resolution would cost a round trip of its
// own, a detached refresh fetches it for the next Tab.
func tabCommand(ctx context.Context, cache *compcache.Cache, name string, tool catalog.ToolEntry, run *catalog.Run,
	p target, g command.Globals, env Env) *command.Command {
	if data, ok := cache.Command(name); ok {
		var s command.TabShape
		if json.Unmarshal(data, &s) == nil && s.Tool == tool.Name {
			return s.Command(name, tool)
		}
	}
	if run == nil {
		spawnRefresh(cache, p, g, env, name)
		return nil
	}
	d, err := run.Client().Tool(ctx, tool.Name, catalog.Binding{})
	if err != nil {
		return nil
	}
	cmd, err := command.NewNamed(name, d)
	if err != nil {
		return nil
	}
	saveShape(cache, name, cmd)
	return cmd
}

// saveShape keeps the completion data of cmd, called name (not when past
// its bound: then the next Tab fetches it again).
func saveShape(cache *compcache.Cache, name string, cmd *command.Command) {
	if data, err := json.Marshal(cmd.TabShape()); err == nil {
		_ = cache.SaveCommand(name, data)
	}
}

// pathRun is the run remote paths are listed with: a URL target's client
// (built without a request); nil for a production name, whose resolution
// would cost a round trip of its own.
func pathRun(ctx context.Context, target string, g command.Globals, env Env) *catalog.Run {
	t, err := catalog.ParseTarget(target)
	if err != nil || t.URL == "" || env.Dial == nil {
		return nil
	}
	client, err := env.Dial(ctx, g)
	if err != nil || client == nil {
		return nil
	}
	return catalog.NewRun(client, catalog.Binding{})
}

// escapePartial writes the word being typed so that the agsh shell's lexer
// reads it back as an unfinished word: every character but the plain ones
// behind a backslash.
func escapePartial(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r) || r > 0x7f) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// target is the deployment and principal completion is for.
type target struct {
	target, team, cred string
}

// open answers the cache entry of the target and principal (nil when
// there is no usable cache folder).
func (p target) open(env Env) *compcache.Cache {
	c, err := compcache.Open(compcache.Dir(env.Getenv), compcache.Key(p.target+"\x00"+p.team, p.cred))
	if err != nil {
		return nil
	}
	return c
}

// principal answers the target, team and credential completion is for, the
// way a call finds them (flags, then environment, then the credential files
// for a production name), without any request.
func principal(g command.Globals, env Env) (p target, ok bool) {
	opt := func(name, envName string) string {
		if v := g.Get(name); v != "" {
			return v
		}
		return env.Getenv(envName)
	}
	p.target = strings.TrimSpace(opt("--target", "AGENT_SHELL_TARGET"))
	t, err := catalog.ParseTarget(p.target)
	if err != nil {
		return target{}, false
	}
	p.cred = strings.TrimSpace(opt("--bearer-token", "AGENT_SHELL_BEARER_TOKEN"))
	if t.Name != "" {
		p.team = opt("--team", "AGENT_SHELL_TEAM")
		if c, err := catalog.LookupCredential(p.cred, env.Getenv, env.ReadFile, env.Home); err == nil {
			p.cred = c.Token
		}
	}
	return p, true
}

// spawnRefresh starts `agsh --__complete-refresh` detached (for one
// command's data when name is set), unless a refresh is already at work on
// this entry (its lock younger than a minute).
func spawnRefresh(cache *compcache.Cache, p target, g command.Globals, env Env, name string) {
	if env.Self == "" || !cache.Lock(env.now()) {
		return
	}
	cmd := exec.Command(env.Self, RefreshOption)
	if name != "" {
		cmd.Args = append(cmd.Args, "--", name)
	}
	// The target (a URL may carry user:password), team and token reach the
	// child in its environment, never its argv, which ps shows.
	cmd.Env = append(env.Environ[:len(env.Environ):len(env.Environ)], "AGENT_SHELL_TARGET="+p.target, "AGENT_SHELL_TEAM="+p.team)
	if tok := g.Get("--bearer-token"); tok != "" {
		cmd.Env = append(cmd.Env, "AGENT_SHELL_BEARER_TOKEN="+tok)
	}
	spawn := env.Spawn
	if spawn == nil {
		spawn = Detached
	}
	if spawn(cmd) != nil {
		cache.Unlock()
	}
}

// maxInfoCommands bounds the commands whose completion data a refresh
// keeps from the agent document.
const maxInfoCommands = 256

// Refresh fetches the listing of g's target and the agent document
// (/v1/info), and stores the listing and the completion data of the
// commands over the authored tools the document describes; a connection
// tool's detail is fetched only when its flags are first completed. A
// listing past the cache's bounds is not stored: the old entry stays. It
// drops the refresh lock.
func Refresh(ctx context.Context, g command.Globals, env Env) error {
	return refresh(ctx, g, env, "")
}

// refresh is Refresh, or, with name, the fetch of that one command's data.
func refresh(ctx context.Context, g command.Globals, env Env, name string) error {
	p, ok := principal(g, env)
	if !ok || env.Dial == nil {
		return fmt.Errorf("nothing to refresh")
	}
	cache := p.open(env)
	if cache == nil {
		return fmt.Errorf("no cache folder")
	}
	defer cache.Unlock()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	client, err := env.Dial(ctx, g)
	if err != nil {
		return err
	}
	if name != "" {
		tools, _, ok := cache.Listing()
		if !ok {
			return fmt.Errorf("no listing")
		}
		r := command.NewTable(tools).Lookup(name)
		if !r.IsTool() {
			return fmt.Errorf("no tool %s", name)
		}
		d, err := client.Tool(ctx, r.Tool.Name, catalog.Binding{})
		if err != nil {
			return err
		}
		cmd, err := command.NewNamed(name, d)
		if err != nil {
			return err
		}
		saveShape(cache, name, cmd)
		return nil
	}
	tools, err := client.Tools(ctx, catalog.Binding{})
	if err != nil {
		return err
	}
	if len(tools) > compcache.MaxTools {
		return compcache.ErrTooLarge
	}
	info, infoErr := client.Info(ctx)
	if err := cache.SaveListing(tools); err != nil {
		return err
	}
	if infoErr != nil {
		return nil
	}
	schemas := make(map[string]json.RawMessage, len(info.Tools))
	names := curated.Names()
	for _, t := range info.Tools {
		if len(t.InputSchema) > 0 {
			schemas[t.Name] = t.InputSchema
			names = append(names, t.Name)
		}
	}
	table := command.NewTable(tools)
	kept := 0
	for _, n := range names {
		r := table.Lookup(n)
		schema, ok := schemas[nameOf(r)]
		if !ok || kept == maxInfoCommands {
			continue
		}
		d := &catalog.ToolDetail{Name: r.Tool.Name, Title: r.Tool.Title, Source: r.Tool.Source, InputSchema: schema}
		if cmd, err := command.NewNamed(n, d); err == nil {
			saveShape(cache, n, cmd)
			kept++
		}
	}
	return nil
}

// nameOf is the tool a resolution calls ("" for none).
func nameOf(r command.Resolution) string {
	if !r.IsTool() {
		return ""
	}
	return r.Tool.Name
}

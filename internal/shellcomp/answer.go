package shellcomp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/compcache"
	"github.com/agsh-dev/agsh/internal/exitcode"
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

// PathTimeout bounds the one round trip that completes a remote path.
const PathTimeout = time.Second

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
	case len(args) >= 1 && args[0] == RefreshOption:
		g, _, err := command.SplitGlobals(args[1:])
		if err == nil {
			_ = Refresh(ctx, g, env)
		}
	}
	return exitcode.OK
}

// Answer completes the word being typed: agsh's options and their values,
// then what the REPL's Tab offers (tools, flags, enum values, remote paths),
// tools and flags from the catalog cache, paths with one round trip.
func Answer(ctx context.Context, req Request, env Env) []string {
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
			var out []string
			for _, c := range engine(ctx, g, append(rest, name), value, env) {
				out = append(out, name+"="+c)
			}
			return out
		}
	}
	if len(rest) == 0 && strings.HasPrefix(cur, "-") {
		var names []string
		for _, o := range command.Options() {
			names = append(names, o.Name)
		}
		return prefixed(names, cur, "")
	}
	if len(rest) == 0 && strings.HasPrefix(cur, ":") || len(rest) > 0 && isMeta(rest[0]) {
		return metaWords(ctx, rest, cur)
	}
	return engine(ctx, g, rest, cur, env)
}

// isMeta reports a meta command's name.
func isMeta(name string) bool {
	_, ok := command.LookupMeta(name)
	return ok
}

// metaWords completes a meta command line from agsh's own tables alone:
// the meta commands' names, their flags and --type's event types. It reads
// nothing from the deployment or the cache (a Tab never reads a record).
func metaWords(ctx context.Context, words []string, cur string) []string {
	comp := command.NewCompleter(nil, command.NewTable(nil))
	return complete(ctx, comp, words, cur)
}

func prefixed(values []string, prefix, add string) []string {
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			out = append(out, add+v)
		}
	}
	return out
}

// engine asks the REPL's completion engine about the command words and the
// word being typed, written as an agsh command line.
func engine(ctx context.Context, g command.Globals, words []string, cur string, env Env) []string {
	target, team, cred, ok := principal(g, env)
	if !ok {
		return nil
	}
	entry := cached(target, team, cred, g, env)
	if entry == nil {
		return nil
	}
	comp := command.NewCompleter(pathRun(ctx, target, g, env), command.NewTable(entry.Tools))
	comp.Detail = func(_ context.Context, name string) (*catalog.ToolDetail, error) { return entry.Detail(name), nil }
	return complete(ctx, comp, words, cur)
}

// complete asks comp about the words and the word being typed, written as
// an agsh command line, and answers the candidates as values.
func complete(ctx context.Context, comp *command.Completer, words []string, cur string) []string {
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
	var out []string
	for _, cand := range c.Candidates {
		// The engine writes each candidate in agsh's own quoting, for the
		// REPL's line: read it back to the value, which the host shell's
		// quoting then writes.
		if p := syntax.ScanPartial(cand.Text); len(p.Words) == 0 && p.Quote == 0 {
			out = append(out, p.Current)
		} else {
			out = append(out, cand.Text)
		}
	}
	return out
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

// principal answers the target, team and credential completion is for, the
// way a call finds them (flags, then environment, then the credential files
// for a production name), without any request.
func principal(g command.Globals, env Env) (target, team, cred string, ok bool) {
	opt := func(name, envName string) string {
		if v := g.Get(name); v != "" {
			return v
		}
		return env.Getenv(envName)
	}
	target = strings.TrimSpace(opt("--target", "AGENT_SHELL_TARGET"))
	t, err := catalog.ParseTarget(target)
	if err != nil {
		return "", "", "", false
	}
	cred = strings.TrimSpace(opt("--bearer-token", "AGENT_SHELL_BEARER_TOKEN"))
	if t.Name != "" {
		team = opt("--team", "AGENT_SHELL_TEAM")
		if c, err := catalog.LookupCredential(cred, env.Getenv, env.ReadFile, env.Home); err == nil {
			cred = c.Token
		}
	}
	return target, team, cred, true
}

// cached answers the cache entry of a target and principal, starting a
// detached refresh when it is missing or stale (the answer never waits).
func cached(target, team, cred string, g command.Globals, env Env) *compcache.Entry {
	dir := compcache.Dir(env.Getenv)
	if dir == "" {
		return nil
	}
	key := compcache.Key(target+"\x00"+team, cred)
	entry, _ := compcache.Load(dir, key)
	if entry == nil || !entry.Fresh(env.now()) {
		spawnRefresh(dir, key, target, team, g, env)
	}
	return entry
}

// spawnRefresh starts `agsh --__complete-refresh` detached, unless one is
// already at work on this entry (a lock younger than a minute).
func spawnRefresh(dir, key, target, team string, g command.Globals, env Env) {
	if env.Self == "" {
		return
	}
	if os.MkdirAll(dir, 0o700) != nil {
		return
	}
	lock := filepath.Join(dir, key+".lock")
	if st, err := os.Stat(lock); err == nil && env.now().Sub(st.ModTime()) < time.Minute {
		return
	}
	cmd := exec.Command(env.Self, RefreshOption)
	// The target (a URL may carry user:password), team and token reach the
	// child in its environment, never its argv, which ps shows.
	cmd.Env = append(env.Environ[:len(env.Environ):len(env.Environ)], "AGENT_SHELL_TARGET="+target, "AGENT_SHELL_TEAM="+team)
	if tok := g.Get("--bearer-token"); tok != "" {
		cmd.Env = append(cmd.Env, "AGENT_SHELL_BEARER_TOKEN="+tok)
	}
	if os.WriteFile(lock, nil, 0o600) != nil {
		return
	}
	spawn := env.Spawn
	if spawn == nil {
		spawn = Detached
	}
	if spawn(cmd) != nil {
		os.Remove(lock)
	}
}

// Refresh fetches the listing and every tool's input schema of g's target
// and stores them in the cache, then drops the refresh lock.
func Refresh(ctx context.Context, g command.Globals, env Env) error {
	target, team, cred, ok := principal(g, env)
	dir := compcache.Dir(env.Getenv)
	if !ok || dir == "" || env.Dial == nil {
		return fmt.Errorf("nothing to refresh")
	}
	key := compcache.Key(target+"\x00"+team, cred)
	defer os.Remove(filepath.Join(dir, key+".lock"))
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	client, err := env.Dial(ctx, g)
	if err != nil {
		return err
	}
	tools, err := client.Tools(ctx, catalog.Binding{})
	if err != nil {
		return err
	}
	entry := &compcache.Entry{Fetched: env.now().UTC(), Tools: tools, Schemas: map[string]json.RawMessage{}}
	if info, err := client.Info(ctx); err == nil {
		for _, t := range info.Tools {
			entry.Schemas[t.Name] = t.InputSchema
		}
	}
	for _, t := range tools {
		if _, ok := entry.Schemas[t.Name]; !ok {
			if d, err := client.Tool(ctx, t.Name, catalog.Binding{}); err == nil {
				entry.Schemas[t.Name] = d.InputSchema
			}
		}
	}
	return compcache.Save(dir, key, entry)
}

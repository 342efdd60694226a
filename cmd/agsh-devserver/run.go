package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/spf13/pflag"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the server could not start (the port is taken…)
	exitUsage = 2 // bad flags or options
)

// maxClockOffset bounds --clock-offset: a day either way is enough to
// see any age a client reads.
const maxClockOffset = 24 * time.Hour

const usage = `Usage: agsh-devserver [flags]

Runs the development deployment: the executor and planner agents on one port.
Prints "executor URL", "planner URL" (and, with --demo-sessions, "demo-session
ID", the operator's own idle session) and "ready" on standard output when it
listens; logs go to standard error. Stops on SIGINT or SIGTERM.

Flags:
      --addr HOST:PORT         listen address; port 0 picks a free one (default 127.0.0.1:39400)
      --root DIR               the workspace root, mounted at /repo (default .)
      --mount /PATH=DIR        mount DIR at /PATH as well (repeatable)
      --bearer-token TOKEN     require Authorization: Bearer TOKEN; each token is its own principal (repeatable;
                               visible to ps: prefer the file or the environment)
      --bearer-token-file FILE read bearer tokens from FILE, one per line (# starts a comment; repeatable)
      --allow-anonymous        admit non-loopback callers without a token
      --mcp 'NAME=COMMAND ARGS…'
                               serve a stdio MCP server's tools on the planner as NAME_… (repeatable)
      --mcp-start-timeout DURATION
                               how long the start waits for each --mcp server (default 30s); one not ready
                               by then keeps starting, and its tools appear when it is ready (logged)
      --echo-tools PATH        serve JSON tool definitions (a file or a directory) that echo their input (repeatable)
      --state DIR              keep sessions in DIR across restarts (default: in memory)
      --clock-offset DURATION  stamp session rows and record events this far from the real clock (-15m:
                               a quarter of an hour behind), to see ages without waiting (default 0)
      --demo-sessions N        start N sessions of the scripted agent on the executor at once, in mixed
                               states (parked approvals, failed turns, long sleeps, busy turns), for agsh :top
  -h, --help                   show this help

Control plane (production names; on when any of these is given):
      --cp-team ID=NAME[:AGENT,AGENT…]
                               a team; it hosts the listed agents (by name or slug), else every agent (repeatable)
      --cp-key KEY=TEAMID[,TEAMID…]
                               an API key and the teams it may use (repeatable)
      --cp-key-file FILE       read API keys from FILE, one KEY=TEAMID[,TEAMID…] per line (repeatable)
      --control-plane FILE     teams and keys as JSON: {"teams":[{"id","name","agents"}],"keys":[{"key","teams"}]}
  It serves GET /internal/agentsdk/deployments?slug=NAME (bearer: an API key) and
  each agent again at /internal/agentsdk/deployments/NAME/v1/…?teamId=ID, where
  NAME is the agent's name (change-monitor-executor). Point agsh at it with
  AGENT_SHELL_API_URL=http://HOST:PORT and CURSOR_API_KEY=KEY.

Sessions with turns (the scripted agent):
  POST /v1/session {"message": …} runs the message as a turn of the scripted agent. A
  message whose first line starts with a step word is a script, one step a line:
    call TOOL JSON        call a tool with that input object (the tools and policy of a direct call)
    say TEXT              answer (message.completed)
    sleep DURATION        think for a Go duration, at most 10m
    fail TEXT             fail the turn (turn.failed, reason error)
    # TEXT                a comment
  Any other message gets the reply "(dev agent) no steps in the message" before the
  create answers; a script is checked whole first (400 invalid_input naming the line of
  a malformed step), then runs in the background. A call of a tool that needs approval
  (report_change_issue, report_change_succeeded, an --echo-tools definition with
  "needsApproval": true) waits for a decision; an agent tool (run_checks) answers the
  error "agent tools are not simulated". The body also takes "title", "continuationToken"
  (a follow-up: it queues behind a running turn, and the token rotates), "mode": "task"
  (a session that takes no follow-up), "dryRun": true (a dry run: its turns run read
  tools, and every other call gets a stub result marked "stubbed", nothing done) and
  "checkOnly": true (check the message, create nothing).
  Every step is an event on the session's record, read at (ID is the session id):
    GET  /v1/session/ID/events                the record: {"ok":true,"events":[…]}
    GET  /v1/session/ID/stream?startIndex=N   the record from N, then live (NDJSON)
    POST /v1/session/ID/approvals/CALLID      {"decision": "approve"|"deny", "reason": …}
    POST /v1/session/ID/interrupt             end the running turn
  For example, with the server on its default address, a turn that calls two tools:
    curl -s http://127.0.0.1:39400/executor/v1/session -H 'Content-Type: application/json' \
      -d '{"message": "call ls {\"target_directory\": \"/repo\"}\ncall read {\"path\": \"/repo/README.md\"}\nsay done"}'
  then its record (ID from the answer's sessionId):
    curl -s http://127.0.0.1:39400/executor/v1/session/ID/events

Environment (secrets kept off the command line, where ps shows them; not passed on
to the programs the server starts):
  AGSH_DEVSERVER_TOKENS    bearer tokens, separated by spaces, commas or newlines (added to --bearer-token)
  AGSH_DEVSERVER_CP_KEYS   control-plane API keys, KEY=TEAMID[,TEAMID…] separated by spaces or newlines
`

// options are the parsed flags.
type options struct {
	devserver.Options
	help        bool
	argvSecrets bool // a token or key was given as a flag
}

// parseFlags parses the command line; getenv reads the secrets of the
// environment.
func parseFlags(args []string, getenv func(string) string) (options, error) {
	var o options
	var mounts, cpTeams, cpKeys, tokenFiles, keyFiles []string
	var cpFile string
	fs := pflag.NewFlagSet("agsh-devserver", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	fs.StringVar(&o.Addr, "addr", "127.0.0.1:39400", "")
	fs.StringVar(&o.Root, "root", ".", "")
	fs.StringArrayVar(&mounts, "mount", nil, "")
	fs.StringArrayVar(&o.BearerTokens, "bearer-token", nil, "")
	fs.StringArrayVar(&tokenFiles, "bearer-token-file", nil, "")
	fs.BoolVar(&o.AllowAnonymous, "allow-anonymous", false, "")
	fs.StringArrayVar(&o.MCP, "mcp", nil, "")
	fs.DurationVar(&o.MCPStartTimeout, "mcp-start-timeout", devserver.DefaultMCPStartTimeout, "")
	fs.StringArrayVar(&o.EchoTools, "echo-tools", nil, "")
	fs.StringVar(&o.StateDir, "state", "", "")
	fs.DurationVar(&o.ClockOffset, "clock-offset", 0, "")
	fs.IntVar(&o.DemoSessions, "demo-sessions", 0, "")
	fs.StringArrayVar(&cpTeams, "cp-team", nil, "")
	fs.StringArrayVar(&cpKeys, "cp-key", nil, "")
	fs.StringArrayVar(&keyFiles, "cp-key-file", nil, "")
	fs.StringVar(&cpFile, "control-plane", "", "")
	fs.BoolVarP(&o.help, "help", "h", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			o.help = true
			return o, nil
		}
		return o, err
	}
	if o.help {
		return o, nil
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (agsh-devserver takes only flags)", fs.Arg(0))
	}
	if o.Addr == "" {
		return o, errors.New("--addr: empty address")
	}
	if o.MCPStartTimeout <= 0 {
		return o, fmt.Errorf("--mcp-start-timeout: %s is not a positive duration", o.MCPStartTimeout)
	}
	if o.ClockOffset < -maxClockOffset || o.ClockOffset > maxClockOffset {
		return o, fmt.Errorf("--clock-offset: %s is more than %s from the real clock", o.ClockOffset, maxClockOffset)
	}
	if o.DemoSessions < 0 || o.DemoSessions > devserver.MaxDemoSessions {
		return o, fmt.Errorf("--demo-sessions: %d is not from 0 to %d", o.DemoSessions, devserver.MaxDemoSessions)
	}
	for _, m := range mounts {
		mt, err := devserver.ParseMount(m)
		if err != nil {
			return o, err
		}
		o.Mounts = append(o.Mounts, mt)
	}
	cp, err := controlPlaneFlags(cpFile, cpTeams, cpKeys)
	o.ControlPlane = cp
	if err != nil {
		return o, err
	}
	o.argvSecrets = len(o.BearerTokens) > 0 || len(cpKeys) > 0
	return o, secretsFromFilesAndEnv(&o, tokenFiles, keyFiles, getenv)
}

// controlPlaneFlags reads --control-plane, then adds --cp-team and --cp-key.
func controlPlaneFlags(file string, teams, keys []string) (devserver.ControlPlane, error) {
	var cp devserver.ControlPlane
	if file != "" {
		var err error
		if cp, err = devserver.LoadControlPlane(file); err != nil {
			return cp, err
		}
	}
	var more devserver.ControlPlane
	for _, spec := range teams {
		t, err := devserver.ParseTeamFlag(spec)
		if err != nil {
			return cp, err
		}
		more.Teams = append(more.Teams, t)
	}
	for _, spec := range keys {
		k, err := devserver.ParseKeyFlag(spec)
		if err != nil {
			return cp, err
		}
		more.Keys = append(more.Keys, k)
	}
	return cp.Merge(more), nil
}

// run is the whole program: parse, build, start, announce, wait for ctx,
// stop. It returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "agsh-devserver: %v\nRun 'agsh-devserver --help' for usage.\n", err)
		return exitUsage
	}
	if o.help {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	logger := log.New(stderr, "", log.Ltime|log.Lmicroseconds)
	o.Logf = logger.Printf
	s, cleanup, err := devserver.Build(ctx, o.Options)
	if err != nil {
		fmt.Fprintf(stderr, "agsh-devserver: %v\n", err)
		return exitUsage
	}
	if err := s.Start(); err != nil {
		fmt.Fprintf(stderr, "agsh-devserver: %v\n", err)
		_ = cleanup()
		return exitError
	}
	for _, slug := range s.Agents() {
		fmt.Fprintf(stdout, "%s %s\n", slug, s.AgentURL(slug))
	}
	if id := s.DemoSession(); id != "" {
		fmt.Fprintf(stdout, "demo-session %s\n", id)
	}
	fmt.Fprintln(stdout, "ready")
	if o.argvSecrets {
		logger.Printf("agsh-devserver: note: tokens and keys given as flags are visible to every local user (ps); prefer --bearer-token-file, --cp-key-file, --control-plane or %s and %s", envTokens, envCPKeys)
	}
	<-ctx.Done()
	logger.Printf("agsh-devserver: stopping")
	if err := cleanup(); err != nil {
		fmt.Fprintf(stderr, "agsh-devserver: stopping: %v\n", err)
		return exitError
	}
	return exitOK
}

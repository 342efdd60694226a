package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/tool"
	"github.com/agsh-dev/agsh/internal/iostreams"
)

// TestMain lets testscript run this test binary as the real agsh: each
// `exec agsh …` in a script is a separate process entering Main() exactly as
// the installed binary does.
//
// With AGSH_TEST_AS_AGSH=1 in its environment the test binary is agsh
// itself, for tests that drive the process directly (signals, timing).
func TestMain(m *testing.M) {
	if os.Getenv("AGSH_TEST_AS_AGSH") == "1" {
		os.Exit(Main(os.Args[1:], iostreams.System(os.Getenv), osEnv{}))
	}
	testscript.Main(cleanupM{m}, map[string]func(){
		"agsh": func() { os.Exit(Main(os.Args[1:], iostreams.System(os.Getenv), osEnv{})) },
	})
}

// cleanupM runs the tests, then removes what the whole run shared (the
// build of builtAgsh).
type cleanupM struct{ m *testing.M }

func (c cleanupM) Run() int {
	code := c.m.Run()
	removeBuiltAgsh()
	return code
}

// TestScripts runs testdata/script/*.txtar against a real development
// deployment started on loopback for each script, over the script's own
// `repo/` folder made into a git checkout.
func TestScripts(t *testing.T) {
	requireGit(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		Setup:               setupDeployment,
		Cmds:                scriptCommands,
		RequireExplicitExec: true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") == "1",
	})
}

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is required (CI installs it in .ci/run)")
		}
		t.Skip("git not found; the end-to-end tests need it")
	}
}

// setupDeployment makes $WORK/repo a git checkout (committing what the
// script's archive put there), starts agsh-devserver over it, and sets
// EXECUTOR, PLANNER and HOST for the script. Options for the server come
// from a `devserver.flags` file in the archive, one flag per line
// (bearer-token=…, echo-tools=…, mcp=…, mount=…, cp-team=…, cp-key=…,
// clock-offset=…).
func setupDeployment(env *testscript.Env) error {
	repo := filepath.Join(env.WorkDir, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		return err
	}
	if err := gitInit(repo); err != nil {
		return err
	}
	opts := devserver.Options{Addr: "127.0.0.1:0", Root: repo}
	if b, err := os.ReadFile(filepath.Join(env.WorkDir, "devserver.flags")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			k, v, _ := strings.Cut(strings.TrimSpace(line), "=")
			switch k {
			case "bearer-token":
				opts.BearerTokens = append(opts.BearerTokens, v)
			case "echo-tools":
				if !filepath.IsAbs(v) {
					v = filepath.Join(env.WorkDir, v)
				}
				opts.EchoTools = append(opts.EchoTools, v)
			case "mcp": // NAME=COMMAND ARGS…; $TESTMCP is internal/testmcp, built for the script
				if strings.Contains(v, "$TESTMCP") {
					bin, err := buildTestMCP(env.WorkDir)
					if err != nil {
						return err
					}
					v = strings.ReplaceAll(v, "$TESTMCP", bin)
				}
				opts.MCP = append(opts.MCP, v)
			case "clock-offset": // the deployment's clock, off the real one (status_degraded.txtar)
				d, err := time.ParseDuration(v)
				if err != nil {
					return err
				}
				opts.ClockOffset = d
			case "mount":
				p, dir, _ := strings.Cut(v, ":")
				opts.Mounts = append(opts.Mounts, tool.Mount{Path: p, Dir: filepath.Join(env.WorkDir, dir)})
			case "cp-team": // the control-plane mode (production*.txtar)
				t, err := devserver.ParseTeamFlag(v)
				if err != nil {
					return err
				}
				opts.ControlPlane.Teams = append(opts.ControlPlane.Teams, t)
			case "cp-key":
				k, err := devserver.ParseKeyFlag(v)
				if err != nil {
					return err
				}
				opts.ControlPlane.Keys = append(opts.ControlPlane.Keys, k)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, stop, err := devserver.Build(ctx, opts)
	if err != nil {
		cancel()
		return err
	}
	if err := srv.Start(); err != nil {
		cancel()
		stop()
		return err
	}
	env.Defer(func() {
		srv.Close()
		stop()
		cancel()
	})
	env.Setenv("HOST", srv.URL())
	env.Setenv("EXECUTOR", srv.AgentURL("executor"))
	env.Setenv("PLANNER", srv.AgentURL("planner"))
	env.Setenv("AGENT_SHELL_TARGET", "")
	env.Setenv("NO_COLOR", "")
	env.Setenv("COLUMNS", "80")
	env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
	env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, "state"))
	return nil
}

func gitInit(dir string) error {
	cmds := [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.email=e2e@agsh.invalid", "-c", "user.name=agsh e2e", "commit", "-q", "--allow-empty", "-m", "initial"},
	}
	for _, c := range cmds {
		cmd := exec.Command("git", append([]string{"-C", dir}, c...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", c, err, out)
		}
	}
	return nil
}

// scriptCommands are the test-only commands scripts use to drive the
// development deployment's dev routes.
var scriptCommands = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// status N COMMAND ARGS…: run the command (like exec) and require exit
	// status N; its stdout and stderr are then checked as usual.
	"status": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 {
			ts.Fatalf("usage: status N command [args...]")
		}
		want, err := strconv.Atoi(args[0])
		ts.Check(err)
		err = ts.Exec(args[1], args[2:]...)
		got := 0
		if err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				ts.Fatalf("%s: %v", args[1], err)
			}
			got = ee.ExitCode()
		}
		if got != want {
			ts.Fatalf("%s exited %d, want %d", args[1], got, want)
		}
	},
	// post URL JSON [VAR]: POST the JSON; with VAR, set $VAR to the answer's
	// sessionId.
	"post": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) < 2 {
			ts.Fatalf("usage: post URL JSON [VAR]")
		}
		body := postJSON(ts, http.MethodPost, args[0], args[1], neg)
		if len(args) > 2 {
			id := jsonField(body, "sessionId")
			if id == "" {
				ts.Fatalf("no sessionId in %s", body)
			}
			ts.Setenv(args[2], id)
		}
	},
	// jsonvar FILE KEY VAR: set $VAR to the first string member KEY of
	// FILE (stdout or stderr: the last command's).
	"jsonvar": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 3 {
			ts.Fatalf("usage: jsonvar FILE KEY VAR")
		}
		text := strings.ReplaceAll(ts.ReadFile(args[0]), `": "`, `":"`)
		v := jsonField(text, args[1])
		if v == "" {
			ts.Fatalf("no %q in %s:\n%s", args[1], args[0], text)
		}
		ts.Setenv(args[2], v)
	},
	// waitsession URL ID STATUS: poll URL/v1/sessions until session ID's
	// row has STATUS (waiting_approval, running, waiting), for at most 30 s
	// (a hang detector, not a timing assertion).
	"waitsession": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 3 {
			ts.Fatalf("usage: waitsession URL ID STATUS")
		}
		want := `"sessionId":"` + args[1] + `"`
		deadline := time.Now().Add(30 * time.Second)
		for {
			body := postJSON(ts, http.MethodGet, args[0]+"/v1/sessions", "", false)
			for _, row := range strings.Split(body, "},{") {
				if strings.Contains(row, want) && strings.Contains(row, `"status":"`+args[2]+`"`) {
					return
				}
			}
			if time.Now().After(deadline) {
				ts.Fatalf("session %s never had status %s: %s", args[1], args[2], body)
			}
			time.Sleep(20 * time.Millisecond)
		}
	},
	// delete URL: DELETE it.
	"delete": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: delete URL")
		}
		postJSON(ts, http.MethodDelete, args[0], "", neg)
	},
	// crlf FILE: turn every LF of FILE into CRLF.
	"crlf": func(ts *testscript.TestScript, neg bool, args []string) {
		b, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")), 0o644))
	},
	// trimnl FILE: remove FILE's final newline.
	"trimnl": func(ts *testscript.TestScript, neg bool, args []string) {
		b, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), bytes.TrimSuffix(b, []byte("\n")), 0o644))
	},
	// modify FILE TEXT: append TEXT and a newline to FILE (to make a diff).
	"modify": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: modify FILE TEXT")
		}
		f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_APPEND|os.O_WRONLY, 0)
		ts.Check(err)
		_, err = io.WriteString(f, args[1]+"\n")
		ts.Check(err)
		ts.Check(f.Close())
	},
}

func postJSON(ts *testscript.TestScript, method, url, body string, neg bool) string {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	ts.Check(err)
	req.Header.Set("Content-Type", "application/json")
	if tok := ts.Getenv("DEV_TOKEN"); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Do(req)
	ts.Check(err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	ok := resp.StatusCode/100 == 2
	if ok == neg {
		ts.Fatalf("%s %s: %s: %s", method, url, resp.Status, bytes.TrimSpace(b))
	}
	return string(b)
}

func jsonField(body, key string) string {
	i := strings.Index(body, `"`+key+`":"`)
	if i < 0 {
		return ""
	}
	rest := body[i+len(key)+4:]
	j := strings.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return rest[:j]
}

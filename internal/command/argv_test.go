package command_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/generated"
	"github.com/agsh-dev/agsh/generated/inputgen"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/replcomp"
	"github.com/agsh-dev/agsh/interp/syntax"
)

// devCommands are the commands of the development deployment's tools
// (the curated file tools among them), built from their live details.
func devCommands(t *testing.T) []*command.Command {
	t.Helper()
	s, cleanup, err := devserver.Build(context.Background(), devserver.Options{Root: t.TempDir(), Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cleanup() })
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	c, err := catalog.New(s.URL()+"/executor", catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tools, err := c.Tools(ctx, catalog.Binding{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*command.Command
	for _, e := range tools {
		d, err := c.Tool(ctx, e.Name, catalog.Binding{})
		if err != nil {
			t.Fatal(err)
		}
		cmd, err := command.New(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, cmd)
	}
	return out
}

// sends reads line as the shell and one-shot agsh do and asserts that it
// sends input (or, written as --input-json, holds it).
func sends(t *testing.T, cmd *command.Command, input json.RawMessage, line string, inputJSON bool) {
	t.Helper()
	s, err := syntax.Parse(line)
	if err != nil || len(s.Lists) != 1 || len(s.Lists[0].Pipelines) != 1 || len(s.Lists[0].Pipelines[0].Commands) != 1 {
		t.Fatalf("%s: the shell cannot read %q as one command (%v)", input, line, err)
	}
	words := s.Lists[0].Pipelines[0].Commands[0].Args()
	if words[0] != cmd.Name {
		t.Fatalf("%q names %q", line, words[0])
	}
	if inputJSON {
		if len(words) != 3 || words[1] != generated.InputJSONOption || !generated.EqualJSON([]byte(words[2]), input) {
			t.Fatalf("%s: %q is not its --input-json", input, line)
		}
		return
	}
	// In the shell: --output is agsh's, the rest the command's.
	shell := command.ScanWords(words[1:])
	// One-shot: agsh's options anywhere before "--", the command's words.
	one := command.Scan(words)
	if one.Err != nil || one.Name != cmd.Name || len(one.Given) > 0 || len(shell.Given) > 0 {
		t.Fatalf("%s: %q gives agsh options (%v, %v, %v)", input, line, one.Err, one.Given, shell.Given)
	}
	for _, args := range [][]string{shell.Args, one.Args} {
		call, err := cmd.Parse(args)
		if err != nil {
			t.Fatalf("%s: %q: %v", input, line, err)
		}
		if call.Parsed.Help || !generated.EqualJSON(call.Input, input) {
			t.Fatalf("%s: %q sends %s", input, line, call.Input)
		}
	}
}

func TestCommandLineCurated(t *testing.T) {
	t.Parallel()
	cmds := map[string]*command.Command{}
	for _, c := range devCommands(t) {
		cmds[c.Name] = c
	}
	tests := []struct {
		cmd, input, line string
		inputJSON        bool
	}{
		{"read", `{"path":"/repo/README.md"}`, `read /repo/README.md`, false},
		{"read", `{"path":"/repo/a b.txt","offset":3,"limit":10}`, `read --offset=3 --limit=10 '/repo/a b.txt'`, false},
		{"read", `{"path":"-odd"}`, `read -- -odd`, false},
		{"read", `{"path":"--output"}`, `read -- --output`, false},
		{"read", `{"limit":3}`, `read --input-json '{"limit":3}'`, true},
		{"read", `{"path":7}`, `read --input-json '{"path":7}'`, true},
		{"grep", `{"pattern":"TODO","path":"/repo"}`, `grep TODO /repo`, false},
		{"grep", `{"pattern":"-e","-i":true}`, `grep -i -- -e`, false},
		{"grep", `{"pattern":"x","-A":2,"output_mode":"content"}`, `grep --output-mode=content -A 2 x`, false},
		{"grep", `{"path":"/repo"}`, `grep --input-json '{"path":"/repo"}'`, true},
		{"ls", `{"target_directory":"/repo"}`, `ls /repo`, false},
		{"ls", `{}`, `ls --input-json '{}'`, true}, // ls alone would send its default path
		{"glob", `{"glob_pattern":"*.go"}`, `glob '*.go'`, false},
		{"glob", `{"glob_pattern":"*.go","target_directory":"/repo/cmd"}`, `glob '*.go' /repo/cmd`, false},
		{"glob", `{"target_directory":"/repo/cmd"}`, `glob --input-json '{"target_directory":"/repo/cmd"}'`, true},
	}
	for _, tt := range tests {
		cmd := cmds[tt.cmd]
		if cmd == nil {
			t.Fatalf("no %s", tt.cmd)
		}
		line, inJSON, err := cmd.CommandLine(json.RawMessage(tt.input))
		if err != nil {
			t.Fatal(err)
		}
		if line != tt.line || inJSON != tt.inputJSON {
			t.Errorf("%s %s:\n got %s (%v)\nwant %s", tt.cmd, tt.input, line, inJSON, tt.line)
			continue
		}
		sends(t, cmd, json.RawMessage(tt.input), line, inJSON)
	}
}

// Every tool of the development deployment, curated or generated: inputs
// of the mapping's domain and out of it, written and read back as the
// shell and one-shot agsh read them.
func TestCommandLineRoundTrip(t *testing.T) {
	t.Parallel()
	extra := []func(map[string]any){
		func(m map[string]any) {},
		func(m map[string]any) { m["zz_undeclared"] = true },
		func(m map[string]any) {
			for k, v := range m {
				if _, ok := v.(string); ok {
					m[k] = "-" + v.(string) + " 'q' \"d\" $x"
				}
			}
		},
		func(m map[string]any) {
			for k := range m {
				m[k] = nil
				return
			}
		},
	}
	var flags, asJSON int
	for i, cmd := range devCommands(t) {
		for j := 0; j < 8; j++ {
			in, err := inputgen.Generate(cmd.Detail.InputSchema, rand.New(rand.NewPCG(uint64(i), uint64(j))))
			if err != nil {
				continue
			}
			for _, mut := range extra {
				data, _ := json.Marshal(in)
				var m map[string]any
				_ = json.Unmarshal(data, &m)
				mut(m)
				raw, _ := json.Marshal(m)
				line, inJSON, err := cmd.CommandLine(raw)
				if err != nil {
					t.Fatalf("%s: %v", cmd.Name, err)
				}
				if inJSON {
					asJSON++
				} else {
					flags++
				}
				if strings.ContainsFunc(line, generated.Hazard) {
					t.Fatalf("%s: %q", cmd.Name, line)
				}
				sends(t, cmd, raw, line, inJSON)
			}
		}
	}
	t.Logf("%d as flags and operands, %d as --input-json", flags, asJSON)
}

// In the REPL, Tab completes a console word's call id from the bound
// session's record and its session from the listing; without Records
// (a host shell's Tab) neither is asked for.
func TestCompleteConsoleOperands(t *testing.T) {
	t.Parallel()
	s, cleanup, err := devserver.Build(context.Background(), devserver.Options{Root: t.TempDir(), Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cleanup() })
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	target := s.URL() + "/executor"
	resp, err := http.Post(target+"/v1/session", "application/json",
		strings.NewReader(`{"message":"call ls {\"target_directory\": \"/repo\"}\nsay done"}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ SessionID string }
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	c, _ := catalog.New(target, catalog.Options{})
	ctx := context.Background()
	var callID string
	for deadline := time.Now().Add(30 * time.Second); callID == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		_ = c.Record(ctx, created.SessionID, func(ev *catalog.Event) error {
			if f := ev.Fields(); ev.Type == catalog.EventActionResult {
				callID = f.CallID
			}
			return nil
		}, nil)
	}
	run := catalog.NewRun(c, catalog.Binding{SessionID: created.SessionID})
	tools, _ := run.Tools(ctx)
	comp := replcomp.NewCompleter(run, command.NewTable(tools))
	ask := func(line string) []string {
		got, err := comp.Complete(ctx, line, len(line))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, k := range got.Candidates {
			out = append(out, k.Text)
		}
		return out
	}
	if got := ask(":replay call_"); got != nil {
		t.Errorf("without Records: %q", got)
	}
	comp.Records = true
	if got := ask(":replay call_"); len(got) != 1 || got[0] != callID {
		t.Errorf("call ids %q, want %s", got, callID)
	}
	if got := ask(":trace ses_"); len(got) != 1 || got[0] != created.SessionID {
		t.Errorf("sessions %q", got)
	}
	if got := ask(":trace --tool ls"); len(got) != 1 || got[0] != "ls" {
		t.Errorf("--tool %q", got)
	}
	if got := ask(":export --as "); strings.Join(got, " ") != "script md json" {
		t.Errorf("--as %q", got)
	}
}

package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/generated"
)

// recordCalls are the calls of a session's record (its actions.requested
// events), in order, read straight from the deployment.
func recordCalls(t *testing.T, target, id string) []devCall {
	t.Helper()
	resp, err := http.Get(target + "/v1/session/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a struct {
		Events []struct {
			Type string
			Data struct {
				Calls []devCall
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	var calls []devCall
	for _, ev := range a.Events {
		if ev.Type == "actions.requested" {
			calls = append(calls, ev.Data.Calls...)
		}
	}
	return calls
}

// A session's record exported as a script and replayed with agsh < script
// against a fresh development deployment over a copy of the same
// workspace: the deployment receives the same calls, in the same order,
// with JSON-equal inputs, the write (approved in the original) included.
func TestExportScriptReplays(t *testing.T) {
	t.Parallel()
	srv, _ := startRepoDeployment(t, consoleTree)
	target := srv.AgentURL("executor")
	steps := strings.Join([]string{
		`call read {"path": "/repo/notes/a file.txt", "limit": 2, "offset": 1}`,
		`call grep {"pattern": "it's \"x\"", "path": "/repo/notes", "-i": true, "output_mode": "content"}`,
		`call glob {"glob_pattern": "*.c", "target_directory": "/repo/src"}`,
		`call read {"path": "/repo/src/$weird name.c"}`,
		`call grep {"pattern": "@notes --yes \u202e", "path": "/repo"}`,
		`call report_change_issue {"title": "Flaky 'test'", "severity": "high", "files": ["a.go", "b b.go"]}`,
		`say Looked at the notes: two TODOs.`,
	}, "\n")
	id := createSession(t, target, steps)
	waitState(t, target, id, "waiting_approval")
	post(t, target+"/v1/session/"+id+"/approvals/"+parkedCall(t, target, id), `{"decision":"approve"}`)
	waitState(t, target, id, "waiting")
	original := recordCalls(t, target, id)
	if len(original) != 6 {
		t.Fatalf("the record holds %d calls: %+v", len(original), original)
	}

	script, status := runAgsh(t, target, ":export", id, "--as", "script")
	if status != 0 {
		t.Fatalf(":export exited %d:\n%s", status, script)
	}
	for _, w := range []string{"# Writes are calls like the others: the write guard applies when this runs",
		"#   approved (the record does not say by whom)", "# model: Looked at the notes: two TODOs."} {
		if !strings.Contains(script, w) {
			t.Errorf("the script lacks %q:\n%s", w, script)
		}
	}

	fresh, _ := startRepoDeployment(t, consoleTree)
	ft := fresh.AgentURL("executor")
	bound := createSession(t, ft, "say ready") // the latest session: the script binds it
	waitState(t, ft, bound, "waiting")
	// The write guard applies: unattended, the script is refused at its
	// check (it writes), before any call.
	cmd := agshCommand("--target", ft)
	cmd.Stdin = strings.NewReader(script)
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 2 || !strings.Contains(string(out), "--yes") {
		t.Errorf("agsh < script without --yes: exit %d\n%s", cmd.ProcessState.ExitCode(), out)
	}
	if got := devCalls(t, fresh.URL(), bound); len(got) != 0 {
		t.Fatalf("the refused script made calls: %+v", got)
	}
	cmd = agshCommand("--target", ft, "--yes")
	cmd.Stdin = strings.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("agsh < script: %v\n%s\nscript:\n%s", err, out, script)
	}
	got := devCalls(t, fresh.URL(), bound)
	if len(got) != len(original) {
		t.Fatalf("the fresh deployment received %d calls, the record has %d:\n%+v\nscript:\n%s", len(got), len(original), got, script)
	}
	for i := range original {
		if got[i].ToolName != original[i].ToolName || !generated.EqualJSON(got[i].Input, original[i].Input) {
			t.Errorf("call %d: received %s %s, the record has %s %s", i, got[i].ToolName, got[i].Input,
				original[i].ToolName, original[i].Input)
		}
	}
	t.Logf("script:\n%s", script)
}

// A record (armed on the events route) whose calls name tools that are no
// plain command word: :replay prints no line (one message, exit 3; with
// --output json the call, its line empty), and :export --as script leaves
// each out with a comment saying why, and exits 3.
func TestReplayToolNameNotAWord(t *testing.T) {
	t.Parallel()
	srv, _ := startRepoDeployment(t, consoleTree)
	target := srv.AgentURL("executor")
	id := createSession(t, target, `call read {"path": "/repo/README.md"}`)
	waitState(t, target, id, "waiting")
	names := map[string]string{
		"call_stop": ":stop", "call_sess": "--session=ses_x", "call_yes": "--yes", "call_h": "-h", "call_help": "help",
		"call_exit": "exit", "call_semi": "read;:stop", "call_ctl": "read\u001b[2J", "call_bidi": "re\u202ead",
	}
	var calls []string
	for callID, name := range names {
		n, _ := json.Marshal(name)
		calls = append(calls, `{"callId":"`+callID+`","toolName":`+string(n)+`,"input":{"path":"/repo/README.md"}}`)
	}
	calls = append(calls, `{"callId":"call_read","toolName":"read","input":{"path":"/repo/README.md"}}`)
	body := `{"ok":true,"events":[{"index":0,"type":"turn.started","data":{"turnId":"t","source":"message"},"at":"2026-01-02T03:04:05Z"},` +
		`{"index":1,"type":"actions.requested","data":{"turnId":"t","calls":[` + strings.Join(calls, ",") + `]},"at":"2026-01-02T03:04:06Z"}]}`
	post(t, target+"/v1/dev/faults", `{"route":"GET /v1/session/`+id+`/events","count":1000,"status":200,"body":`+body+`}`)

	for callID, name := range names {
		cmd := agshCommand("--target", target, ":replay", callID, id)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		_ = cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != 3 || stdout.Len() != 0 ||
			!strings.Contains(stderr.String(), "call "+callID+" has no command line: its tool name") {
			t.Errorf(":replay of %q: exit %d, stdout %q, stderr %q", name, code, stdout.String(), stderr.String())
		}
	}
	cmd := agshCommand("--target", target, ":replay", "call_stop", id, "--output", "json")
	out, _ := cmd.Output()
	var doc struct{ CallID, Tool, Line, Refused string }
	if cmd.ProcessState.ExitCode() != 3 || json.Unmarshal(out, &doc) != nil || doc.Tool != ":stop" || doc.Line != "" ||
		!strings.Contains(doc.Refused, "spelled like a meta command") {
		t.Errorf(":replay --output json: exit %d, %s", cmd.ProcessState.ExitCode(), out)
	}
	// The plain name still replays.
	if line, status := runAgsh(t, target, ":replay", "call_read", id); status != 0 || line != "read /repo/README.md\n" {
		t.Errorf(":replay call_read: %d %q", status, line)
	}

	cmd = agshCommand("--target", target, ":export", id, "--as", "script")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	script := stdout.String()
	if cmd.ProcessState.ExitCode() != 3 || !strings.Contains(stderr.String(), "9 of the 10 calls of the record have no command line") {
		t.Errorf(":export: exit %d, stderr %q", cmd.ProcessState.ExitCode(), stderr.String())
	}
	var lines []string
	for _, l := range strings.Split(script, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || lines[0] != "read /repo/README.md" {
		t.Errorf("the script's command lines: %q\n%s", lines, script)
	}
	for callID := range names {
		if !regexp.MustCompile(`(?m)^# left out: call ` + callID + `: its tool name `).MatchString(script) {
			t.Errorf("no left-out comment for %s:\n%s", callID, script)
		}
	}
	// The script, run, calls read once and nothing else.
	cmd = agshCommand("--target", target, "--session", id)
	cmd.Stdin = strings.NewReader(script)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
		t.Errorf("the script: %v", err)
	}
	if got := devCalls(t, srv.URL(), id); len(got) != 2 || got[1].ToolName != "read" {
		t.Errorf("the script's calls: %+v", got)
	}
}

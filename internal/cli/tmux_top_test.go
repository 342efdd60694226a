package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver"
)

// startDemoDeployment starts a development deployment with n demo sessions
// (agsh-devserver --demo-sessions n, as make demo does) over a fresh git
// checkout.
func startDemoDeployment(t *testing.T, n int) *devserver.Server {
	t.Helper()
	requireGit(t)
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "README.md"), []byte("# demo\nline 2\nline 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := gitInit(repo); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, stop, err := devserver.Build(ctx, devserver.Options{Addr: "127.0.0.1:0", Root: repo, DemoSessions: n})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(); stop(); cancel() })
	return srv
}

// listedSession is a row of the deployment's listing, read by the test.
type listedSession struct {
	SessionID, Status, Title, UpdatedAt, ContinuationToken string
	Running                                                bool
}

func listSessions(t *testing.T, exe string) []listedSession {
	t.Helper()
	resp, err := http.Get(exe + "/v1/sessions")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a struct{ Sessions []listedSession }
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	return a.Sessions
}

func findSession(t *testing.T, exe, id string) listedSession {
	t.Helper()
	for _, s := range listSessions(t, exe) {
		if s.SessionID == id {
			return s
		}
	}
	t.Fatalf("session %s is not listed", id)
	return listedSession{}
}

// parkedAt is when session id's parked call asked: its approval.requested
// event's time.
func parkedAt(t *testing.T, exe, id string) string {
	t.Helper()
	resp, err := http.Get(exe + "/v1/session/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a struct{ Events []struct{ Type, At string } }
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	for _, e := range a.Events {
		if e.Type == "approval.requested" {
			return e.At
		}
	}
	t.Fatalf("session %s: no approval.requested", id)
	return ""
}

// shownID is how :top's SESSION column shows an id at width w (cut with
// "…" below 100 columns).
func shownID(id string, w int) string {
	if w < 100 && len(id) > 12 {
		return id[:12] + "…"
	}
	return id
}

// rowOf is the screen line of the session shown as sid ("" when none).
func rowOf(scr, sid string) string {
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, sid) {
			return l
		}
	}
	return ""
}

// listRows are the screen's rows of sessions: the lines between the column
// heads (the second line) and the status line and footer (the last two).
func listRows(scr string) []string {
	lines := strings.Split(strings.TrimSuffix(scr, "\n"), "\n")
	if len(lines) < 5 {
		return nil
	}
	var rows []string
	for _, l := range lines[2 : len(lines)-2] {
		if strings.Contains(l, " ses_") {
			rows = append(rows, l)
		}
	}
	return rows
}

// squeeze is text without its spaces and line breaks: a question wrapped
// to the screen compared with the text it wraps (tmux drops a line's
// trailing blanks).
func squeeze(s string) string { return strings.Join(strings.Fields(s), "") }

// keyUntil types key until the screen shows what ok looks for: a question's
// first moment drops keys (typed ahead, they never decide), so a key the
// view dropped is typed again; a hang detector bounds it.
func (s *tmuxSession) keyUntil(key, what string, ok func(string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(tmuxDeadline)
	for {
		s.keys(key)
		for again := time.Now().Add(time.Second); time.Now().Before(again); time.Sleep(50 * time.Millisecond) {
			if scr := s.screen(); ok(scr) {
				return scr
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("after %s the screen never showed %s:\n%s", key, what, s.screen())
		}
	}
}

func (s *tmuxSession) format(f string) string {
	return strings.TrimSpace(s.tmux("display-message", "-p", "-t", s.name, f))
}

// TestTopInTmux drives :top in a real terminal, 80×24 and 200×50, against
// the development deployment with 30 demo sessions in mixed states: the
// oldest parked approval is the first row; a shows the call's whole
// arguments and the session id, n leaves it parked, y approves it and its
// row's state changes with the one refresh the action starts (the interval
// is an hour); / filters; s stops a sleeping turn; m sends a message that
// the record shows; Enter shows the record live (an event sent meanwhile
// appears); a resize redraws at the new size; q leaves the terminal as it
// was (the alternate screen left, the cursor shown).
func TestTopInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the runs through a real terminal")
	}
	requireTmux(t)
	for _, size := range []struct{ w, h, w2, h2 int }{{80, 24, 120, 30}, {200, 50, 80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			testTopInTmux(t, size.w, size.h, size.w2, size.h2)
		})
	}
}

func testTopInTmux(t *testing.T, w, h, w2, h2 int) {
	exe := startDemoDeployment(t, 30).AgentURL("executor")
	var approvals []listedSession
	for _, s := range listSessions(t, exe) {
		if s.Status == "waiting_approval" {
			approvals = append(approvals, s)
		}
	}
	if len(approvals) != 6 {
		t.Fatalf("the demo's 30 sessions have %d parked approvals, want 6", len(approvals))
	}
	// The oldest parked call first (its approval.requested; ties by id).
	for i := range approvals {
		approvals[i].UpdatedAt = parkedAt(t, exe, approvals[i].SessionID)
	}
	sort.Slice(approvals, func(i, j int) bool {
		a, b := approvals[i], approvals[j]
		return a.UpdatedAt < b.UpdatedAt || a.UpdatedAt == b.UpdatedAt && a.SessionID < b.SessionID
	})
	oldest := approvals[0]

	env := []string{"AGENT_SHELL_TARGET=" + exe, "HOME=" + t.TempDir(), "TZ=UTC"}
	s := startTmuxLineSize(t, w, h, env, `echo before top; "$AGSH" :top --interval 1h`)
	scr := s.waitUntil("the sessions", func(scr string) bool { return len(listRows(scr)) > 0 })
	if s.format("#{alternate_on}") != "1" {
		t.Errorf(":top is not on the alternate screen")
	}
	for i, l := range strings.Split(scr, "\n") {
		if n := len([]rune(l)); n > w {
			t.Errorf("line %d is %d cells wide, over %d:\n%s", i, n, w, scr)
		}
	}
	rows := listRows(scr)
	if first := rows[0]; !strings.HasPrefix(first, "> APPROVAL") || !strings.Contains(first, shownID(oldest.SessionID, w)) {
		t.Fatalf("the first row is not the oldest parked approval (%s %q):\n%s", oldest.SessionID, oldest.Title, scr)
	}
	if !strings.Contains(strings.Split(scr, "\n")[0], "31 sessions · 6 approval") {
		t.Errorf("header:\n%s", scr)
	}
	want := regexp.MustCompile(`\(demo (\d+)\)$`).FindStringSubmatch(oldest.Title)
	if want == nil {
		t.Fatalf("title %q", oldest.Title)
	}
	var line string
	switch {
	case strings.HasPrefix(oldest.Title, "File the flaky billing test"):
		line = "report_change_issue --title='Flaky test in billing (demo " + want[1] + ")' --severity=high --files=billing/charge_test.go"
	case strings.HasPrefix(oldest.Title, "Report the green build"):
		line = "report_change_succeeded --summary='demo " + want[1] + ": every check passed'"
	default:
		t.Fatalf("no call known for %q", oldest.Title)
	}

	// a: the call's whole arguments and the session id, then n: nothing sent.
	question := func() string {
		scr := s.waitFor("Approve? [y/N]")
		i := strings.Index(scr, "Approve call ")
		j := strings.Index(scr, "Approve? [y/N]")
		if i < 0 || j < i {
			t.Fatalf("no question:\n%s", scr)
		}
		q := squeeze(scr[i:j])
		for _, part := range []string{"ofsession" + oldest.SessionID + ",", squeeze(line)} {
			if !strings.Contains(q, part) {
				t.Errorf("the question lacks %q:\n%s", part, scr)
			}
		}
		return scr
	}
	s.keys("a")
	question()
	s.keyUntil("n", "the declined question", func(scr string) bool { return strings.Contains(scr, "declined; nothing was sent") })
	if got := findSession(t, exe, oldest.SessionID); got.Status != "waiting_approval" {
		t.Fatalf("after n the session is %s, not parked", got.Status)
	}

	// a, y: approved; the row's state changes with the refresh the action
	// starts (the next by the clock is an hour away).
	s.keys("a")
	question()
	s.keyUntil("y", "the approval sent", func(scr string) bool { return strings.Contains(scr, "approved call ") })
	s.waitUntil("the approved row", func(scr string) bool {
		r := rowOf(scr, shownID(oldest.SessionID, w))
		return strings.Contains(strings.Split(scr, "\n")[0], "· 5 approval") && r != "" && !strings.Contains(r, "APPROVAL")
	})
	if st := findSession(t, exe, oldest.SessionID).Status; st == "waiting_approval" {
		t.Errorf("the deployment still has the call parked")
	}

	// /: a filter by text; s stops the sleeping turn it keeps first.
	s.keys("/", "migration")
	scr = s.waitUntil("the rows /migration keeps", func(scr string) bool {
		return strings.Contains(scr, "/migration█") && len(listRows(scr)) < 10
	})
	rows = listRows(scr)
	if len(rows) != 3 {
		t.Errorf("/migration keeps %d rows, want the 3 sleeping demo turns:\n%s", len(rows), scr)
	}
	for _, r := range rows {
		if !strings.Contains(r, "Think about") || !strings.Contains(r, "running") {
			t.Errorf("the filter kept %q", r)
		}
	}
	s.keys("Enter", "s")
	scr = s.waitFor("? [y/N]")
	m := regexp.MustCompile(`Stop the running turn of session (ses_[0-9a-f]+)\? \[y/N\]`).FindStringSubmatch(scr)
	if m == nil {
		t.Fatalf("no stop question:\n%s", scr)
	}
	sleeper := m[1]
	s.keyUntil("y", "the stop sent", func(scr string) bool { return strings.Contains(scr, "stopped the running turn of "+sleeper) })
	waitState(t, exe, sleeper, "waiting")
	// The stop's own refresh may list it before the deployment ended the
	// turn: r refreshes again.
	s.keyUntil("r", "the stopped row", func(scr string) bool {
		return strings.Contains(rowOf(scr, shownID(sleeper, w)), "stopped")
	})

	// m: a message to the operator's own session, then its record, live.
	s.keys("Escape")
	s.waitUntil("the filter cleared", func(scr string) bool { return !strings.Contains(scr, "match /") })
	s.keys("/", "your session")
	s.waitFor("/your session█")
	s.keys("Enter")
	scr = s.waitUntil("the row /your session keeps", func(scr string) bool {
		return !strings.Contains(scr, "█") && len(listRows(scr)) < 10
	})
	if rows := listRows(scr); len(rows) != 1 || !strings.HasPrefix(rows[0], ">") {
		t.Fatalf("/your session:\n%s", scr)
	}
	s.keys("m")
	s.waitFor("say to ")
	s.keys("say hello from top", "Enter")
	s.waitFor("sent the message to ")
	s.keys("Enter")
	s.waitFor("record of ")
	scr = s.waitFor("hello from top")
	own := regexp.MustCompile(`record of (ses_[0-9a-f]+), live`).FindStringSubmatch(scr)
	if own == nil || findSession(t, exe, own[1]).Title != "your session (demo)" {
		t.Fatalf("the record open is not the operator's own session's:\n%s", scr)
	}
	waitState(t, exe, own[1], "waiting")
	body, _ := json.Marshal(map[string]string{"message": "say late event", "continuationToken": findSession(t, exe, own[1]).ContinuationToken})
	resp, err := http.Post(exe+"/v1/session", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("follow-up: %s", resp.Status)
	}
	s.waitFor("late event")

	// Esc: the list again; a resize redraws it at the new size.
	s.keys("Escape")
	s.waitFor("j/k move")
	s.tmux("resize-window", "-t", s.name, "-x", fmt.Sprint(w2), "-y", fmt.Sprint(h2))
	scr = s.waitUntil("the list redrawn at the new size", func(scr string) bool {
		lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
		foot := lines[len(lines)-1]
		// The footer keeps "? keys · q quit" at every width (the keys
		// before them give way): a footer cut short is a frame drawn at
		// the old width.
		return len(lines) == h2 && strings.HasPrefix(foot, "j/k move") && strings.HasSuffix(foot, "· ? keys · q quit")
	})
	for i, l := range strings.Split(scr, "\n") {
		if n := len([]rune(l)); n > w2 {
			t.Errorf("after the resize, line %d is %d cells wide, over %d:\n%s", i, n, w2, scr)
		}
	}

	// q: the terminal as it was.
	s.keys("q")
	scr = s.waitFor("[exited 0]")
	if !strings.Contains(scr, "before top") {
		t.Errorf("the screen before :top is not back:\n%s", scr)
	}
	if a, c := s.format("#{alternate_on}"), s.format("#{cursor_flag}"); a != "0" || c != "1" {
		t.Errorf("after q: alternate screen %s (want 0), cursor shown %s (want 1)", a, c)
	}
}

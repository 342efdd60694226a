package devserver

import (
	"fmt"
	"strings"
	"time"
)

// Demo sessions (docs/devserver.md#demo-sessions): --demo-sessions N starts
// N sessions of the scripted agent at once, in a mix of states, so that a
// fleet view (agsh :top) has something to show: calls parked on approvals,
// failed turns, turns sleeping long, busy turns calling tools every few
// seconds, a turn queued behind a sleeping one, a stopped turn, finished
// task sessions and idle chats. They are ordinary sessions: their records,
// approvals, interrupts and follow-ups work as any other's.

// MaxDemoSessions bounds --demo-sessions: the sessions one principal may
// keep.
const MaxDemoSessions = 1000

// demoKind is one kind of demo session: its title and the steps of its
// first turn; mode task, a follow-up queued behind it, or an interrupt at
// once.
type demoKind struct {
	title, steps string
	task         bool
	queue        string // a follow-up message queued behind the first turn
	stop         bool   // interrupted at once
}

// busySteps are a busy turn's: a call every three seconds for ten minutes.
var busySteps = strings.Repeat("call ls {\"target_directory\": \"/repo\"}\nsleep 3s\n"+
	"call read {\"path\": \"/repo/README.md\", \"limit\": 3}\nsleep 3s\n", 100) + "say done looking"

var demoKinds = []demoKind{
	{title: "File the flaky billing test", steps: "say the billing test fails one run in five\n" +
		"call report_change_issue {\"title\": \"Flaky test in billing (demo %d)\", \"severity\": \"high\", \"files\": [\"billing/charge_test.go\"]}\n" +
		"say filed"},
	{title: "Check the release notes", steps: busySteps},
	{title: "Run the nightly checks", steps: "call ls {\"target_directory\": \"/repo\"}\nfail the checks broke: 3 monitors are red (demo %d)"},
	{title: "Think about the migration", steps: "say this needs thought\nsleep 10m"},
	{title: "Summarize the README", steps: "call read {\"path\": \"/repo/README.md\", \"limit\": 5}\nsay a shell for one deployed agent", task: true},
	{title: "Report the green build", steps: "say all checks passed\n" +
		"call report_change_succeeded {\"summary\": \"demo %d: every check passed\"}\nsay reported"},
	{title: "Review the docs change", steps: "call read {\"path\": \"/repo/README.md\", \"limit\": 2}\nsay looks fine"},
	{title: "Watch the deploy", steps: "say watching\nsleep 9m", queue: "say then the next one\nsleep 1m"},
	{title: "Retry the flaky job", steps: "say retrying\nsleep 10m", stop: true},
	{title: "Lint the changed files", steps: busySteps},
}

// StartDemoSessions starts n demo sessions on agent slug, owned by the
// principal a loopback caller has (the first bearer token's when the
// server has tokens), then one idle session of the operator's own, the
// latest; it answers their ids.
func (s *Server) StartDemoSessions(slug string, n int) ([]string, error) {
	a := s.bySlug[slug]
	switch {
	case a == nil:
		return nil, fmt.Errorf("devserver: no agent %q for the demo sessions", slug)
	case n < 0 || n > MaxDemoSessions:
		return nil, fmt.Errorf("--demo-sessions: %d is not from 0 to %d", n, MaxDemoSessions)
	}
	owner := principalLocal
	if len(s.auth.principals) > 0 {
		owner = s.auth.principals[0]
	}
	ids := make([]string, 0, n+1)
	var quick []string // the sessions whose turns park or end at once
	for i := range n {
		k := demoKinds[i%len(demoKinds)]
		msg := k.steps
		if strings.Contains(msg, "%d") {
			msg = fmt.Sprintf(msg, i+1)
		}
		sc, aerr := parseScript(msg, func(name string) bool { return a.entry(name) != nil }, a.slug)
		if aerr != nil {
			return ids, fmt.Errorf("devserver: demo session %d: %s", i+1, aerr)
		}
		mode := modeChat
		if k.task {
			mode = modeTask
		}
		ses, aerr := a.sessions.create(owner, msg, fmt.Sprintf("%s (demo %d)", k.title, i+1), mode, false)
		if aerr != nil {
			return ids, fmt.Errorf("devserver: demo session %d: %s", i+1, aerr)
		}
		a.startTurn(ses.ID, a.newTurn(sourceMessage, msg, sc))
		if k.queue != "" {
			qs, _ := parseScript(k.queue, func(name string) bool { return a.entry(name) != nil }, a.slug)
			a.startTurn(ses.ID, a.newTurn(sourceFollowUp, k.queue, qs))
		}
		if k.stop {
			a.interrupt(ses.ID)
		}
		ids = append(ids, ses.ID)
		if !strings.Contains(msg, "sleep") {
			quick = append(quick, ses.ID)
		}
	}
	if n > 0 {
		// The operator's own session comes last, idle, once the demo turns
		// have parked or failed: it is the latest, so that a call bound by
		// default (the latest session) is not refused as busy.
		a.settle(quick, 5*time.Second)
		ses, aerr := a.sessions.create(owner, "hello", "your session (demo)", modeChat, false)
		if aerr != nil {
			return ids, fmt.Errorf("devserver: the demo's own session: %s", aerr)
		}
		a.startTurn(ses.ID, a.newTurn(sourceMessage, "hello", &script{plain: true}))
		a.sessions.with(ses.ID, func(s *session) bool { s.Updated = a.sessions.stamp(); return true })
		ids = append(ids, ses.ID)
		s.mu.Lock()
		s.demoOwn = ses.ID
		s.mu.Unlock()
	}
	return ids, nil
}

// DemoSession is the operator's own demo session, idle, that
// StartDemoSessions created last ("" when it started none). The demo turns
// keep calling tools, so the latest session — what a call binds to by
// default — is soon a busy one: the demo binds to this one by its id.
func (s *Server) DemoSession() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.demoOwn
}

// settle waits (at most d) until each of the sessions ids has parked a
// call or ended its turn: what changes their rows' last activity.
func (a *agent) settle(ids []string, d time.Duration) {
	deadline := time.Now().Add(d)
	for _, id := range ids {
		for time.Now().Before(deadline) {
			done := true
			a.sessions.with(id, func(s *session) bool {
				done = len(s.rs.parked) > 0 || s.rs.active == nil
				return false
			})
			if done {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

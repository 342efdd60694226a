package meta

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/console"
	"github.com/agsh-dev/agsh/internal/exitcode"
	"github.com/agsh-dev/agsh/render"
)

// MetaStatus is :status: what the run is pointed at, and whether it is
// healthy, with an exit status a health check can read
// (docs/console.md#status).
const MetaStatus = ":status"

// The rules of :status's verdict (docs/console.md#status).
const (
	// StatusParkedTooLong: a call waiting for approval longer than this
	// makes the deployment degraded.
	StatusParkedTooLong = 10 * time.Minute
	// StatusRecent is how far back a failed turn, and a connection that
	// listed tools, count.
	StatusRecent = time.Hour
	// maxStatusRecords bounds the session records one :status reads (the
	// sessions waiting for an approval first, then the most recently
	// active); maxStatusGroups the tool groups it shows and remembers;
	// maxStatusReasons the reasons it lists of each kind.
	maxStatusRecords = 16
	maxStatusGroups  = 100
	maxStatusReasons = 5
)

// StatusFacts are what :status reports of the run itself, which only the
// program knows: where its target, team and credential came from.
type StatusFacts struct {
	// Target is the target as given, TargetFrom the option or variable it
	// came from ("--target", "AGENT_SHELL_TARGET").
	Target, TargetFrom string
	// Team and TeamFrom likewise ("" for a URL target); TeamID is the team
	// a production name resolved to.
	Team, TeamFrom, TeamID string
	// CredentialFrom says where the credential sent came from ("" when none
	// is sent); CredentialLen is its length in characters, CredentialTail
	// its last four when it is at least 20 long ("" otherwise). The
	// credential itself is never here.
	CredentialFrom, CredentialTail string
	CredentialLen                  int
	// ConnectErr is why the run has no client (a production name that did
	// not resolve); the other requests are then not sent.
	ConnectErr error
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Seen and Remember are the memory of the connection groups an earlier
	// :status of the same target and credential saw listing tools; nil:
	// nothing is remembered.
	Seen     func() map[string]SeenGroup
	Remember func(map[string]SeenGroup)
}

// SeenGroup is a connection group as :status last saw it listing: how many
// tools, and when (RFC 3339).
type SeenGroup struct {
	Tools int    `json:"tools"`
	Seen  string `json:"seen"`
}

// CredentialTail is what :status may show of a credential: its last four
// characters when it is at least 20 characters long, else nothing; and its
// length in characters.
func CredentialTail(token string) (tail string, length int) {
	length = utf8.RuneCountInString(token)
	if length < 20 {
		return "", length
	}
	r := []rune(token)
	return string(r[len(r)-4:]), length
}

var statusRow = MetaCommand{Name: MetaStatus, Usage: ":status",
	Summary: "where agsh points and whether it is healthy (exit 0, 1 degraded, 4, 5)",
	Check:   noArguments(MetaStatus),
	Notes: "It shows the target and how it was chosen, the team, the credential (where it came from, its\n" +
		"length, and its last four characters only when it is at least 20 long), the agent, its\n" +
		"tools by source and the sessions, then a verdict. Degraded (exit 1): a call has waited for\n" +
		"approval for more than 10 minutes, a turn failed (not interrupted) in the last hour, or a\n" +
		"connection that listed tools in the last hour lists none now. 4: the credential was\n" +
		"refused; 5: the deployment could not be reached or answered nonsense. --output json\n" +
		"prints one object."} // Run: runStatus

// statusGroup is a tool group of the listing.
type statusGroup struct {
	Group string `json:"group"` // "" for the authored tools
	Kind  string `json:"kind"`  // authored, connection
	Tools int    `json:"tools"`
}

// statusProblem is one request that failed.
type statusProblem struct {
	What    string `json:"what"`
	Message string `json:"message"`
	Code    string `json:"code"`
	Exit    int    `json:"exit"`
}

// statusParked is a call waiting for approval.
type statusParked struct {
	SessionID     string `json:"sessionId"`
	CallID        string `json:"callId"`
	Tool          string `json:"tool"`
	At            string `json:"at,omitempty"`
	WaitedSeconds int64  `json:"waitedSeconds"`
}

// statusFailed is a session's failed turns of the last hour.
type statusFailed struct {
	SessionID string `json:"sessionId"`
	Count     int    `json:"count"`
	TurnID    string `json:"turnId,omitempty"`
	At        string `json:"at,omitempty"`
	Message   string `json:"message,omitempty"`
}

// statusStopped is a connection group that listed tools and lists none.
type statusStopped struct {
	Group    string `json:"group"`
	Tools    int    `json:"tools"`
	LastSeen string `json:"lastSeen"`
}

// statusReport is :status's value; its JSON is --output json's object.
type statusReport struct {
	Verdict string `json:"verdict"` // healthy, degraded, auth, unreachable, error
	Exit    int    `json:"exit"`
	Target  struct {
		Value    string `json:"value"`
		From     string `json:"from"`
		URL      string `json:"url,omitempty"`
		Resolved bool   `json:"resolved"` // a production name, resolved through the control plane
	} `json:"target"`
	Team *struct {
		Value string `json:"value,omitempty"`
		From  string `json:"from,omitempty"`
		ID    string `json:"id,omitempty"`
	} `json:"team"`
	Principal struct {
		Credential bool   `json:"credential"`
		From       string `json:"from,omitempty"`
		Length     int    `json:"length,omitempty"`
		Last4      string `json:"last4,omitempty"`
	} `json:"principal"`
	Agent *struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
	} `json:"agent"`
	Tools *struct {
		Total      int           `json:"total"`
		Groups     []statusGroup `json:"groups"`
		MoreGroups int           `json:"moreGroups,omitempty"`
	} `json:"tools"`
	Sessions *struct {
		Total           int `json:"total"`
		Running         int `json:"running"`
		Queued          int `json:"queued"`
		WaitingApproval int `json:"waitingApproval"`
		// RecordsRead of the Candidates whose record tells ages and failures.
		RecordsRead int `json:"recordsRead"`
		Candidates  int `json:"recordsWanted"`
	} `json:"sessions"`
	Parked   []statusParked  `json:"parked"`
	Failed   []statusFailed  `json:"failedTurns"`
	Stopped  []statusStopped `json:"stoppedConnections"`
	Problems []statusProblem `json:"problems"`
	Notes    []string        `json:"notes"`
	// Reasons are the verdict's reasons, for people.
	Reasons []string `json:"reasons"`
}

// runStatus is :status.
func runStatus(ctx context.Context, m *MetaRun, args []string) (MetaResult, error) {
	me, _ := LookupMeta(MetaStatus)
	a, err := parseMetaArgs(me, args)
	if err != nil || a.values["--help"] != "" {
		return helpResult(me, err)
	}
	r := gatherStatus(ctx, m)
	if ctx.Err() != nil {
		return MetaResult{}, ctx.Err()
	}
	if m.Format.IsData() {
		doc, _ := json.Marshal(r)
		return MetaResult{Value: render.Value{JSON: doc, IsJSON: true}, Status: r.Exit}, nil
	}
	return MetaResult{Value: render.Value{Text: r.text(), Final: true}, Status: r.Exit}, nil
}

// gatherStatus asks the deployment what :status shows: the agent document,
// the listing and the sessions at once, then the records of the sessions
// that can say how long a call has waited or whether a turn failed.
func gatherStatus(ctx context.Context, m *MetaRun) *statusReport {
	f := m.Status
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	r := &statusReport{Parked: []statusParked{}, Failed: []statusFailed{}, Stopped: []statusStopped{},
		Problems: []statusProblem{}, Notes: []string{}, Reasons: []string{}}
	r.Target.Value, r.Target.From = f.Target, f.TargetFrom
	if t, err := catalog.ParseTarget(f.Target); err == nil && t.URL == "" {
		r.Target.Resolved = true
		r.Team = &struct {
			Value string `json:"value,omitempty"`
			From  string `json:"from,omitempty"`
			ID    string `json:"id,omitempty"`
		}{f.Team, f.TeamFrom, f.TeamID}
	}
	if f.CredentialFrom != "" {
		r.Principal.Credential, r.Principal.From = true, f.CredentialFrom
		r.Principal.Length, r.Principal.Last4 = f.CredentialLen, f.CredentialTail
	}
	problem := func(what string, err error) {
		r.Problems = append(r.Problems, statusProblem{What: what, Message: Advise(err),
			Code: exitcode.Code(err), Exit: exitcode.Of(err)})
	}
	if f.ConnectErr != nil || m.Client == nil {
		err := f.ConnectErr
		if err == nil {
			err = fmt.Errorf("no client")
		}
		problem("resolve "+f.Target, err)
		r.verdict()
		return r
	}
	r.Target.URL = m.Client.Target()

	var (
		wg       sync.WaitGroup
		info     *catalog.Info
		tools    []catalog.ToolEntry
		sessions []catalog.Session
		errs     [3]error
	)
	wg.Add(3)
	go func() { defer wg.Done(); info, errs[0] = m.Client.Info(ctx) }()
	go func() { defer wg.Done(); tools, errs[1] = m.Client.Tools(ctx, catalog.Binding{}) }()
	go func() { defer wg.Done(); sessions, errs[2] = m.Client.Sessions(ctx) }()
	wg.Wait()
	for i, what := range []string{"GET /v1/info", "GET /v1/tools", "GET /v1/sessions"} {
		if errs[i] != nil {
			problem(what, errs[i])
		}
	}
	if info != nil {
		r.Agent = &struct {
			Name        string `json:"name"`
			Description string `json:"description,omitempty"`
		}{info.Name, info.Description}
	}
	if errs[1] == nil {
		r.countTools(tools)
		r.compareGroups(f, now())
	}
	if errs[2] == nil {
		r.readSessions(ctx, m.Client, sessions, now())
	}
	r.verdict()
	return r
}

// countTools counts the listing by source: the authored tools, then each
// connection group (as agsh help groups them) by name.
func (r *statusReport) countTools(tools []catalog.ToolEntry) {
	authored := 0
	byGroup := map[string]int{}
	for _, t := range tools {
		if g := t.Source.Group(); g != "" {
			byGroup[g]++
		} else {
			authored++
		}
	}
	r.Tools = &struct {
		Total      int           `json:"total"`
		Groups     []statusGroup `json:"groups"`
		MoreGroups int           `json:"moreGroups,omitempty"`
	}{Total: len(tools), Groups: []statusGroup{}}
	if authored > 0 {
		r.Tools.Groups = append(r.Tools.Groups, statusGroup{Kind: "authored", Tools: authored})
	}
	names := make([]string, 0, len(byGroup))
	for g := range byGroup {
		names = append(names, g)
	}
	sort.Strings(names)
	for i, g := range names {
		if i == maxStatusGroups {
			r.Tools.MoreGroups = len(names) - i
			break
		}
		r.Tools.Groups = append(r.Tools.Groups, statusGroup{Group: g, Kind: "connection", Tools: byGroup[g]})
	}
}

// compareGroups finds the connection groups an earlier :status saw listing
// tools within StatusRecent that list none now, and remembers what it saw:
// the groups listed now, and the stopped ones with the time they were last
// seen (so the next run still reports them until StatusRecent has passed).
func (r *statusReport) compareGroups(f StatusFacts, now time.Time) {
	if f.Seen == nil || f.Remember == nil {
		return
	}
	listed := map[string]bool{}
	keep := map[string]SeenGroup{}
	for _, g := range r.Tools.Groups {
		if g.Kind == "connection" {
			listed[g.Group] = true
			keep[g.Group] = SeenGroup{Tools: g.Tools, Seen: now.UTC().Format(time.RFC3339)}
		}
	}
	seen := f.Seen()
	names := make([]string, 0, len(seen))
	for g := range seen {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		s := seen[g]
		at, err := time.Parse(time.RFC3339, s.Seen)
		if listed[g] || s.Tools <= 0 || err != nil || now.Sub(at) > StatusRecent || r.Tools.MoreGroups > 0 {
			continue
		}
		r.Stopped = append(r.Stopped, statusStopped{Group: g, Tools: s.Tools, LastSeen: s.Seen})
		if len(keep) < maxStatusGroups {
			keep[g] = s
		}
	}
	f.Remember(keep)
}

// readSessions counts the sessions by state, then reads the records of
// those that can tell: every one waiting for an approval, then those active
// within StatusRecent, newest first, at most maxStatusRecords, four at once.
func (r *statusReport) readSessions(ctx context.Context, c *catalog.Client, ss []catalog.Session, now time.Time) {
	r.Sessions = &struct {
		Total           int `json:"total"`
		Running         int `json:"running"`
		Queued          int `json:"queued"`
		WaitingApproval int `json:"waitingApproval"`
		RecordsRead     int `json:"recordsRead"`
		Candidates      int `json:"recordsWanted"`
	}{Total: len(ss)}
	var waiting, recent []catalog.Session
	for _, s := range ss {
		// The states counted are those of docs/wire.md#the-sessions-listing.
		parked := s.Status == "waiting_approval"
		if parked {
			r.Sessions.WaitingApproval++
		}
		if parked || s.Running || s.Status == "running" {
			r.Sessions.Running++
		}
		if s.Queued {
			r.Sessions.Queued++
		}
		if s.SessionID == "" {
			continue // no record route names it
		}
		if parked {
			waiting = append(waiting, s)
		} else if t, ok := activity(s); ok && now.Sub(t) <= StatusRecent {
			recent = append(recent, s)
		}
	}
	newest := func(ss []catalog.Session) {
		sort.SliceStable(ss, func(i, j int) bool {
			a, _ := activity(ss[i])
			b, _ := activity(ss[j])
			return a.After(b)
		})
	}
	newest(waiting)
	newest(recent)
	want := append(waiting, recent...)
	r.Sessions.Candidates = len(want)
	if len(want) > maxStatusRecords {
		want = want[:maxStatusRecords]
	}
	r.Sessions.RecordsRead = len(want)
	if r.Sessions.Candidates > len(want) {
		r.Notes = append(r.Notes, fmt.Sprintf("read the records of %d of the %d sessions waiting for an approval or active in the last hour",
			len(want), r.Sessions.Candidates))
	}
	health := make([]console.Health, len(want))
	errs := make([]error, len(want))
	var wg sync.WaitGroup
	slots := make(chan struct{}, 4)
	for i, s := range want {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			health[i], errs[i] = console.ReadHealth(ctx, c, s.SessionID, now.Add(-StatusRecent))
		}()
	}
	wg.Wait()
	unexposed := false
	for i, s := range want {
		switch err := errs[i]; {
		case catalog.IsCode(err, catalog.CodeNoRecords) || catalog.IsCode(err, catalog.CodeNotExposed):
			unexposed = true
		case err != nil:
			r.Problems = append(r.Problems, statusProblem{What: "GET /v1/session/" + s.SessionID + "/events",
				Message: Advise(err), Code: exitcode.Code(err), Exit: exitcode.Of(err)})
		}
		for _, p := range health[i].Parked {
			sp := statusParked{SessionID: s.SessionID, CallID: p.ID, Tool: p.Tool, At: p.At, WaitedSeconds: -1}
			if t, err := time.Parse(time.RFC3339Nano, p.At); err == nil {
				sp.WaitedSeconds = int64(now.Sub(t) / time.Second)
			}
			r.Parked = append(r.Parked, sp)
		}
		if h := health[i]; h.Failed > 0 {
			r.Failed = append(r.Failed, statusFailed{SessionID: s.SessionID, Count: h.Failed,
				TurnID: h.Last.TurnID, At: h.Last.At, Message: h.Last.Message})
		}
	}
	if unexposed {
		r.Notes = append(r.Notes, "the deployment does not expose session records: how long a call has waited and which turns failed are not known")
	}
	sort.SliceStable(r.Parked, func(i, j int) bool { return r.Parked[i].WaitedSeconds > r.Parked[j].WaitedSeconds })
}

// activity is a session's last activity: updatedAt, else createdAt.
func activity(s catalog.Session) (time.Time, bool) {
	for _, at := range []string{s.UpdatedAt, s.CreatedAt} {
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// verdict sets the verdict, the exit status and the reasons: a request of
// the screen refused for the credential is auth (4); a target that is no
// agent, usage (2); one that could not reach the deployment or made no
// sense, unreachable (5); another failure its own status; else degraded (1) for a call parked too long, a failed
// turn, a connection that stopped listing, a record that could not be read;
// else healthy (0).
func (r *statusReport) verdict() {
	worst := 0
	for _, p := range r.Problems {
		if strings.HasPrefix(p.What, "GET /v1/session/") {
			continue // a record: degraded, below
		}
		if statusRank(p.Exit) > statusRank(worst) {
			worst = p.Exit
		}
	}
	// Requests that failed alike are one reason.
	var whats [][]string
	at := map[string]int{}
	var msgs []string
	for _, p := range r.Problems {
		i, ok := at[p.Message]
		if !ok {
			i = len(msgs)
			at[p.Message] = i
			msgs = append(msgs, p.Message)
			whats = append(whats, nil)
		}
		whats[i] = append(whats[i], p.What)
	}
	for i, msg := range msgs {
		r.Reasons = append(r.Reasons, strings.Join(whats[i], ", ")+": "+msg)
	}
	if worst != 0 {
		r.Exit = worst
		switch worst {
		case exitcode.Auth:
			r.Verdict = "auth"
		case exitcode.Unreachable:
			r.Verdict = "unreachable"
		default:
			r.Verdict = "error"
		}
		return
	}
	n := 0
	for _, p := range r.Parked {
		if time.Duration(p.WaitedSeconds)*time.Second <= StatusParkedTooLong {
			continue
		}
		if n++; n <= maxStatusReasons {
			r.Reasons = append(r.Reasons, fmt.Sprintf("call %s (%s) of session %s has waited for approval for %s, since %s",
				p.CallID, p.Tool, p.SessionID, waited(p.WaitedSeconds), p.At))
		}
	}
	if n > maxStatusReasons {
		r.Reasons = append(r.Reasons, fmt.Sprintf("and %d more calls waiting for approval for more than 10 minutes", n-maxStatusReasons))
	}
	for i, f := range r.Failed {
		if i == maxStatusReasons {
			r.Reasons = append(r.Reasons, fmt.Sprintf("and turns of %d more sessions failed in the last hour", len(r.Failed)-i))
			break
		}
		what := "a turn"
		if f.Count > 1 {
			what = fmt.Sprintf("%d turns", f.Count)
		}
		msg := fmt.Sprintf("session %s: %s failed in the last hour, the last at %s", f.SessionID, what, f.At)
		if f.Message != "" {
			msg += ": " + f.Message
		}
		r.Reasons = append(r.Reasons, msg)
	}
	for _, s := range r.Stopped {
		r.Reasons = append(r.Reasons, fmt.Sprintf("connection %s listed %d tools at %s and lists none now", s.Group, s.Tools, s.LastSeen))
	}
	if len(r.Reasons) > 0 {
		r.Exit, r.Verdict = exitcode.ToolError, "degraded"
		return
	}
	r.Verdict = "healthy"
}

// statusRank orders the failures of :status's requests: the credential
// refused first (every other failure may follow from it), then a target
// that is no agent (the sessions route is then missing too), then
// unreachable, then any other.
func statusRank(exit int) int {
	switch exit {
	case 0:
		return 0
	case exitcode.Auth:
		return 4
	case exitcode.Usage:
		return 3
	case exitcode.Unreachable:
		return 2
	}
	return 1
}

// waited is a wait for people: "45s", "15m", "2h05m".
func waited(s int64) string {
	d := time.Duration(s) * time.Second
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", s)
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// statusLabel is the width of the screen's labels.
const statusLabel = 11

// text is the screen: one line per fact, then the verdict and its reasons.
// Everything the deployment (or the environment) sent is made safe and
// kept on one line.
func (r *statusReport) text() string {
	var b strings.Builder
	line := func(label, text string) {
		fmt.Fprintf(&b, "%-*s%s\n", statusLabel, label, text)
	}
	target := statusLine(r.Target.Value, 200)
	if r.Target.From != "" {
		target += " (" + r.Target.From + ")"
	}
	if r.Target.Resolved && r.Target.URL != "" {
		target += ", resolved to " + statusLine(r.Target.URL, 200)
	}
	line("target", target)
	switch {
	case r.Team == nil:
		line("team", "none: a URL target names its agent (teams apply to production names)")
	case r.Team.Value == "" && r.Team.ID == "":
		line("team", "not given")
	default:
		t := statusLine(r.Team.Value, 80)
		if r.Team.From != "" {
			t += " (" + r.Team.From + ")"
		}
		if r.Team.ID != "" {
			if t != "" {
				t += ", "
			}
			t += "team id " + statusLine(r.Team.ID, 80)
		}
		line("team", t)
	}
	if r.Principal.Credential {
		p := "credential from " + statusLine(r.Principal.From, 200) + fmt.Sprintf(", %d characters", r.Principal.Length)
		if r.Principal.Last4 != "" {
			p += ", ending in …" + statusLine(r.Principal.Last4, 4)
		}
		line("principal", p)
	} else {
		line("principal", "no credential sent")
	}
	switch {
	case r.Agent == nil:
		line("agent", "unknown")
	case r.Agent.Description != "":
		line("agent", statusLine(r.Agent.Name, 80)+": "+statusLine(r.Agent.Description, 160))
	default:
		line("agent", statusLine(r.Agent.Name, 80))
	}
	if r.Tools != nil {
		var parts []string
		for _, g := range r.Tools.Groups {
			name := "authored"
			if g.Kind == "connection" {
				name = statusLine(g.Group, 60)
			}
			parts = append(parts, fmt.Sprintf("%d %s", g.Tools, name))
		}
		if r.Tools.MoreGroups > 0 {
			parts = append(parts, fmt.Sprintf("%d more groups", r.Tools.MoreGroups))
		}
		t := fmt.Sprint(r.Tools.Total)
		if len(parts) > 0 {
			t += ": " + strings.Join(parts, ", ")
		}
		line("tools", t)
	} else {
		line("tools", "unknown")
	}
	if s := r.Sessions; s != nil {
		line("sessions", fmt.Sprintf("%d: %d running, %d queued, %d waiting for an approval", s.Total, s.Running, s.Queued, s.WaitingApproval))
	} else {
		line("sessions", "unknown")
	}
	for _, p := range r.Parked {
		if p.WaitedSeconds >= 0 && time.Duration(p.WaitedSeconds)*time.Second <= StatusParkedTooLong {
			line("", fmt.Sprintf("call %s (%s) of %s waits for approval, for %s", statusLine(p.CallID, 80), statusLine(p.Tool, 80),
				statusLine(p.SessionID, 80), waited(p.WaitedSeconds)))
		}
	}
	line("verdict", fmt.Sprintf("%s (exit %d)", r.Verdict, r.Exit))
	for _, reason := range r.Reasons {
		line("", "- "+statusLine(reason, 600))
	}
	for _, n := range r.Notes {
		line("", "note: "+n)
	}
	return b.String()
}

// statusLine is untrusted text for one line of the screen: white space runs
// (line breaks included) as one space, cut at n bytes, made safe.
func statusLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		i := n
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i] + "…"
	}
	return render.SafeLabel(s)
}

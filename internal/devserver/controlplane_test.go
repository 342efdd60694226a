package devserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
)

// Keys of the test control plane: "both-key" uses teams 42 and 7, "acme-key"
// only 42. Team 7 hosts only the executor.
const (
	bothKey = "both-key-secret"
	acmeKey = "acme-key-secret"
)

func testControlPlane() devserver.ControlPlane {
	return devserver.ControlPlane{
		Teams: []devserver.Team{{ID: "42", Name: "Acme"}, {ID: "7", Name: "Beta", Agents: []string{"executor"}}},
		Keys:  []devserver.APIKey{{Key: bothKey, Teams: []string{"42", "7"}}, {Key: acmeKey, Teams: []string{"42"}}},
	}
}

// startControlPlane starts the two-agent test server in control-plane mode.
func startControlPlane(t *testing.T) *devserver.Server {
	t.Helper()
	cfg := testConfig()
	cfg.ControlPlane = testControlPlane()
	return devservertest.Start(t, cfg)
}

func TestControlPlaneRoutes(t *testing.T) {
	s := startControlPlane(t)
	base := s.URL() + "/internal/agentsdk/deployments"
	row := func(name, id, team string) string {
		return `{"slug":"` + name + `","teamId":"` + id + `","teamName":"` + team + `","baseUrl":"` + base + "/" + name + `"}`
	}
	exec, plan := "change-monitor-executor", "change-monitor-planner"
	tests := []struct {
		name, method, path, token string
		body                      any
		status                    int
		want                      string // the exact body, or a prefix ending in "…"
	}{
		{"name in two teams", "GET", "?slug=" + exec, bothKey, nil, 200,
			`{"ok":true,"deployments":[` + row(exec, "42", "Acme") + `,` + row(exec, "7", "Beta") + `]}`},
		{"name in one team of the key", "GET", "?slug=" + exec, acmeKey, nil, 200,
			`{"ok":true,"deployments":[` + row(exec, "42", "Acme") + `]}`},
		{"agent the second team does not host", "GET", "?slug=" + plan, bothKey, nil, 200,
			`{"ok":true,"deployments":[` + row(plan, "42", "Acme") + `]}`},
		{"unknown name", "GET", "?slug=nope", bothKey, nil, 200, `{"ok":true,"deployments":[]}`},
		{"slug is not the name", "GET", "?slug=executor", bothKey, nil, 200, `{"ok":true,"deployments":[]}`},
		{"no slug lists everything", "GET", "", acmeKey, nil, 200,
			`{"ok":true,"deployments":[` + row(exec, "42", "Acme") + `,` + row(plan, "42", "Acme") + `]}`},
		{"no key", "GET", "?slug=" + exec, "", nil, 401,
			`{"ok":false,"error":"unauthorized","message":"the control plane requires Authorization: Bearer <API key>"}`},
		{"wrong key", "GET", "?slug=" + exec, "wrong-key-secret", nil, 401,
			`{"ok":false,"error":"unauthorized","message":"the API key is not valid"}`},
		{"resolution is GET only", "POST", "", bothKey, "{}", 405,
			`{"ok":false,"error":"method_not_allowed","message":"method not allowed; this route answers GET"}`},
		{"forwarded info", "GET", "/" + exec + "/v1/info?teamId=7", bothKey, nil, 200,
			`{"ok":true,"name":"change-monitor-executor","description":"Executes monitoring plans against changed code.","tools":[…`},
		{"forwarded call", "POST", "/" + exec + "/v1/tools/echo_read?teamId=42", acmeKey, `{"input":{"a":1}}`, 200,
			`{"ok":true,"toolName":"echo_read","callId":…`},
		{"forwarded escaped tool name", "GET", "/" + exec + "/v1/tools/datadog_get_%6Donitor?teamId=42", acmeKey, nil, 200,
			`{"ok":true,"tool":{"name":"datadog_get_monitor",…`},
		{"forwarded unknown route", "GET", "/" + exec + "/v1/nope?teamId=42", acmeKey, nil, 404,
			`{"ok":false,"error":"not_found","message":"no route GET /executor/v1/nope"}`},
		{"deployment without key", "GET", "/" + exec + "/v1/info?teamId=42", "", nil, 401,
			`{"ok":false,"error":"unauthorized","message":"the control plane requires Authorization: Bearer <API key>"}`},
		{"deployment with a wrong key", "GET", "/" + exec + "/v1/info?teamId=42", "wrong", nil, 401,
			`{"ok":false,"error":"unauthorized","message":"the API key is not valid"}`},
		{"no teamId", "GET", "/" + exec + "/v1/info", bothKey, nil, 403,
			`{"ok":false,"error":"forbidden","message":"a deployment request needs ?teamId=<team id>: the control plane's answer names the team"}`},
		{"team of another key", "GET", "/" + exec + "/v1/info?teamId=7", acmeKey, nil, 403,
			`{"ok":false,"error":"forbidden","message":"this API key cannot use team 7"}`},
		{"unknown team", "GET", "/" + exec + "/v1/info?teamId=99", bothKey, nil, 403,
			`{"ok":false,"error":"forbidden","message":"this API key cannot use team 99"}`},
		{"team does not host the agent", "GET", "/" + plan + "/v1/info?teamId=7", bothKey, nil, 404,
			`{"ok":false,"error":"unknown_deployment","message":"team 7 has no deployment named change-monitor-planner"}`},
		{"unknown deployment", "GET", "/nope/v1/info?teamId=42", bothKey, nil, 404,
			`{"ok":false,"error":"unknown_deployment","message":"team 42 has no deployment named nope"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := devservertest.Do(t, tt.method, base+tt.path, tt.token, tt.body)
			got := string(body)
			ok := got == tt.want
			if prefix, cut := strings.CutSuffix(tt.want, "…"); cut {
				ok = strings.HasPrefix(got, prefix)
			}
			if status != tt.status || !ok {
				t.Fatalf("%s %s: got %d\n%s\nwant %d\n%s", tt.method, tt.path, status, got, tt.status, tt.want)
			}
			for _, key := range []string{bothKey, acmeKey, "wrong-key-secret"} {
				if strings.Contains(got, key) {
					t.Fatalf("the answer echoes a key: %s", got)
				}
			}
		})
	}
}

// A forwarded request runs as the key's principal: its sessions are its
// own, apart from the loopback caller's, and shared across the key's teams.
func TestControlPlanePrincipal(t *testing.T) {
	s := startControlPlane(t)
	dep := s.URL() + "/internal/agentsdk/deployments/change-monitor-executor"
	status, body := devservertest.Do(t, http.MethodPost, dep+"/v1/session?teamId=42", bothKey, map[string]string{"message": "m"})
	if status != 200 {
		t.Fatalf("new session: %d %s", status, body)
	}
	id, _ := envelope(t, body)["sessionId"].(string)
	for _, c := range []struct {
		name, url, token string
		has              bool
	}{
		{"same key, same team", dep + "/v1/sessions?teamId=42", bothKey, true},
		{"same key, other team", dep + "/v1/sessions?teamId=7", bothKey, true},
		{"another key", dep + "/v1/sessions?teamId=42", acmeKey, false},
		{"direct loopback caller", s.AgentURL("executor") + "/v1/sessions", "", false},
	} {
		status, body := devservertest.Do(t, http.MethodGet, c.url, c.token, nil)
		if status != 200 || strings.Contains(string(body), id) != c.has {
			t.Errorf("%s: %d %s (want session %s listed: %v)", c.name, status, body, id, c.has)
		}
	}
}

// Without the mode, the control-plane paths are not agents: a plain 404.
func TestControlPlaneOff(t *testing.T) {
	s, _ := start(t)
	status, body := devservertest.Do(t, http.MethodGet, s.URL()+"/internal/agentsdk/deployments?slug=change-monitor-executor", bothKey, nil)
	if status != 404 || string(body) != "404 page not found\n" {
		t.Fatalf("got %d %q", status, body)
	}
}

func TestControlPlaneConfigErrors(t *testing.T) {
	team := func(id, name string, agents ...string) devserver.Team {
		return devserver.Team{ID: id, Name: name, Agents: agents}
	}
	key := func(k string, teams ...string) devserver.APIKey { return devserver.APIKey{Key: k, Teams: teams} }
	tests := []struct {
		name string
		cp   devserver.ControlPlane
		want string
	}{
		{"no key", devserver.ControlPlane{Teams: []devserver.Team{team("42", "Acme")}},
			"devserver: control plane: no API key configured (--cp-key KEY=TEAMID)"},
		{"no team", devserver.ControlPlane{Keys: []devserver.APIKey{key("k", "42")}},
			"devserver: control plane: no team configured (--cp-team ID=NAME)"},
		{"bad team id", devserver.ControlPlane{Teams: []devserver.Team{team("4 2", "Acme")}, Keys: []devserver.APIKey{key("k", "42")}},
			`devserver: control plane: team id "4 2": use letters, digits, '-', '_' and '.'`},
		{"team twice", devserver.ControlPlane{Teams: []devserver.Team{team("42", "Acme"), team("42", "B")}, Keys: []devserver.APIKey{key("k", "42")}},
			"devserver: control plane: team 42 configured twice"},
		{"team without name", devserver.ControlPlane{Teams: []devserver.Team{team("42", " ")}, Keys: []devserver.APIKey{key("k", "42")}},
			"devserver: control plane: team 42 has no name"},
		{"unknown agent", devserver.ControlPlane{Teams: []devserver.Team{team("42", "Acme", "nope")}, Keys: []devserver.APIKey{key("k", "42")}},
			`devserver: control plane: team 42: no agent "nope" (agents: change-monitor-executor (executor), change-monitor-planner (planner))`},
		{"key with a space", devserver.ControlPlane{Teams: []devserver.Team{team("42", "Acme")}, Keys: []devserver.APIKey{key("se cret", "42")}},
			"devserver: control plane: API key #1 must be non-empty and have no spaces"},
		{"key twice", devserver.ControlPlane{Teams: []devserver.Team{team("42", "Acme")}, Keys: []devserver.APIKey{key("secret", "42"), key("secret", "42")}},
			"devserver: control plane: API key #2 is configured twice"},
		{"key without team", devserver.ControlPlane{Teams: []devserver.Team{team("42", "Acme")}, Keys: []devserver.APIKey{key("secret")}},
			"devserver: control plane: API key #1 names no team"},
		{"key of an unknown team", devserver.ControlPlane{Teams: []devserver.Team{team("42", "Acme")}, Keys: []devserver.APIKey{key("secret", "7")}},
			`devserver: control plane: API key #1 names team "7", which no --cp-team defines`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.ControlPlane = tt.cp
			_, err := devserver.New(cfg)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("got %v\nwant %s", err, tt.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Fatalf("the error repeats a key: %v", err)
			}
		})
	}
}

// The forwarding keeps the agent's answer byte for byte.
func TestControlPlaneForwardsSameAnswer(t *testing.T) {
	s := startControlPlane(t)
	_, direct := devservertest.Do(t, http.MethodGet, s.AgentURL("executor")+"/v1/tools", "", nil)
	_, fwd := devservertest.Do(t, http.MethodGet,
		s.URL()+"/internal/agentsdk/deployments/change-monitor-executor/v1/tools?teamId=42", acmeKey, nil)
	if string(direct) != string(fwd) {
		t.Fatalf("forwarded listing differs:\n%s\n%s", direct, fwd)
	}
}

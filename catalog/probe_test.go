package catalog

import (
	"net/http"
	"strings"
	"testing"
)

// multiHost serves agents under /executor and /planner and answers every
// other path with an HTML 404; agents is the body of /v1/agents ("" for an
// HTML 404 there too).
func multiHost(agents string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/agents" && agents != "":
			writeJSON(w, 200, agents)
		case strings.HasPrefix(r.URL.Path, "/executor/v1/sessions"):
			writeJSON(w, 200, `{"ok":true,"sessions":[]}`)
		case strings.HasPrefix(r.URL.Path, "/executor/"):
			writeJSON(w, 200, `{"ok":true,"tools":[]}`)
		case strings.HasPrefix(r.URL.Path, "/json404"):
			writeJSON(w, 404, `{"message":"Route GET:`+r.URL.Path+` not found","error":"Not Found","statusCode":404}`)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(404)
			_, _ = w.Write([]byte("<html>Cannot GET " + r.URL.Path + "</html>"))
		}
	}
}

func TestNotAnAgentProbe(t *testing.T) {
	agents := func(host string) string {
		return `{"ok":true,"agents":[{"slug":"executor","url":"` + host + `/executor","name":"x"},{"slug":"planner"}]}`
	}
	tests := []struct {
		name, mount string
		agents      func(host string) string
		code        string
		exit        int
		text        func(host string) string
	}{
		{"host root", "", agents, CodeNotAnAgent, ExitUsage, func(h string) string {
			return "no agent at " + h + "; mounted agents: " + h + "/executor, " + h + "/planner"
		}},
		{"typo", "/exector", agents, CodeNotAnAgent, ExitUsage, func(h string) string {
			return "no agent at " + h + "/exector; mounted agents: " + h + "/executor, " + h + "/planner"
		}},
		{"framework JSON 404", "/json404", agents, CodeNotAnAgent, ExitUsage, func(h string) string {
			return "no agent at " + h + "/json404; mounted agents: " + h + "/executor, " + h + "/planner"
		}},
		{"none mounted", "/x", func(string) string { return `{"ok":true,"agents":[]}` }, CodeNotAnAgent, ExitUsage,
			func(h string) string { return "no agent at " + h + "/x; no agents are mounted there" }},
		{"probe fails", "/x", func(string) string { return "" }, CodeNotAnAgent, ExitUsage,
			func(h string) string { return "no agent at " + h + "/x" }},
		{"agent lacks the route", "/old", func(h string) string {
			return `{"ok":true,"agents":[{"slug":"old","url":"` + h + `/old/"}]}`
		}, CodeBadResponse, ExitUnreachable, func(h string) string {
			return "the agent at " + h + "/old answers 404 to a route agsh needs; its agent-sdk may be too old for agsh"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var host string
			c, srv := serve(t, tt.mount, func(w http.ResponseWriter, r *http.Request) {
				multiHost(tt.agents(host))(w, r)
			})
			host = srv.URL
			_, err := c.Info(ctxT(t))
			wantError(t, err, tt.code, tt.exit, tt.text(host))
		})
	}
}

func TestSessionsRouteMissing(t *testing.T) {
	c, srv := serve(t, "/executor", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/executor/v1/info" {
			writeJSON(w, 200, `{"ok":true,"name":"executor"}`)
			return
		}
		http.NotFound(w, r)
	})
	want := "the deployment at " + srv.URL + "/executor has no GET /v1/sessions route, so agsh cannot find its latest session; " +
		"pass a session id or a continuation token"
	_, err := c.Sessions(ctxT(t))
	wantError(t, err, CodeNoSessionsRoute, ExitUnreachable, want)
	_, err = c.Bind(ctxT(t), Binding{})
	wantError(t, err, CodeNoSessionsRoute, ExitUnreachable, want)
}

func TestBindOnNonAgentSaysNotAnAgent(t *testing.T) {
	var host string
	c, srv := serve(t, "/nope", func(w http.ResponseWriter, r *http.Request) {
		multiHost(`{"ok":true,"agents":[{"slug":"executor","url":"`+host+`/executor"}]}`)(w, r)
	})
	host = srv.URL
	_, err := c.Bind(ctxT(t), Binding{})
	wantError(t, err, CodeNotAnAgent, ExitUsage, "no agent at "+host+"/nope; mounted agents: "+host+"/executor")
}

package catalog

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLookupCredential(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keyFile := write("key.txt", "  file-key-1234\n")
	emptyFile := write("empty.txt", " \n")
	twoLines := write("two.txt", "file-key-1234\nsecond-line\n")
	write("serve/auth.json", `{"apiKey":"serve-key-1234"}`)
	write("xdg/agent-sdk/auth.json", `{"accessToken":"xdg-token-1234"}`)
	write("home/.config/agent-sdk/auth.json", `{"apiKey":"","accessToken":"home-token-1234","extra":1}`)
	write("bad/auth.json", `not json`)
	write("nokey/auth.json", `{"user":"x"}`)
	home := filepath.Join(dir, "home")

	tests := []struct {
		name   string
		flag   string
		env    map[string]string
		home   string
		token  string
		source string
		err    string
	}{
		{name: "flag beats all", flag: " flag-token-1234 ", env: map[string]string{"CURSOR_API_KEY": "env-key"}, home: home,
			token: "flag-token-1234", source: SettingToken.mark()},
		{name: "CURSOR_API_KEY", env: map[string]string{"CURSOR_API_KEY": "env-key-1234", "CURSOR_API_KEY_FILE": keyFile}, home: home,
			token: "env-key-1234", source: "CURSOR_API_KEY"},
		{name: "key file", env: map[string]string{"CURSOR_API_KEY": "  ", "CURSOR_API_KEY_FILE": keyFile,
			"AGENT_SERVE_CONFIG_DIR": filepath.Join(dir, "serve")}, home: home,
			token: "file-key-1234", source: "CURSOR_API_KEY_FILE (" + keyFile + ")"},
		{name: "key file missing", env: map[string]string{"CURSOR_API_KEY_FILE": filepath.Join(dir, "nope")}, home: home,
			err: "cannot read the key file " + filepath.Join(dir, "nope") + " named by CURSOR_API_KEY_FILE: no such file or directory; run agent-sdk login, or set CURSOR_API_KEY (or a bearer token)"},
		{name: "key file empty", env: map[string]string{"CURSOR_API_KEY_FILE": emptyFile}, home: home,
			err: "the key file " + emptyFile + " is empty; run agent-sdk login, or set CURSOR_API_KEY (or a bearer token)"},
		{name: "AGENT_SERVE_CONFIG_DIR", env: map[string]string{"AGENT_SERVE_CONFIG_DIR": filepath.Join(dir, "serve"),
			"XDG_CONFIG_HOME": filepath.Join(dir, "xdg")}, home: home,
			token: "serve-key-1234", source: "the stored login (" + filepath.Join(dir, "serve", "auth.json") + ")"},
		{name: "XDG_CONFIG_HOME", env: map[string]string{"XDG_CONFIG_HOME": filepath.Join(dir, "xdg")}, home: home,
			token: "xdg-token-1234", source: "the stored login (" + filepath.Join(dir, "xdg", "agent-sdk", "auth.json") + ")"},
		{name: "home default", home: home,
			token: "home-token-1234", source: "the stored login (" + filepath.Join(home, ".config", "agent-sdk", "auth.json") + ")"},
		{name: "config dir set but empty", env: map[string]string{"AGENT_SERVE_CONFIG_DIR": filepath.Join(dir, "void")}, home: home,
			err: "no credential for production deployments (no stored login at " + filepath.Join(dir, "void", "auth.json") +
				"): run agent-sdk login, or set CURSOR_API_KEY (or a bearer token)"},
		{name: "malformed login", env: map[string]string{"AGENT_SERVE_CONFIG_DIR": filepath.Join(dir, "bad")},
			err: "the stored login " + filepath.Join(dir, "bad", "auth.json") + ` is not a JSON object with "apiKey"; run agent-sdk login again`},
		{name: "login without key", env: map[string]string{"AGENT_SERVE_CONFIG_DIR": filepath.Join(dir, "nokey")},
			err: "the stored login " + filepath.Join(dir, "nokey", "auth.json") + ` holds no "apiKey" or "accessToken"; run agent-sdk login again`},
		{name: "key file of two lines", env: map[string]string{"CURSOR_API_KEY_FILE": twoLines}, home: home,
			err: "the credential from CURSOR_API_KEY_FILE (" + twoLines + ") holds a line break or another control character; a key is a single line"},
		{name: "control character in the flag", flag: "tok\x01en", home: home,
			err: "the credential from the bearer token holds a line break or another control character; a key is a single line"},
		{name: "nothing at all",
			err: "no credential for production deployments: run agent-sdk login, or set CURSOR_API_KEY (or a bearer token)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string { return tt.env[k] }
			cred, err := LookupCredential(tt.flag, getenv, os.ReadFile, tt.home)
			if tt.err != "" {
				wantError(t, err, CodeNoCredential, ExitAuth, tt.err)
				return
			}
			if err != nil || cred.Token != tt.token || cred.Source != tt.source {
				t.Errorf("cred = %+v, %v; want %q from %q", cred, err, tt.token, tt.source)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	const two = `{"ok":true,"deployments":[
		{"slug":"cm","teamId":"42","teamName":"Acme","baseUrl":"https://acme.example/internal/agentsdk/deployments/cm/"},
		{"slug":"cm","teamId":7,"teamName":"Beta","baseUrl":"http://127.0.0.1:4000/cm"},
		{"slug":"other","teamId":"9","teamName":"Acme","baseUrl":"https://x.example/other"}]}`
	cred := Credentials{Token: testToken, Source: "CURSOR_API_KEY"}
	tests := []struct {
		name, slug, team, body string
		status                 int
		base, teamID           string
		code                   string
		exit                   int
		err                    string
	}{
		{name: "one", slug: "other", body: two, status: 200, base: "https://x.example/other", teamID: "9"},
		{name: "team by id", slug: "cm", team: "42", body: two, status: 200,
			base: "https://acme.example/internal/agentsdk/deployments/cm", teamID: "42"},
		{name: "team by name, any case; numeric id; loopback http", slug: "cm", team: "bEtA", body: two, status: 200,
			base: "http://127.0.0.1:4000/cm", teamID: "7"},
		{name: "several", slug: "cm", body: two, status: 200, code: CodeUsage, exit: ExitUsage,
			err: `deployment name "cm" exists in several teams: Acme (42), Beta (7); pass the team <team id or name>`},
		{name: "none", slug: "nope", body: `{"ok":true,"deployments":[]}`, status: 200, code: CodeUnknownDeployment, exit: ExitRefused,
			err: `no deployment named "nope" is visible to the credential from CURSOR_API_KEY; check the name`},
		{name: "none in team", slug: "cm", team: "Gamma", body: two, status: 200, code: CodeUnknownDeployment, exit: ExitRefused,
			err: `no deployment named "cm" in team "Gamma"; it exists in Acme (42), Beta (7)`},
		{name: "several, one without a team name", slug: "cm", status: 200, code: CodeUsage, exit: ExitUsage,
			body: `{"ok":true,"deployments":[{"slug":"cm","teamId":"1","baseUrl":"https://a.example/cm"},{"slug":"cm","teamId":"2","teamName":"B","baseUrl":"https://b.example/cm"}]}`,
			err:  `deployment name "cm" exists in several teams: team 1, B (2); pass the team <team id or name>`},
		{name: "plain http baseUrl refused", slug: "x",
			body: `{"ok":true,"deployments":[{"slug":"x","teamId":"1","baseUrl":"http://x.example/d"}]}`, status: 200,
			code: CodeUsage, exit: ExitUsage,
			err: "deployment URL http://x.example/d must be https:// (plain http:// is allowed only for loopback hosts)"},
		{name: "bad baseUrl", slug: "x",
			body: `{"ok":true,"deployments":[{"slug":"x","teamId":"1","baseUrl":"ops:pw@nowhere"}]}`, status: 200,
			code: CodeBadResponse, exit: ExitUnreachable,
			err: `the control plane gave deployment "x" an unusable baseUrl "nowhere"`},
		{name: "404 envelope", slug: "x", body: `{"ok":false,"error":"not_found","message":"no such deployment"}`, status: 404,
			code: CodeUnknownDeployment, exit: ExitRefused,
			err: `no deployment named "x": the control plane answered not_found: no such deployment`},
		{name: "plain 404: not a control plane", slug: "x", body: `404 page not found`, status: 404,
			code: CodeBadResponse, exit: ExitUnreachable,
			err: "the control plane at {srv} has no GET /internal/agentsdk/deployments route (HTTP 404); is the API URL a control plane?"},
		{name: "answer without deployments", slug: "x", body: `{"ok":true}`, status: 200,
			code: CodeBadResponse, exit: ExitUnreachable,
			err: `the control plane at {srv} answered GET /internal/agentsdk/deployments without the "deployments" field; is the API URL a control plane?`},
		{name: "unauthorized", slug: "x", body: `{"ok":false,"error":"unauthorized","message":"` + testToken + `"}`, status: 401,
			code: CodeUnauthorized, exit: ExitAuth},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = r.Method + " " + r.URL.Path + "?" + r.URL.RawQuery + " " + r.Header.Get("Authorization")
				writeJSON(w, tt.status, tt.body)
			}))
			defer srv.Close()
			base, teamID, err := Resolve(ctxT(t), srv.URL+"/", tt.slug, tt.team, cred, srv.Client())
			if want := "GET /internal/agentsdk/deployments?slug=" + tt.slug + " Bearer " + testToken; got != want {
				t.Errorf("request = %q, want %q", got, want)
			}
			if tt.code != "" {
				e := wantError(t, err, tt.code, tt.exit, strings.ReplaceAll(tt.err, "{srv}", srv.URL))
				if tt.code == CodeUnauthorized {
					want := "the control plane at " + srv.URL + " refused the credential from CURSOR_API_KEY (HTTP 401); " +
						"run agent-sdk login, or set CURSOR_API_KEY (or a bearer token)"
					if e.Error() != want {
						t.Errorf("text = %q, want %q", e.Error(), want)
					}
				}
				if strings.Contains(e.Error(), testToken) {
					t.Errorf("token in %q", e.Error())
				}
				return
			}
			if err != nil || base != tt.base || teamID != tt.teamID {
				t.Errorf("resolve = %q %q %v; want %q %q", base, teamID, err, tt.base, tt.teamID)
			}
		})
	}
}

func TestResolveRefusesPlainControlPlane(t *testing.T) {
	_, _, err := Resolve(ctxT(t), "http://api.example.com", "x", "", Credentials{Token: "t"}, nil)
	wantError(t, err, CodeUsage, ExitUsage,
		"control plane URL http://api.example.com must be https:// (plain http:// is allowed only for loopback hosts)")
}

func TestTeamQuery(t *testing.T) {
	if q := TeamQuery("42"); q.Encode() != "teamId=42" {
		t.Errorf("TeamQuery = %q", q.Encode())
	}
	if q := TeamQuery(""); q != nil {
		t.Errorf("TeamQuery(\"\") = %v", q)
	}
}

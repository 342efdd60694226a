package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"unicode"
)

// Every assumption about production names
// (docs/wire.md#production-resolution; the credential's sources:
// docs/cli.md#production-names) lives in this file: the credential sources,
// the control plane's route and answer, and the https rule. The real
// resolution service is not public; a capture of it corrects this file alone.

// DefaultAPIURL is the control plane (the caller reads AGENT_SHELL_API_URL).
const DefaultAPIURL = "https://api.cursor.com"

const (
	pathDeployments = "/internal/agentsdk/deployments" // GET ?slug=<name>
	querySlug       = "slug"
	queryTeamID     = "teamId" // added to every request of a resolved target
	authFileName    = "auth.json"
	authDirName     = "agent-sdk"
)

// TokenVariable is the environment variable of an explicit bearer token.
const TokenVariable = "AGENT_SHELL_BEARER_TOKEN"

// noCredentialHelp says how to give a credential for production names.
var noCredentialHelp = "run agent-sdk login, or set CURSOR_API_KEY (or " + SettingTokenVariable.mark() + ")"

// deployment is one row of the control plane's answer.
type deployment struct {
	Slug     string     `json:"slug"`
	TeamID   flexString `json:"teamId"`
	TeamName string     `json:"teamName"`
	BaseURL  string     `json:"baseUrl"`
}

// flexString accepts a JSON string or number (an id may be either).
type flexString string

// UnmarshalJSON keeps a number's text exactly.
func (f *flexString) UnmarshalJSON(b []byte) error {
	*f = flexString(jsonText(b))
	return nil
}

type deploymentsAnswer struct {
	Deployments []deployment `json:"deployments"`
	OK          bool         `json:"ok"`
	refusal
}

// Credentials is the credential of a run. Source names where it came from
// for messages ("CURSOR_API_KEY"); the value is never printed.
type Credentials struct {
	Token  string
	Source string
	// From is where the token is, for a command that spells it rather than
	// show it (agsh's :curl).
	From CredentialOrigin
}

// CredentialOrigin is where a credential is read: an environment
// variable, or a file (whole and trimmed, or one member of a JSON object).
type CredentialOrigin struct {
	Var     string // "CURSOR_API_KEY"
	File    string // a file's path
	JSONKey string // the member of File holding it ("apiKey"); "": the whole file
}

// LookupCredential finds the credential, first found wins: flagToken (the
// caller merges --bearer-token over AGENT_SHELL_BEARER_TOKEN),
// CURSOR_API_KEY, the file named by CURSOR_API_KEY_FILE (trimmed), the
// stored login of agent-sdk: $AGENT_SERVE_CONFIG_DIR/auth.json when that
// variable is set, else $XDG_CONFIG_HOME/agent-sdk/auth.json, else
// home/.config/agent-sdk/auth.json, whose "apiKey" (or "accessToken") is
// the key. None: an *Error no_credential (exit 4). A named key file that
// cannot be read, or a stored login that is not JSON, is an error too.
//
// A credential holding a line break or another control character (a key
// file of two lines) is refused too: it cannot be sent as a header.
func LookupCredential(flagToken string, getenv func(string) string,
	readFile func(string) ([]byte, error), home string) (Credentials, error) {
	c, err := findCredential(flagToken, getenv, readFile, home)
	if err == nil && strings.ContainsFunc(c.Token, unicode.IsControl) {
		return Credentials{}, credentialError("the credential from %s holds a line break or another control character; "+
			"a key is a single line", c.Source)
	}
	return c, err
}

// findCredential is LookupCredential without the final check.
func findCredential(flagToken string, getenv func(string) string,
	readFile func(string) ([]byte, error), home string) (Credentials, error) {
	if t := strings.TrimSpace(flagToken); t != "" {
		return Credentials{Token: t, Source: SettingToken.mark(), From: CredentialOrigin{Var: TokenVariable}}, nil
	}
	if t := strings.TrimSpace(getenv("CURSOR_API_KEY")); t != "" {
		return Credentials{Token: t, Source: "CURSOR_API_KEY", From: CredentialOrigin{Var: "CURSOR_API_KEY"}}, nil
	}
	if p := getenv("CURSOR_API_KEY_FILE"); p != "" {
		src := "CURSOR_API_KEY_FILE (" + p + ")"
		b, err := readFile(p)
		if err != nil {
			return Credentials{}, credentialError("cannot read the key file %s named by CURSOR_API_KEY_FILE: %s; %s",
				p, fileErrText(err), noCredentialHelp)
		}
		if t := strings.TrimSpace(string(b)); t != "" {
			return Credentials{Token: t, Source: src, From: CredentialOrigin{File: p}}, nil
		}
		return Credentials{}, credentialError("the key file %s is empty; %s", p, noCredentialHelp)
	}
	path := storedLoginPath(getenv, home)
	if path == "" {
		return Credentials{}, credentialError("no credential for production deployments: %s", noCredentialHelp)
	}
	b, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Credentials{}, credentialError("no credential for production deployments (no stored login at %s): %s",
			path, noCredentialHelp)
	}
	if err != nil {
		return Credentials{}, credentialError("cannot read the stored login %s: %s; %s", path, fileErrText(err), noCredentialHelp)
	}
	var login struct {
		APIKey      string `json:"apiKey"`
		AccessToken string `json:"accessToken"`
	}
	if json.Unmarshal(b, &login) != nil {
		return Credentials{}, credentialError("the stored login %s is not a JSON object with \"apiKey\"; run agent-sdk login again", path)
	}
	for i, t := range []string{login.APIKey, login.AccessToken} {
		if t = strings.TrimSpace(t); t != "" {
			return Credentials{Token: t, Source: "the stored login (" + path + ")",
				From: CredentialOrigin{File: path, JSONKey: []string{"apiKey", "accessToken"}[i]}}, nil
		}
	}
	return Credentials{}, credentialError("the stored login %s holds no \"apiKey\" or \"accessToken\"; run agent-sdk login again", path)
}

// storedLoginPath is where agent-sdk login stores its key; "" when no
// directory is known.
func storedLoginPath(getenv func(string) string, home string) string {
	if d := getenv("AGENT_SERVE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, authFileName)
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, authDirName, authFileName)
	}
	if home != "" {
		return filepath.Join(home, ".config", authDirName, authFileName)
	}
	return ""
}

func credentialError(format string, args ...any) *Error {
	return &Error{ErrCode: CodeNoCredential, Message: fmt.Sprintf(format, args...)}
}

// fileErrText is a file error without its path (the caller names it).
func fileErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Resolve turns a production name into the deployment's base URL and team
// id: GET {apiURL}/internal/agentsdk/deployments?slug=<name> with the
// credential as bearer; team (when set) keeps the rows whose team id
// equals it or whose team name equals it ignoring case. One row: its
// baseUrl and teamId (the caller adds TeamQuery to every request). None:
// exit 3; several: exit 2 listing "teamName (teamId)" and asking for
// --team. The control plane and the baseUrl must be https:// unless their
// host is loopback. apiURL "" is DefaultAPIURL; hc nil a NewHTTPClient().
func Resolve(ctx context.Context, apiURL, name, team string, cred Credentials, hc *http.Client) (base, teamID string, err error) {
	if apiURL == "" {
		apiURL = DefaultAPIURL
	}
	u, err := parseTargetURL(apiURL)
	if err != nil {
		// parseTargetURL's words are for --target and an agent URL.
		return "", "", usageError("control plane URL (%s) is not usable: %q is not an http:// or https:// URL "+
			"with a host, such as %s", SettingControlPlane.mark(), stripUserinfo(strings.TrimSpace(apiURL)), DefaultAPIURL)
	}
	if err := requireHTTPS(u, "control plane URL"); err != nil {
		return "", "", err
	}
	c, err := New(u.String(), Options{BearerToken: cred.Token, CredentialSource: cred.Source, HTTPClient: hc})
	if err != nil {
		return "", "", err
	}
	r := &request{method: http.MethodGet, root: c.base, path: pathDeployments, query: url.Values{querySlug: {name}}}
	var a deploymentsAnswer
	if err := c.do(ctx, r, &a, essentialDeployments); err != nil {
		return "", "", c.resolveError(err, name, cred)
	}
	if a.Deployments == nil {
		return "", "", c.fail(&Error{ErrCode: CodeBadResponse, Status: http.StatusOK, Route: r.route(),
			Message: fmt.Sprintf("the control plane at %s answered %s without the \"deployments\" field; "+
				"is %s a control plane?", c.display, r.route(), SettingControlPlane.mark())})
	}
	var named, picked []deployment
	for _, d := range a.Deployments {
		if d.Slug == "" || d.Slug == name {
			named = append(named, d)
		}
	}
	for _, d := range named {
		if team == "" || string(d.TeamID) == team || strings.EqualFold(d.TeamName, team) {
			picked = append(picked, d)
		}
	}
	switch {
	case len(picked) == 0 && len(named) > 0:
		return "", "", c.fail(&Error{ErrCode: CodeUnknownDeployment, Message: fmt.Sprintf(
			"no deployment named %q in team %q; it exists in %s", name, team, teamList(named))})
	case len(picked) == 0:
		return "", "", c.fail(&Error{ErrCode: CodeUnknownDeployment, Message: fmt.Sprintf(
			"no deployment named %q is visible to the credential from %s; check the name", name, cred.Source)})
	case len(picked) > 1:
		return "", "", c.fail(usageError("deployment name %q exists in several teams: %s; pass %s <team id or name>",
			name, teamList(picked), SettingTeam.mark()))
	}
	d := picked[0]
	bu, err := parseTargetURL(d.BaseURL)
	if err != nil {
		return "", "", c.fail(&Error{ErrCode: CodeBadResponse, Message: fmt.Sprintf(
			"the control plane gave deployment %q an unusable baseUrl %q", name, stripUserinfo(d.BaseURL))})
	}
	if err := requireHTTPS(bu, "deployment URL"); err != nil {
		return "", "", err
	}
	return bu.String(), string(d.TeamID), nil
}

// resolveError explains a failed resolution request: a refused credential
// (exit 4) names its source; a 404 envelope means no such deployment (exit
// 3); a 404 without the envelope means the URL is not a control plane
// (exit 5).
func (c *Client) resolveError(err error, name string, cred Credentials) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	switch {
	case e.ExitCode() == ExitAuth:
		return c.fail(&Error{ErrCode: e.ErrCode, Status: e.Status, Route: e.Route, Err: err,
			Message: fmt.Sprintf("the control plane at %s refused the credential from %s (HTTP %d); %s",
				c.display, cred.Source, e.Status, noCredentialHelp)})
	case e.Status == http.StatusNotFound && e.Remote:
		return c.fail(&Error{ErrCode: CodeUnknownDeployment, Status: e.Status, Route: e.Route, Err: err,
			Message: fmt.Sprintf("no deployment named %q: the control plane answered %s", name, e.Error())})
	case e.Status == http.StatusNotFound:
		return c.fail(&Error{ErrCode: CodeBadResponse, Status: e.Status, Route: e.Route, Err: err, Exit: ExitUnreachable,
			Message: fmt.Sprintf("the control plane at %s has no %s route (HTTP 404); is %s a control plane?",
				c.display, e.Route, SettingControlPlane.mark())})
	case e.Remote && e.Status >= 500:
		text := e.Error()
		if rest, ok := strings.CutPrefix(text, "deployment failed the request: "); ok {
			text = rest
		} else {
			text = fmt.Sprintf("HTTP %d: %s", e.Status, text)
		}
		return c.fail(&Error{ErrCode: e.ErrCode, Status: e.Status, Route: e.Route, Err: err, Exit: e.ExitCode(),
			Message: fmt.Sprintf("the control plane at %s failed the request: %s", c.display, text)})
	case !e.Remote:
		// The client's own words are for a deployment and its target: say
		// what failed, and which setting names it.
		e.Message = strings.NewReplacer(
			"cannot reach the deployment at", "cannot reach the control plane at",
			"deployment did not answer", "the control plane did not answer",
			"deployment answered", "the control plane answered",
			"is the deployment restarting?", "is the control plane restarting?",
			"is "+SettingTarget.mark()+" an agent-sdk deployment?", "is "+SettingControlPlane.mark()+" a control plane?",
			SettingTarget.mark(), SettingControlPlane.mark()).Replace(e.Message)
	}
	return err
}

// TeamQuery is the extra query of every request to a resolved deployment.
func TeamQuery(teamID string) url.Values {
	if teamID == "" {
		return nil
	}
	return url.Values{queryTeamID: {teamID}}
}

// requireHTTPS refuses plain http:// unless the host is loopback.
func requireHTTPS(u *url.URL, what string) error {
	if u.Scheme == "https" || isLoopback(u.Hostname()) {
		return nil
	}
	return usageError("%s %s must be https:// (plain http:// is allowed only for loopback hosts)", what, displayURL(u))
}

// teamList is "Acme (42), Beta (7)".
func teamList(ds []deployment) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%s (%s)", d.TeamName, d.TeamID)
		if d.TeamName == "" {
			parts[i] = "team " + string(d.TeamID)
		}
	}
	return strings.Join(parts, ", ")
}

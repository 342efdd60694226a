package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/render"
)

// app is one agsh run: its streams, options, the deployment client and the
// session binding in force.
type app struct {
	ios *iostreams.IOStreams
	env env
	g   globals

	// out and errOut are the standard streams with the credentials redacted.
	out, errOut io.Writer
	redactors   []*iostreams.Redactor
	secrets     []string

	client   *catalog.Client
	explicit catalog.Binding
	// binding is the binding every call carries; bound tells whether the
	// default binding has been looked up yet.
	binding catalog.Binding
	bound   bool
	// answerSession is the sessionId of the last call's answer.
	answerSession string
	// reached is set once a request reached the deployment: the session line
	// is printed only then.
	reached bool

	info    *catalog.Info
	tools   []catalog.ToolEntry
	details map[string]*catalog.ToolDetail
}

func newApp(ios *iostreams.IOStreams, e env, g globals) *app {
	a := &app{ios: ios, env: e, g: g, details: map[string]*catalog.ToolDetail{}}
	a.setSecrets(a.token())
	return a
}

// setSecrets (re)wraps the output streams so that no credential is ever
// written.
func (a *app) setSecrets(secrets ...string) {
	for _, s := range secrets {
		if s != "" {
			a.secrets = append(a.secrets, s)
		}
	}
	a.flush()
	ro := iostreams.NewRedactor(a.ios.Out, a.secrets...)
	re := iostreams.NewRedactor(a.ios.ErrOut, a.secrets...)
	a.out, a.errOut = ro, re
	a.redactors = []*iostreams.Redactor{ro, re}
}

// flush writes what the redactors hold back.
func (a *app) flush() {
	for _, r := range a.redactors {
		r.Flush()
	}
}

func (a *app) getenv(k string) string { return a.env.Getenv(k) }

// token is the explicit bearer token: the flag, else the environment,
// without surrounding white space (a value read from a file often ends in
// one). It is sent and redacted as trimmed: the header's value is trimmed
// on the wire anyway, and a padded secret would not match the token where
// a deployment echoes it.
func (a *app) token() string {
	if a.g.token != "" {
		return strings.TrimSpace(a.g.token)
	}
	return strings.TrimSpace(a.getenv("AGENT_SHELL_BEARER_TOKEN"))
}

// outOpts and errOpts are the rendering options of each stream.
func (a *app) outOpts() render.Options {
	return render.Options{TTY: a.ios.OutTTY, Color: a.ios.ColorOut, Width: a.ios.Width}
}

func (a *app) errOpts() render.Options {
	return render.Options{TTY: a.ios.ErrTTY, Color: a.ios.ColorErr, Width: a.ios.Width}
}

// connect resolves the target (a URL, or a production name through the
// control plane) and builds the client. It sends no request for a URL.
func (a *app) connect(ctx context.Context) error {
	target := a.g.target
	if target == "" {
		target = a.getenv("AGENT_SHELL_TARGET")
	}
	if target == "" {
		return &catalog.Error{ErrCode: "no_target", Exit: exitUsage,
			Message: "no target deployment: pass --target <url|name> or set AGENT_SHELL_TARGET"}
	}
	if a.g.session != "" && a.g.contToken != "" {
		return usagef("--session and --continuation-token cannot be used together; pass one of them")
	}
	a.explicit = catalog.Binding{SessionID: a.g.session, ContinuationToken: a.g.contToken}
	t, err := catalog.ParseTarget(target)
	if err != nil {
		return err
	}
	if t.URL != "" {
		if a.g.team != "" {
			return usagef("--team applies to production deployment names, not to a URL target (%s)", redactURL(t.URL))
		}
		a.client, err = catalog.New(t.URL, catalog.Options{BearerToken: a.token(), UserAgent: userAgent,
			HTTPClient: a.httpClient(), CredentialSource: "--bearer-token/AGENT_SHELL_BEARER_TOKEN"})
		return err
	}
	team := a.g.team
	if team == "" {
		team = a.getenv("AGENT_SHELL_TEAM")
	}
	cred, err := catalog.LookupCredential(a.token(), a.getenv, a.env.ReadFile, a.env.HomeDir())
	if err != nil {
		return err
	}
	a.setSecrets(cred.Token)
	api := a.getenv("AGENT_SHELL_API_URL")
	if api == "" {
		api = catalog.DefaultAPIURL
	}
	hc := a.httpClient() // one client, kept alive from resolution to the call
	base, teamID, err := catalog.Resolve(ctx, api, t.Name, team, cred, hc)
	if err != nil {
		return err
	}
	a.client, err = catalog.New(base, catalog.Options{BearerToken: cred.Token, Query: catalog.TeamQuery(teamID), UserAgent: userAgent,
		HTTPClient: hc, CredentialSource: cred.Source})
	return err
}

const userAgent = "agsh/0.1"

// httpClient is the run's HTTP client. Every answer it reads has the run's
// credentials masked before agsh decodes it, so that a tool echoing the key
// cannot show it in any form: the output streams mask whole occurrences
// only, and a table cell cut short or a value wrapped across lines would
// otherwise print a piece of it.
func (a *app) httpClient() *http.Client {
	hc := catalog.NewHTTPClient()
	var forms []string
	for _, s := range a.secrets {
		forms = append(forms, secretForms(s)...)
	}
	if len(forms) > 0 {
		hc.Transport = redactTransport{base: hc.Transport, secrets: forms}
	}
	hc.CheckRedirect = refuseDowngrade
	return hc
}

// refuseDowngrade keeps the https rule (cli.md, "Production names") through
// redirects: net/http would follow an https:// answer's redirect to plain
// http:// on the same host with the Authorization header, sending the
// credential in clear. Loopback hosts are exempt, as from the rule itself.
func refuseDowngrade(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if via[0].URL.Scheme == "https" && req.URL.Scheme != "https" && !loopbackHost(req.URL.Hostname()) {
		return fmt.Errorf("it redirected from https:// to %s; refused, the credential goes over https:// only", redactURL(req.URL.String()))
	}
	return nil
}

// loopbackHost reports localhost (or a name under it) or a loopback IP.
func loopbackHost(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// secretForms are the spellings of a secret inside a JSON answer: as it is
// (unless it holds a quote or a backslash, which JSON always escapes), and
// JSON-escaped as encoders write it (\u0026 for &, \/ for /).
func secretForms(s string) []string {
	var forms []string
	if !strings.ContainsAny(s, `"\\`) {
		forms = append(forms, s)
	}
	b, _ := json.Marshal(s)
	esc := string(b[1 : len(b)-1])
	for _, f := range []string{esc, strings.ReplaceAll(esc, "/", `\/`)} {
		if f != s && !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	return forms
}

// redactTransport masks secrets in every response body.
type redactTransport struct {
	base    http.RoundTripper
	secrets []string
}

func (t redactTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	resp.Body = redactBody{iostreams.NewRedactReader(resp.Body, t.secrets...), resp.Body}
	return resp, nil
}

type redactBody struct {
	io.Reader
	io.Closer
}

// redactURL drops userinfo from a URL for messages.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	u.User = nil
	return u.String()
}

// sessionLine prints the bound identity as the last line of standard error,
// once a request reached the deployment.
func (a *app) sessionLine() {
	if !a.reached {
		return
	}
	// The id comes from the deployment (or the command line): made safe on
	// a terminal like every other message.
	a.message(a.errOut, "", catalog.SessionLine(a.binding, a.answerSession))
}

// message prints an agsh message on w (standard error), made safe for a
// terminal.
func (a *app) message(w io.Writer, prefix, msg string) {
	msg = strings.TrimRight(msg, "\n")
	if a.ios.ErrTTY {
		msg = render.Safe(msg)
	}
	fmt.Fprintf(w, "%s%s\n", prefix, msg)
}

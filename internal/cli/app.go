package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agsh-dev/agsh/catalog"
	"github.com/agsh-dev/agsh/internal/command"
	"github.com/agsh-dev/agsh/internal/iostreams"
	"github.com/agsh-dev/agsh/internal/repl"
	"github.com/agsh-dev/agsh/internal/termbg"
	"github.com/agsh-dev/agsh/render"
)

// app is one agsh run: its streams, options, the deployment client and the
// run's view of the deployment (binding, caches: catalog.Run).
type app struct {
	ios *iostreams.IOStreams
	env Env
	g   command.Globals

	// out and errOut are the standard streams with the credentials redacted.
	out, errOut io.Writer
	redactors   []*iostreams.Redactor
	secrets     []string

	client *catalog.Client
	run    *catalog.Run
	cmds   command.Cache // each tool's command, built once

	// bg says whether the terminal's background is light, asked only when
	// colored markdown or highlighting is written.
	bg      *termbg.Detector
	spinOut io.Writer            // standard error's terminal, for the spinner and the write guard's question (not held by the pager)
	term    *repl.Terminal       // the running REPL's terminal, which a question is asked through; nil outside the REPL
	late    []command.LateOption // connection options after the command name
	// taken: the launch's scan took every one of agsh's options from the
	// one-shot command's words (command.Line.Taken): they are not walked
	// again (commandLine).
	taken bool
	// answerBound, when set, bounds every answer below the usual bounds
	// (shell completion's requests).
	answerBound int64
	// proxy are the proxy settings of the environment.
	proxy catalog.ProxySettings
	// stdinRead: an @- value read standard input (it can be read once).
	stdinRead bool
	// cred is where the credential sent came from, credFlag that it was
	// --bearer-token (for :curl, which spells it).
	cred     catalog.CredentialOrigin
	credFlag bool
	// credToken is the credential sent ("" when none), teamID the team a
	// production name resolved to, connectErr why connect failed (only
	// :status goes on without a client): for :status, which never shows
	// the credential, only where it came from and its length.
	credToken  string
	teamID     string
	connectErr error
	// debug: AGSH_DEBUG asks for every request and answer on standard error
	// (catalog.WithDebug); never for completion.
	debug bool
	// yesEnv: AGSH_YES says yes, as --yes at launch does (the write guard).
	yesEnv bool

	// putLine, in the REPL, puts a line on the editor for the next input
	// (:replay); nil elsewhere.
	putLine func(string)
}

// debugWanted reports whether AGSH_DEBUG asks for the wire: a list of
// words (commas or blanks between) holding "api".
func debugWanted(v string) bool {
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if strings.EqualFold(w, "api") {
			return true
		}
	}
	return false
}

// withDebug is ctx whose requests are logged on w when AGSH_DEBUG asks for
// it (w is the standard error of the command the requests are for).
func (a *app) withDebug(ctx context.Context, w io.Writer) context.Context {
	if !a.debug {
		return ctx
	}
	return catalog.WithDebug(ctx, w)
}

// commandLine is the line of meta command name's words (after its name):
// a one-shot command's were read by the launch's scan, and are not walked
// again when it took every one of agsh's options (a.taken); the shell's
// are scanned here.
func (a *app) commandLine(name string, words []string, inShell bool) command.Line {
	if !inShell && a.taken {
		return command.ScannedWords(words)
	}
	return command.ScanMetaWords(name, words)
}

// errWriter writes on the app's standard error as it is at the time of the
// write (the pager replaces it once a one-shot command starts).
type errWriter struct{ a *app }

func (w errWriter) Write(p []byte) (int, error) { return w.a.errOut.Write(p) }

func newApp(ios *iostreams.IOStreams, e Env, g command.Globals) *app {
	if g.Values == nil {
		g.Values = map[string]string{}
	}
	a := &app{ios: ios, env: e, g: g, bg: &termbg.Detector{ColorFGBG: e.Getenv("COLORFGBG"), TTYPath: "/dev/tty"}, spinOut: ios.ErrOut}
	a.proxy = catalog.ProxyFromEnv(e.Getenv)
	// A proxy URL's user and password are credentials too.
	a.setSecrets(append([]string{a.token()}, a.proxy.Secrets()...)...)
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

// lookupEnv tells an empty variable from an unset one (AGSH_PAGER=).
func (a *app) lookupEnv(k string) (string, bool) {
	return a.env.LookupEnv(k)
}

// option is a global option's value: the flag, else its environment
// variable.
func (a *app) option(name, env string) string {
	if v := a.g.Get(name); v != "" {
		return v
	}
	return a.getenv(env)
}

// token is the explicit bearer token without surrounding white space (a
// value read from a file often ends in one). It is sent and redacted as
// trimmed: the header's value is trimmed on the wire anyway, and a padded
// secret would not match the token where a deployment echoes it.
func (a *app) token() string {
	return strings.TrimSpace(a.option("--bearer-token", "AGENT_SHELL_BEARER_TOKEN"))
}

// outOpts and errOpts are the rendering options of each stream.
func (a *app) outOpts() render.Options {
	return render.Options{TTY: a.ios.OutTTY, Color: a.ios.ColorOut, Width: a.ios.CurrentWidth(),
		Light: a.bg.Light, GlamourStyle: a.getenv("GLAMOUR_STYLE")}
}

func (a *app) errOpts() render.Options {
	return render.Options{TTY: a.ios.ErrTTY, Color: a.ios.ColorErr, Width: a.ios.CurrentWidth()}
}

// connect resolves the target (a URL, or a production name through the
// control plane) and builds the client. It sends no request for a URL.
func (a *app) connect(ctx context.Context) error {
	target := a.option("--target", "AGENT_SHELL_TARGET")
	if target == "" {
		return catalog.NoTarget()
	}
	session, contToken := a.g.Get("--session"), a.g.Get("--continuation-token")
	if session != "" && contToken != "" {
		return command.Usagef("--session and --continuation-token cannot be used together; pass one of them")
	}
	t, err := catalog.ParseTarget(target)
	if err != nil {
		return err
	}
	if t.URL != "" {
		a.cred, a.credFlag = catalog.CredentialOrigin{Var: catalog.TokenVariable}, a.g.Get("--bearer-token") != ""
		a.credToken = a.token()
		if a.g.Get("--team") != "" {
			return command.Usagef("--team applies to production deployment names, not to a URL target (%s)", redactURL(t.URL))
		}
		a.client, err = a.newClient(t.URL, catalog.Options{BearerToken: a.token(), UserAgent: userAgent,
			HTTPClient: a.httpClient(), CredentialSource: "--bearer-token/AGENT_SHELL_BEARER_TOKEN"})
	} else {
		err = a.resolve(ctx, t.Name)
	}
	a.run = catalog.NewRun(a.client, catalog.Binding{SessionID: session, ContinuationToken: contToken})
	return err
}

// resolve builds the client of a production deployment name.
func (a *app) resolve(ctx context.Context, name string) error {
	cred, err := catalog.LookupCredential(a.token(), a.getenv, a.env.ReadFile, a.env.HomeDir())
	if err != nil {
		return err
	}
	a.setSecrets(cred.Token)
	a.cred, a.credToken = cred.From, cred.Token
	a.credFlag = cred.From.Var == catalog.TokenVariable && strings.TrimSpace(a.g.Get("--bearer-token")) != ""
	api := a.getenv("AGENT_SHELL_API_URL")
	if api == "" {
		api = catalog.DefaultAPIURL
	}
	hc := a.httpClient() // one client, kept alive from resolution to the call
	base, teamID, err := catalog.Resolve(ctx, api, name, a.option("--team", "AGENT_SHELL_TEAM"), cred, hc)
	if err != nil {
		return err
	}
	a.teamID = teamID
	a.client, err = a.newClient(base, catalog.Options{BearerToken: cred.Token, Query: catalog.TeamQuery(teamID), UserAgent: userAgent,
		HTTPClient: hc, CredentialSource: cred.Source})
	return err
}

const userAgent = "agsh/0.1"

// sessionLine prints the bound identity as the last line of standard error:
// after a command that made a call (catalog.Run.Called), or when a shell
// that bound its session exits (bound).
func (a *app) sessionLine(bound bool) {
	if a.run == nil || !bound && !a.run.Called() {
		return
	}
	// The id comes from the deployment (or the command line): made safe on
	// a terminal like every other message.
	a.message(a.errOut, "", a.run.SessionLine())
}

// message prints an agsh message on w (standard error), made safe for a
// terminal.
func (a *app) message(w io.Writer, prefix, msg string) {
	msg = strings.TrimRight(msg, "\n")
	if a.ios.ErrTTY {
		msg = render.SafeLabel(msg)
	}
	fmt.Fprintf(w, "%s%s\n", prefix, msg)
}

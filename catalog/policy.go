package catalog

import (
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The HTTP policy of a run: what the one HTTP client of a run enforces on
// every request, whichever Client (deployment or control plane) sends it.
//
//   - A redirect keeps the credential only to the exact origin (scheme,
//     host and port) it was meant for, the first request's; to any other
//     origin (another port of the same host included) the Authorization
//     header is dropped.
//   - A POST (a call) follows only a 307 or 308 to the same origin; any
//     other redirect of a POST is refused: the call did not run.
//   - A redirect from https:// to plain http:// is refused unless the
//     host is loopback (docs/cli.md#credentials).
//   - Every answer is read with the secrets masked in every spelling JSON
//     allows, so no decoded string holds one.
//   - NoHTTP2 speaks HTTP/1.1 only: GODEBUG=http2debug logs HTTP/2 frames,
//     headers and bodies, with log's standard logger, unredacted.

// HTTPPolicy configures NewHTTPClientWith.
type HTTPPolicy struct {
	// Secrets are masked as "***" in every answer read (shorter than 4
	// bytes: ignored).
	Secrets []string
	// NoHTTP2 turns HTTP/2 off (set it while GODEBUG names http2debug).
	NoHTTP2 bool
	// Proxy, when set, are the proxy settings (the program's environment,
	// ProxyFromEnv); nil: the process's, as net/http reads them.
	Proxy *ProxySettings
	// Debug logs the requests whose context carries a writer (WithDebug):
	// AGSH_DEBUG=api.
	Debug bool
}

// NewHTTPClient returns the one HTTP client a run should share: keep-alive,
// a connect timeout of DefaultConnectTimeout, the environment's proxy
// settings (HTTPS_PROXY, NO_PROXY, as every HTTP client honours them), no
// overall time limit (the Client bounds each GET itself), and the redirect
// rules of the HTTP policy.
func NewHTTPClient() *http.Client { return NewHTTPClientWith(HTTPPolicy{}) }

// NewHTTPClientWith is NewHTTPClient with the policy p: secrets masked in
// every answer, HTTP/2 off on request.
func NewHTTPClientWith(p HTTPPolicy) *http.Client {
	dialer := &net.Dialer{Timeout: DefaultConnectTimeout, KeepAlive: 30 * time.Second}
	proxy := http.ProxyFromEnvironment
	if p.Proxy != nil {
		proxy = p.Proxy.proxyFunc()
	}
	tr := &http.Transport{
		Proxy:                  proxy,
		OnProxyConnectResponse: onProxyConnect,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      !p.NoHTTP2,
		MaxIdleConns:           16,
		MaxIdleConnsPerHost:    8,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    DefaultConnectTimeout,
		ExpectContinueTimeout:  time.Second,
	}
	if p.NoHTTP2 {
		tr.Protocols = new(http.Protocols)
		tr.Protocols.SetHTTP1(true)
	}
	hc := &http.Client{Transport: tr, CheckRedirect: checkRedirect}
	secrets := secretSpellings(p.Secrets)
	if len(secrets) > 0 {
		hc.Transport = redactTransport{base: tr, secrets: secrets}
	}
	if p.Debug {
		// Outermost: it sees the answers masked, and the requests as sent.
		hc.Transport = newDebugTransport(hc.Transport, secrets)
	}
	return hc
}

// secretSpellings are the secrets worth masking, without repeats.
func secretSpellings(secrets []string) []string {
	var out []string
	for _, s := range secrets {
		if len(s) >= minSecretBytes && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// maxRedirects is how many redirects one request follows.
const maxRedirects = 10

// redirectError is a redirect the policy refuses; the request was not
// sent on.
type redirectError struct {
	// post: the refused request was a call, which therefore did not run;
	// status is the redirect's status, to the origin it named when that
	// was the reason, from the call's own origin.
	post     bool
	status   int
	to, from string
	// downgrade is the plain http:// URL an https:// answer redirected to.
	downgrade string
}

func (e *redirectError) Error() string {
	switch {
	case e.downgrade != "":
		return "it redirected from https:// to " + e.downgrade + "; refused, the credential goes over https:// only"
	case e.to != "":
		return "it redirected the call to another origin (" + e.to + "); refused: a call and its credential go only to " +
			e.from + ", so the call did not run"
	}
	return "it answered " + statusText(e.status) + "; agsh follows no such redirect for a call, so the call did not run"
}

// text is the message of the refusal of r.
func (e *redirectError) text(r *request) string {
	switch {
	case e.downgrade != "":
		return e.Error()
	case e.to != "":
		return "deployment redirected " + r.route() + " to another origin (" + e.to + "); refused: a call and its credential go only to " +
			e.from + ", so the call did not run"
	}
	return "deployment answered " + r.route() + " with " + statusText(e.status) +
		"; agsh follows no such redirect for a call, so the call did not run"
}

// statusText is "302 Found".
func statusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return itoa(status) + " " + t
	}
	return itoa(status)
}

// checkRedirect is the client's CheckRedirect (see the policy above).
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return errors.New("stopped after 10 redirects")
	}
	prev, first := via[len(via)-1], via[0]
	if first.Method != http.MethodGet && first.Method != http.MethodHead {
		status := 0
		if req.Response != nil {
			status = req.Response.StatusCode
		}
		if status != http.StatusTemporaryRedirect && status != http.StatusPermanentRedirect {
			return &redirectError{post: true, status: status}
		}
		if !sameOrigin(first.URL, req.URL) {
			return &redirectError{post: true, status: status, to: origin(req.URL), from: origin(first.URL)}
		}
	}
	if prev.URL.Scheme == "https" && req.URL.Scheme != "https" && !isLoopback(req.URL.Hostname()) {
		return &redirectError{downgrade: RedactURL(req.URL.String())}
	}
	if !sameOrigin(first.URL, req.URL) {
		req.Header.Del("Authorization")
	}
	return nil
}

// origin is scheme://host:port of u, the port always given, the host in
// lower case.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// sameOrigin compares scheme, host and port.
func sameOrigin(a, b *url.URL) bool { return origin(a) == origin(b) }

// RedactURL drops userinfo from a URL for messages.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return stripUserinfo(s)
	}
	if u.User == nil {
		return s
	}
	u.User = nil
	return u.String()
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
	resp.Body = redactBody{newRedactReader(resp.Body, t.secrets), resp.Body}
	return resp, nil
}

type redactBody struct {
	io.Reader
	io.Closer
}

// URLPassword is the password of a URL's userinfo ("" when none): a
// secret of the run like the token, masked wherever agsh writes.
func URLPassword(target string) string {
	u, err := url.Parse(strings.TrimSpace(target))
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}

// URLSecrets are the secrets of a URL's userinfo: its password and the
// credential net/http sends for it (base64 of "user:password", which a
// deployment that echoes its request headers would show); nil when it has
// no password.
func URLSecrets(target string) []string {
	u, err := url.Parse(strings.TrimSpace(target))
	if err != nil || u.User == nil {
		return nil
	}
	p, ok := u.User.Password()
	if !ok || p == "" {
		return nil
	}
	return []string{p, base64.StdEncoding.EncodeToString([]byte(u.User.Username() + ":" + p))}
}

// PlainHTTPWarning is the warning of a credential about to go over plain
// http:// to a host off loopback, naming the host; "" when there is none.
func (c *Client) PlainHTTPWarning() string {
	if c.base.Scheme != "http" || isLoopback(c.base.Hostname()) {
		return ""
	}
	if c.opts.BearerToken == "" && c.base.User == nil {
		return ""
	}
	return "warning: the credential goes to " + c.base.Hostname() + " over plain http://, unencrypted; use https://"
}

package catalog

import (
	"context"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpproxy"
)

// Proxy settings: the variables every HTTP client honours (HTTPS_PROXY,
// HTTP_PROXY, NO_PROXY, and their lower-case spellings), as the program
// read them. A proxy URL's user and password are secrets like the token:
// masked in everything agsh writes, their basic-auth form too
// (docs/cli.md#credentials).

// ProxySettings are the proxy variables' values.
type ProxySettings struct {
	HTTPProxy, HTTPSProxy, NoProxy string
}

// ProxyFromEnv reads the proxy variables through getenv, the upper-case
// spelling first, as net/http does.
func ProxyFromEnv(getenv func(string) string) ProxySettings {
	first := func(names ...string) string {
		for _, n := range names {
			if v := getenv(n); v != "" {
				return v
			}
		}
		return ""
	}
	return ProxySettings{
		HTTPProxy:  first("HTTP_PROXY", "http_proxy"),
		HTTPSProxy: first("HTTPS_PROXY", "https_proxy"),
		NoProxy:    first("NO_PROXY", "no_proxy"),
	}
}

// func is the proxy of each request, by net/http's rules.
func (p ProxySettings) proxyFunc() func(*http.Request) (*url.URL, error) {
	f := (&httpproxy.Config{HTTPProxy: p.HTTPProxy, HTTPSProxy: p.HTTPSProxy, NoProxy: p.NoProxy}).ProxyFunc()
	return func(r *http.Request) (*url.URL, error) { return f(r.URL) }
}

// Secrets are the proxy URLs' credentials in every spelling a message or
// an echo could show: the user, the password, both as written (escaped)
// and decoded, and the basic-auth value of the pair.
func (p ProxySettings) Secrets() []string {
	var out []string
	for _, raw := range []string{p.HTTPProxy, p.HTTPSProxy} {
		u := parseProxy(raw)
		if u == nil || u.User == nil {
			continue
		}
		user := u.User.Username()
		pass, _ := u.User.Password()
		out = append(out, user, pass, base64.StdEncoding.EncodeToString([]byte(user+":"+pass)))
		if at := strings.LastIndex(raw, "@"); at >= 0 {
			info := raw[:at]
			if i := strings.Index(info, "://"); i >= 0 {
				info = info[i+3:]
			}
			wu, wp, _ := strings.Cut(info, ":")
			out = append(out, wu, wp)
		}
	}
	return out
}

// parseProxy reads a proxy variable's value as net/http does (a value
// without a scheme is http://); nil when it is none.
func parseProxy(raw string) *url.URL {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		if u2, err2 := url.Parse("http://" + raw); err2 == nil {
			return u2
		}
		return nil
	}
	return u
}

// proxyError is a proxy's refusal of the tunnel (CONNECT) to an https://
// target: its status, and the proxy.
type proxyError struct {
	status int
	text   string
	proxy  string // host:port
}

func (e *proxyError) Error() string { return "the proxy " + e.proxy + " answered " + e.text }

// onProxyConnect turns a proxy's refusal of CONNECT into a proxyError, so
// that the message names the proxy and its status.
func onProxyConnect(_ context.Context, proxy *url.URL, _ *http.Request, resp *http.Response) error {
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	return &proxyError{status: resp.StatusCode, text: resp.Status, proxy: proxy.Host}
}

// proxyHost is the proxy a request to u goes through ("" for none).
func (c *Client) proxyHost(u *url.URL) string {
	tr := transportOf(c.hc)
	if tr == nil || tr.Proxy == nil {
		return ""
	}
	p, err := tr.Proxy(&http.Request{URL: u, Header: http.Header{}})
	if err != nil || p == nil {
		return ""
	}
	return p.Host
}

// transportOf is the *http.Transport under hc's policy layers, nil when
// there is none.
func transportOf(hc *http.Client) *http.Transport {
	switch t := hc.Transport.(type) {
	case *http.Transport:
		return t
	case redactTransport:
		if tr, ok := t.base.(*http.Transport); ok {
			return tr
		}
	case nil:
		if tr, ok := http.DefaultTransport.(*http.Transport); ok {
			return tr
		}
	}
	return nil
}

// proxyFailure is the *Error of a request that failed at the proxy (it
// refused the tunnel, or could not be reached); nil when err is none of
// those. A 407 is proxy_auth: the proxy's credentials are missing or
// wrong.
func (c *Client) proxyFailure(r *request, err error) *Error {
	var pe *proxyError
	if errors.As(err, &pe) {
		if pe.status == http.StatusProxyAuthRequired {
			return c.proxyAuth(r, pe.proxy, pe.status)
		}
		return c.fail(&Error{ErrCode: CodeUnreachable, Route: r.route(), Tool: r.tool, Err: err,
			Message: "the proxy " + pe.proxy + " refused to carry " + r.route() + " to " + c.hostDisplay(r) +
				" (" + pe.text + "); check " + SettingProxy.mark()})
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "proxyconnect" {
		proxy := c.proxyHost(c.endpoint(r.root, r.path, nil))
		if proxy == "" {
			proxy = "in use"
		}
		return c.fail(&Error{ErrCode: CodeUnreachable, Route: r.route(), Tool: r.tool, Err: err,
			Message: "cannot reach the proxy " + proxy + " (for " + c.targetDisplay(r) + "): " +
				strings.Replace(reachText(op.Err), SettingTarget.mark(), SettingProxy.mark(), 1)})
	}
	return nil
}

// proxyAuth is the *Error of a 407: exit 5, code proxy_auth, naming the
// proxy.
func (c *Client) proxyAuth(r *request, proxy string, status int) *Error {
	who := "the proxy " + proxy
	if proxy == "" {
		who = "the deployment (no proxy is set)"
	}
	return c.fail(&Error{ErrCode: CodeProxyAuth, Status: status, Route: r.route(), Tool: r.tool, Exit: ExitUnreachable,
		Message: who + " asked for proxy credentials on " + r.route() + " (407 Proxy Authentication Required): " +
			"they are missing or wrong; check " + SettingProxy.mark()})
}

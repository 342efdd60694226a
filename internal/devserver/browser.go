package devserver

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/agsh-dev/agsh/internal/wire"
)

// codeUnsupportedMediaType answers a POST whose body is declared as
// something other than JSON.
const codeUnsupportedMediaType = "unsupported_media_type"

// Browsers must not reach the server (docs/devserver.md#browser-protections):
// a web page can send requests to a loopback port, and DNS rebinding lets it
// read the answers.
//
//   - In the loopback mode (no --allow-anonymous, and no --bearer-token or a
//     loopback listen address) a Host other than the listen address,
//     localhost or a loopback literal is refused: a rebound name is none of
//     those.
//   - In every mode an Origin that is not the server's own origin is
//     refused, and so is a request a browser marks cross-site
//     (Sec-Fetch-Site).
//   - A POST whose Content-Type is present and not application/json is
//     refused with 415 (a form or text/plain POST needs no CORS preflight).

// browserPolicy is what the browser checks need to know of the server.
type browserPolicy struct {
	checkHost  bool
	listenHost string // the host of the configured listen address
}

// newBrowserPolicy derives the policy from the listen address and the auth
// mode.
func newBrowserPolicy(addr string, tokens int, anonymous bool) browserPolicy {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	loopbackListen := strings.EqualFold(host, "localhost") || isLoopbackIP(host)
	shared := anonymous || (tokens > 0 && !loopbackListen)
	return browserPolicy{checkHost: !shared, listenHost: strings.ToLower(host)}
}

// check refuses a request a browser could have sent on a web page's
// behalf; boundHost is the host of the address the server listens on ("" before
// Start).
func (p browserPolicy) check(r *http.Request, boundHost string) *apiError {
	if p.checkHost && r.Host != "" && !p.hostAllowed(r.Host, boundHost) {
		return errorf(http.StatusForbidden, wire.CodeForbidden, fmt.Sprintf(
			"the Host header %q names neither this server's address nor a loopback address; a server in loopback mode answers only http://localhost, http://127.0.0.1 or its listen address", clip(r.Host, 100)))
	}
	for _, o := range r.Header.Values("Origin") {
		if !sameOrigin(o, r.Host) {
			return errorf(http.StatusForbidden, wire.CodeForbidden, fmt.Sprintf(
				"cross-origin request refused (Origin %q): web pages cannot use this server", clip(o, 100)))
		}
	}
	switch strings.ToLower(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site"))) {
	case "cross-site", "same-site":
		return errorf(http.StatusForbidden, wire.CodeForbidden,
			"cross-site request refused (Sec-Fetch-Site): web pages cannot use this server")
	}
	return nil
}

// hostAllowed reports whether a Host header names the server in loopback
// mode: localhost, a loopback literal, or the listen host.
func (p browserPolicy) hostAllowed(hostport, boundHost string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "" {
		return false
	}
	return host == "localhost" || isLoopbackIP(host) || host == p.listenHost || host == strings.ToLower(boundHost)
}

// isLoopbackIP reports whether s is a loopback IP literal.
func isLoopbackIP(s string) bool {
	ip := net.ParseIP(s)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether an Origin header is the server's own origin:
// http, and the host and port of the request's Host.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(strings.TrimSpace(origin))
	if err != nil || u.Scheme != "http" || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return false // "null", https, a file: page…
	}
	return strings.EqualFold(withPort(u.Host), withPort(host))
}

// withPort adds HTTP's default port to a host without one.
func withPort(hostport string) string {
	if _, _, err := net.SplitHostPort(hostport); err == nil {
		return hostport
	}
	return net.JoinHostPort(strings.Trim(hostport, "[]"), "80")
}

// checkPostBody refuses a POST body larger than limit (413, checked first)
// or declared as something other than JSON (415). A declared length decides
// the 413 before anything is read; a body of unknown length (chunked) that
// is not JSON is read, up to limit and discarded, to tell the two apart.
func checkPostBody(r *http.Request, limit int64) *apiError {
	if r.ContentLength > limit {
		return tooLargeError(limit)
	}
	for _, ct := range r.Header.Values("Content-Type") {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			if r.ContentLength < 0 && r.Body != nil {
				n, err := io.CopyN(io.Discard, r.Body, limit+1)
				if n > limit {
					return tooLargeError(limit)
				}
				if errors.Is(err, errBodyStalled) {
					return stalledError()
				}
			}
			return errorf(http.StatusUnsupportedMediaType, codeUnsupportedMediaType, fmt.Sprintf(
				"the request body must be JSON, sent with Content-Type: application/json (not %q)", clip(ct, 100)))
		}
	}
	return nil
}

// clip cuts s to at most n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

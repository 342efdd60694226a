package main

import (
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
)

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

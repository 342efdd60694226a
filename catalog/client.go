package catalog

import (
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
)

// Default limits (docs/cli.md#timeouts-and-interruption).
const (
	// DefaultConnectTimeout bounds connecting (NewHTTPClient's dialer).
	DefaultConnectTimeout = 10 * time.Second
	// DefaultHeaderTimeout bounds each GET attempt up to the response
	// headers, and each pause of a GET's body.
	DefaultHeaderTimeout = 30 * time.Second
	// DefaultGetTimeout bounds each GET attempt as a whole, its body
	// included: a body that trickles a byte at a time cannot hold a
	// discovery request forever.
	DefaultGetTimeout = 60 * time.Second
	// DefaultStallTimeout bounds each pause of a POST's body once its
	// headers arrived (the call itself has no time limit).
	DefaultStallTimeout = 60 * time.Second
)

// DefaultRetryBackoff are the pauses before the two retries of a GET.
func DefaultRetryBackoff() []time.Duration {
	return []time.Duration{100 * time.Millisecond, 300 * time.Millisecond}
}

// Options configure a Client. The zero value is a loopback development
// client: no credential, default limits, a client of its own.
type Options struct {
	// BearerToken is sent as "Authorization: Bearer" on every request when
	// set. It never appears in an error.
	BearerToken string
	// CredentialSource names where the token came from, for messages
	// ("CURSOR_API_KEY"); never the value.
	CredentialSource string
	// Query is added to every request (teamId=… for production names).
	Query url.Values
	// HTTPClient is the client to use; nil: a new NewHTTPClient(). Pass
	// one client to everything of a run so that connections are reused.
	// Its Timeout must be 0: it would bound a POST, which has no limit.
	HTTPClient *http.Client
	// UserAgent is sent when set.
	UserAgent string
	// HeaderTimeout bounds each GET attempt up to the response headers
	// and each pause while its body arrives; 0: DefaultHeaderTimeout. A POST
	// has no time limit.
	HeaderTimeout time.Duration
	// RetryBackoff are the pauses before each retry of a GET; nil:
	// DefaultRetryBackoff() (two retries). Its length is the retry count.
	RetryBackoff []time.Duration
	// GetTimeout bounds each GET attempt as a whole, headers and body;
	// 0: DefaultGetTimeout.
	GetTimeout time.Duration
	// StallTimeout bounds each pause of a POST's body after its headers;
	// 0: DefaultStallTimeout.
	StallTimeout time.Duration
	// MaxAnswerBytes bounds a call's answer after decompression; 0:
	// DefaultMaxAnswerBytes.
	MaxAnswerBytes int64
	// MaxListingBytes bounds every other answer; 0: DefaultMaxListingBytes.
	MaxListingBytes int64
	// MaxStreamedBytes bounds a call's answer once its result streams
	// (CallStream); 0: DefaultMaxStreamedBytes. It never lowers
	// MaxAnswerBytes.
	MaxStreamedBytes int64
	// LimitHint, when set, is added to the message of an answer past its
	// bound: what raises it ("set AGSH_MAX_ANSWER_BYTES to raise it").
	LimitHint string
}

// Client talks to one agent deployment. It is safe for concurrent use.
type Client struct {
	base    *url.URL // the target, without a trailing slash
	host    *url.URL // scheme and host of the target, for /v1/agents
	display string   // the target for messages: no userinfo, no query
	opts    Options
	hc      *http.Client
	// maxSkip, when set, replaces MaxSkipBytes (tests).
	maxSkip int64
}

// New returns a client of the deployment at target, an http:// or https://
// URL naming one agent (its mount included). A trailing slash is ignored;
// userinfo is sent as basic auth by net/http but never printed.
func New(target string, opts Options) (*Client, error) {
	u, err := parseTargetURL(target)
	if err != nil {
		return nil, err
	}
	if strings.ContainsFunc(opts.BearerToken, unicode.IsControl) {
		src := opts.CredentialSource
		if src == "" {
			src = "the bearer token"
		}
		return nil, credentialError("the credential from %s holds a line break or another control character; "+
			"a token is a single line", src)
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = NewHTTPClient()
	}
	if opts.HeaderTimeout <= 0 {
		opts.HeaderTimeout = DefaultHeaderTimeout
	}
	if opts.RetryBackoff == nil {
		opts.RetryBackoff = DefaultRetryBackoff()
	}
	if opts.GetTimeout <= 0 {
		opts.GetTimeout = DefaultGetTimeout
	}
	if opts.StallTimeout <= 0 {
		opts.StallTimeout = DefaultStallTimeout
	}
	if opts.MaxAnswerBytes <= 0 {
		opts.MaxAnswerBytes = DefaultMaxAnswerBytes
	}
	if opts.MaxListingBytes <= 0 {
		opts.MaxListingBytes = DefaultMaxListingBytes
	}
	if opts.MaxStreamedBytes <= 0 {
		opts.MaxStreamedBytes = DefaultMaxStreamedBytes
	}
	host := &url.URL{Scheme: u.Scheme, User: u.User, Host: u.Host}
	return &Client{base: u, host: host, display: displayURL(u), opts: opts, hc: hc}, nil
}

// parseTargetURL checks an http(s) URL with a host and drops a trailing
// slash, a query and a fragment (extra query goes in Options.Query).
func parseTargetURL(target string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(target))
	if err != nil {
		return nil, usageError("target %q is not a valid URL", stripUserinfo(target))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, usageError("target %s is not an http:// or https:// URL", displayURL(u))
	}
	if u.Host == "" || u.Opaque != "" {
		return nil, usageError("target %q has no host; expected http://host:port/<agent>", stripUserinfo(target))
	}
	u.RawQuery, u.Fragment, u.RawFragment, u.ForceQuery = "", "", "", false
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = strings.TrimRight(u.RawPath, "/")
	return u, nil
}

// stripUserinfo drops "user:pass@" from a URL-like string that failed to
// parse, so that no message shows it.
func stripUserinfo(s string) string {
	scheme := strings.Index(s, "://")
	rest := s
	if scheme >= 0 {
		rest = s[scheme+3:]
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
		return s[:len(s)-len(rest)] + rest[at+1:]
	}
	return s
}

// Target is the target URL as messages show it: no userinfo, no query.
func (c *Client) Target() string { return c.display }

// endpoint is the URL of rawPath (already escaped) under root (the base
// or the host root), with the options' query and extra merged in.
func (c *Client) endpoint(root *url.URL, rawPath string, extra url.Values) *url.URL {
	u := *root
	esc := root.EscapedPath() + rawPath
	p, err := url.PathUnescape(esc)
	if err != nil {
		p = root.Path + rawPath
	}
	u.Path, u.RawPath = p, esc
	if len(c.opts.Query) > 0 || len(extra) > 0 {
		q := url.Values{}
		for k, v := range c.opts.Query {
			q[k] = append(q[k], v...)
		}
		for k, v := range extra {
			q[k] = append(q[k], v...)
		}
		u.RawQuery = q.Encode()
	}
	return &u
}

// toolPath is "/v1/tools/{name}" with name path-escaped (a "/" in a name
// stays inside the segment).
func toolPath(name string) string {
	return pathTools + "/" + url.PathEscape(name)
}

package catalog

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/url"
	"strconv"
	"syscall"
	"unicode/utf8"
)

// transportError classifies a failure before the response headers: the
// caller's cancellation (130), a timeout (5, retried), a connection reset
// or a connection closed without an answer (5, retried), anything else
// that kept the deployment out of reach (5).
func (c *Client) transportError(ctx context.Context, r *request, err error, timedOut bool) (*Error, bool) {
	if ctx.Err() != nil {
		return c.interrupted(ctx, r, false), false
	}
	base := &Error{Route: r.route(), Tool: r.tool, Err: err}
	var ne net.Error
	var redirect *redirectError
	if pe := c.proxyFailure(r, err); pe != nil {
		return pe, false
	}
	switch {
	case errors.As(err, &redirect) && redirect.post:
		base.ErrCode = CodeBadResponse
		base.Message = redirect.text(r)
		return c.fail(base), false
	case timedOut:
		base.ErrCode = CodeTimeout
		base.Message = "deployment did not answer " + r.route() + " within " +
			c.opts.HeaderTimeout.String() + " (" + c.targetDisplay(r) + ")"
		return c.fail(base), true
	case errors.As(err, &ne) && ne.Timeout():
		base.ErrCode = CodeTimeout
		base.Message = "deployment did not answer: connecting to " + c.hostDisplay(r) + " timed out (" +
			c.targetDisplay(r) + ")"
		return c.fail(base), true
	case isReset(err):
		base.ErrCode = CodeUnreachable
		base.Message = "the connection to " + c.hostDisplay(r) + " was closed before an answer to " + r.route()
		if !r.get() {
			base.Message += ", so the call may or may not have run"
		}
		base.Message += "; is the deployment restarting? (" + causeText(err) + ")"
		return c.fail(base), true
	}
	base.ErrCode = CodeUnreachable
	base.Message = "cannot reach the deployment at " + c.targetDisplay(r) + ": " + reachText(err)
	return c.fail(base), false
}

// targetDisplay names what r was sent to: the target, or the host root.
func (c *Client) targetDisplay(r *request) string {
	if r.root == c.host {
		return displayURL(c.host)
	}
	return c.display
}

// hostDisplay is the host of the target, e.g. "127.0.0.1:39400".
func (c *Client) hostDisplay(*request) string { return c.base.Host }

// isReset reports a connection reset, or one closed without any answer.
func isReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// isNetError reports a failure of the connection itself.
func isNetError(err error) bool {
	var ne net.Error
	var op *net.OpError
	return errors.As(err, &ne) || errors.As(err, &op)
}

// reachText says why a connection failed and what to check.
func reachText(err error) string {
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostname x509.HostnameError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused; is it running, and is " + SettingTarget.mark() + " right?"
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "no such host " + strconv.Quote(dns.Name) + "; check " + SettingTarget.mark()
		}
		return "cannot resolve " + strconv.Quote(dns.Name) + ": " + dns.Err
	case errors.As(err, &cert), errors.As(err, &unknownAuth), errors.As(err, &hostname):
		return "its TLS certificate is not trusted: " + causeText(err)
	}
	return causeText(err)
}

// causeText is err's text without the URL that *url.Error adds (a URL may
// carry userinfo).
func causeText(err error) string {
	var ue *url.Error
	for errors.As(err, &ue) {
		err = ue.Err
	}
	if err == nil {
		return "unknown error"
	}
	return clipText(err.Error(), maxCauseText)
}

// maxCauseText bounds the text of a transport error in a message: net/http
// quotes what the deployment sent (a malformed header line of up to
// megabytes), and a message stays one readable line.
const maxCauseText = 300

// clipText cuts s to at most n bytes (not inside a character), marking the
// cut with "…".
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func itoa(i int) string { return strconv.Itoa(i) }

package catalog

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// minSecret is the shortest secret that is redacted; shorter ones would
// mangle ordinary text without protecting anything (as iostreams does).
const minSecret = 4

// redact replaces every occurrence of secret in s with "***".
func redact(s, secret string) string {
	if len(secret) < minSecret || !strings.Contains(s, secret) {
		return s
	}
	return strings.ReplaceAll(s, secret, "***")
}

// redactError scrubs the secret from every text field of e and remembers it
// so that Error scrubs the composed text too.
func redactError(e *Error, secret string) *Error {
	if len(secret) < minSecret {
		return e
	}
	e.secret = secret
	e.ErrCode = redact(e.ErrCode, secret)
	e.Message = redact(e.Message, secret)
	e.SessionID = redact(e.SessionID, secret)
	e.Tool = redact(e.Tool, secret)
	e.Route = redact(e.Route, secret)
	for i, a := range e.Available {
		e.Available[i] = redact(a, secret)
	}
	for i := range e.Issues {
		e.Issues[i].Message = redact(e.Issues[i].Message, secret)
		for j, p := range e.Issues[i].Path {
			if s, ok := p.(string); ok {
				e.Issues[i].Path[j] = redact(s, secret)
			}
		}
	}
	return e
}

// displayURL is u without userinfo, query or fragment: what messages name.
func displayURL(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery = ""
	c.ForceQuery = false
	c.Fragment = ""
	c.RawFragment = ""
	return strings.TrimSuffix(c.String(), "/")
}

// snippetLen is how many bytes of a malformed answer a message quotes.
const snippetLen = 64

// snippet quotes the first bytes of an answer for a message: the secret
// redacted (also a part of it cut by the limit), at most snippetLen bytes,
// invalid UTF-8 and control characters escaped, "…" when cut.
func snippet(b []byte, secret string) string {
	s := redact(string(b), secret)
	cut := len(s) > snippetLen
	if cut {
		s = trimSecretPrefix(s[:snippetLen], secret)
	}
	var sb strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size <= 1:
			if cut && len(s) < utf8.UTFMax && !utf8.FullRuneInString(s) {
				s = "" // a character cut by the limit
				continue
			}
			sb.WriteString(`\x`)
			sb.WriteString(strconv.FormatUint(uint64(s[0])|0x100, 16)[1:])
		case r == '"' || r == '\\':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r == ' ' || unicode.IsPrint(r):
			sb.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			sb.WriteString(q[1 : len(q)-1])
		}
		s = s[size:]
	}
	if cut {
		return `"` + sb.String() + `…"`
	}
	return `"` + sb.String() + `"`
}

// trimSecretPrefix drops a tail of s that could be the beginning of secret,
// so that a limit never leaves part of a secret behind.
func trimSecretPrefix(s, secret string) string {
	if len(secret) < minSecret {
		return s
	}
	for k := min(len(secret)-1, len(s)); k > 0; k-- {
		if strings.HasSuffix(s, secret[:k]) {
			return s[:len(s)-k]
		}
	}
	return s
}

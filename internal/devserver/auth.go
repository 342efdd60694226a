package devserver

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"strings"

	"github.com/agsh-dev/agsh/internal/wire"
)

// Principals the server admits without a token.
const (
	principalLocal     = "local"
	principalAnonymous = "anonymous"
)

// authPolicy decides who a request is: the real server's rules
// (docs/devserver.md#auth-and-principals).
type authPolicy struct {
	hashes     [][sha256.Size]byte // of the bearer tokens, compared in constant time
	principals []string
	anonymous  bool
}

func newAuthPolicy(tokens []string, anonymous bool) (*authPolicy, error) {
	p := &authPolicy{anonymous: anonymous}
	for _, t := range tokens {
		if t == "" || strings.TrimSpace(t) != t {
			return nil, errors.New("devserver: a bearer token must be non-empty and have no surrounding spaces")
		}
		h := sha256.Sum256([]byte(t))
		p.hashes = append(p.hashes, h)
		// The principal names the token without revealing it, and stays the
		// same across restarts so persisted sessions keep their owner.
		p.principals = append(p.principals, "bearer:"+hex.EncodeToString(h[:6]))
	}
	return p, nil
}

// admit returns the request's principal or the error envelope refusing it.
//
//   - With bearer tokens, a request carrying Authorization: Bearer is that
//     token's principal or 401; one without is 401 unless anonymous callers
//     are allowed.
//   - Without tokens, only direct loopback callers are admitted (as
//     "local"); a forwarding header marks a proxied caller, and a proxied or
//     non-loopback caller is 403 unless anonymous callers are allowed.
func (p *authPolicy) admit(r *http.Request) (string, *apiError) {
	forwarded := len(r.Header.Values("Forwarded")) > 0 || len(r.Header.Values("X-Forwarded-For")) > 0
	direct := isLoopback(r.RemoteAddr) && !forwarded
	if len(p.hashes) > 0 {
		tok, present := bearer(r)
		if present {
			if i := p.match(tok); i >= 0 {
				return p.principals[i], nil
			}
			return "", errorf(http.StatusUnauthorized, wire.CodeUnauthorized,
				"the bearer token is not accepted by this server")
		}
		if p.anonymous {
			return anonymousOrLocal(direct), nil
		}
		return "", errorf(http.StatusUnauthorized, wire.CodeUnauthorized,
			"this server requires Authorization: Bearer <token> on every request")
	}
	if p.anonymous {
		return anonymousOrLocal(direct), nil
	}
	if forwarded {
		return "", errorf(http.StatusForbidden, wire.CodeForbidden,
			"requests relayed by a proxy (Forwarded, X-Forwarded-For) are refused: this server admits only direct loopback callers")
	}
	if !direct {
		return "", errorf(http.StatusForbidden, wire.CodeForbidden,
			"this server admits only loopback callers (start it with --bearer-token or --allow-anonymous to share it)")
	}
	return principalLocal, nil
}

func anonymousOrLocal(direct bool) string {
	if direct {
		return principalLocal
	}
	return principalAnonymous
}

// match returns the index of the token equal to tok, or -1. Every token is
// compared, each in constant time, so timing tells nothing about which one
// nearly matched.
func (p *authPolicy) match(tok string) int {
	h := sha256.Sum256([]byte(tok))
	found := -1
	for i := range p.hashes {
		if subtle.ConstantTimeCompare(h[:], p.hashes[i][:]) == 1 && found < 0 {
			found = i
		}
	}
	return found
}

// bearer extracts the token of an Authorization: Bearer header. present is
// true when an Authorization header was sent at all (a wrong scheme is a
// wrong credential, not a missing one).
func bearer(r *http.Request) (tok string, present bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, rest, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", true
	}
	return strings.TrimSpace(rest), true
}

// isLoopback reports whether a RemoteAddr ("ip:port") is a loopback address.
func isLoopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

package devserver

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/agsh-dev/agsh/internal/wire"
)

// binding is the session identity a request resolved to.
type binding struct {
	sessionID string // the live session, "" when none
	token     string // the continuation token given, if any
}

// bound reports whether the request runs inside a live session.
func (b binding) bound() bool { return b.sessionID != "" }

// queryBinding resolves the optional binding of a GET: sessionId=,
// session= (an alias) or continuationToken=.
func (a *agent) queryBinding(c *reqCtx) (binding, *apiError) {
	q := c.r.URL.Query()
	var id, tok *string
	for _, key := range []string{"sessionId", "session"} {
		if !q.Has(key) || q.Get(key) == "" {
			continue
		}
		v := q.Get(key)
		if id != nil && *id != v {
			return binding{}, errorf(http.StatusBadRequest, wire.CodeConflictingBinding,
				"sessionId and session name different sessions; pass one")
		}
		id = &v
	}
	if q.Has("continuationToken") {
		v := q.Get("continuationToken")
		tok = &v
	}
	return a.resolve(c.principal, id, tok)
}

// resolve checks a binding: exclusive id and token, a well-formed token, a
// known session owned by the caller. An empty id counts as none.
func (a *agent) resolve(principal string, id, tok *string) (binding, *apiError) {
	if id != nil && *id == "" {
		id = nil
	}
	if id != nil && tok != nil {
		return binding{}, errorf(http.StatusBadRequest, wire.CodeConflictingBinding,
			"pass either sessionId or continuationToken, not both")
	}
	if tok != nil {
		if !wellFormedToken(*tok) {
			return binding{}, errorf(http.StatusBadRequest, wire.CodeInvalidContinuationToken,
				fmt.Sprintf("malformed continuation token %q: expected <channelId>:<key>", *tok))
		}
		sid, owner, stale, ok := a.sessions.byTok(*tok)
		if !ok {
			return binding{token: *tok}, nil
		}
		if owner != principal {
			return binding{}, forbiddenSession(sid)
		}
		if stale {
			// Never a scratch fallback: the caller meant that session.
			return binding{}, staleToken(sid)
		}
		return binding{sessionID: sid, token: *tok}, nil
	}
	if id == nil {
		return binding{}, nil
	}
	var owner string
	if !a.sessions.with(*id, func(s *session) bool { owner = s.Owner; return false }) {
		return binding{}, unknownSession(fmt.Sprintf("no session %s on agent %s", *id, a.slug))
	}
	if owner != principal {
		return binding{}, forbiddenSession(*id)
	}
	return binding{sessionID: *id}, nil
}

// unknownSession is the 404 of a session that does not exist.
func unknownSession(msg string) *apiError {
	return errorf(http.StatusNotFound, wire.CodeUnknownSession, msg)
}

// staleToken is the 409 of a continuation token a follow-up rotated away.
func staleToken(id string) *apiError {
	return errorf(http.StatusConflict, codeStaleContinuationToken, fmt.Sprintf(
		"this continuation token of session %s was replaced by a follow-up message; use the session's current token (GET /v1/sessions lists it) or its id", id))
}

func forbiddenSession(id string) *apiError {
	return errorf(http.StatusForbidden, wire.CodeForbidden,
		fmt.Sprintf("session %s belongs to another principal; use the identity that created it", id))
}

// wellFormedToken reports whether tok has the shape <channelId>:<key>, both
// parts non-empty.
func wellFormedToken(tok string) bool {
	ch, key, ok := strings.Cut(tok, ":")
	return ok && ch != "" && key != "" && strings.TrimSpace(tok) == tok
}

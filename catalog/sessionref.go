package catalog

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A console command's session operand (docs/console.md#the-session-operand):
// a session id, a continuation token (resolved through GET /v1/sessions),
// or a traceUrl or playgroundUrl pasted whole, from which only the session
// id is taken. agsh never requests a pasted URL and never sends anything
// to its host: the id is read from the text, and the record is read from
// the target like every other route. The URL shapes are assumed (no
// public document fixes them); they are the constants below.

// URL shapes a session id is read from [assumed]: a path segment after
// one of sessionSegments (…/v1/session/{id}/events, the development
// deployment's traceUrl; …/sessions/{id}), the same in the fragment
// (#/sessions/{id}), or one of sessionQueryKeys.
var (
	sessionSegments  = []string{"session", "sessions"}
	sessionQueryKeys = []string{"sessionId", "session", "session_id"}
)

// maxSessionID bounds a session id or token agsh sends.
const maxSessionID = 512

// SessionIDOK reports whether s can name a session in a route: not empty,
// at most 512 bytes of valid UTF-8, no white space, control, format (bidi,
// zero-width) or separator character, no '/', '?', '#' or '\', and not "."
// or "..". It returns s trimmed of surrounding white space.
func SessionIDOK(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxSessionID || !utf8.ValidString(s) || s == "." || s == ".." {
		return s, false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Z, r) ||
			strings.ContainsRune("/?#\\", r) {
			return s, false
		}
	}
	return s, true
}

// SessionOperand is a console command's session operand, read without any
// request.
type SessionOperand struct {
	// Text is the id or token given, or the id a pasted URL holds.
	Text string
	// FromURL: Text was read from a pasted URL, whose host (no userinfo,
	// no port) is Host.
	FromURL bool
	Host    string
}

// ParseSessionOperand reads an operand: a URL (it contains "://") gives
// the session id it holds; anything else is an id or a token, checked by
// SessionIDOK. Errors are usage errors (exit 2) that never quote a URL's
// userinfo, query or fragment.
func ParseSessionOperand(s string) (SessionOperand, error) {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "://") {
		t, ok := SessionIDOK(s)
		if !ok {
			return SessionOperand{}, usageError("%s is not a session id, a continuation token or a pasted URL",
				quoteOperand(s))
		}
		return SessionOperand{Text: t}, nil
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return SessionOperand{}, usageError("the pasted URL is not an http:// or https:// URL with a host; " +
			"pass the session id (:sessions lists them)")
	}
	id, ok := sessionIDInURL(u)
	if !ok {
		return SessionOperand{}, usageError("no session id in the pasted URL %s; pass the session id (:sessions lists them)",
			quoteOperand(displayURL(&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath})))
	}
	return SessionOperand{Text: id, FromURL: true, Host: u.Hostname()}, nil
}

// quoteOperand quotes an operand for a message, clipped.
func quoteOperand(s string) string {
	return clipText(strconv.Quote(s), 90)
}

// sessionIDInURL finds the session id of a pasted URL (the shapes above).
func sessionIDInURL(u *url.URL) (string, bool) {
	q := u.Query()
	for _, k := range sessionQueryKeys {
		if v := q.Get(k); v != "" {
			return SessionIDOK(v)
		}
	}
	if id, ok := idAfterSegment(u.EscapedPath()); ok {
		return id, true
	}
	frag := u.EscapedFragment()
	if i := strings.IndexByte(frag, '?'); i >= 0 {
		fq, _ := url.ParseQuery(frag[i+1:])
		for _, k := range sessionQueryKeys {
			if v := fq.Get(k); v != "" {
				return SessionIDOK(v)
			}
		}
		frag = frag[:i]
	}
	return idAfterSegment(frag)
}

// idAfterSegment is the segment after the last "session" or "sessions"
// segment of an escaped path, unescaped.
func idAfterSegment(p string) (string, bool) {
	segs := strings.Split(p, "/")
	for i := len(segs) - 2; i >= 0; i-- {
		for _, name := range sessionSegments {
			if segs[i] != name {
				continue
			}
			id, err := url.PathUnescape(segs[i+1])
			if err != nil {
				return "", false
			}
			return SessionIDOK(id)
		}
	}
	return "", false
}

// SessionChoice is the session a console command reads, and how it was
// found.
type SessionChoice struct {
	ID string
	// Mode is the session's mode as listed ("task", "chat"; "" when the
	// listing was not read or does not say).
	Mode string
	// Latest: no session was given or bound; the latest was taken.
	Latest bool
	// Note, when set, is a line for standard error (a pasted URL of
	// another host than the target).
	Note string
}

// ResolveSession finds the session id an operand names (docs/console.md#the-session-operand):
// a pasted URL's id as it is; an id or a token looked up in GET
// /v1/sessions (a token gives its session's id), taken as an id when the
// listing does not have it, or when the deployment has no listing.
func (c *Client) ResolveSession(ctx context.Context, op SessionOperand) (SessionChoice, error) {
	if op.FromURL {
		ch := SessionChoice{ID: op.Text}
		if !strings.EqualFold(op.Host, c.base.Hostname()) {
			ch.Note = "note: the pasted URL names host " + op.Host + "; agsh reads session " + op.Text +
				" from its target, " + c.display + ", and sends nothing to that host"
		}
		return ch, nil
	}
	ss, err := c.Sessions(ctx)
	if IsCode(err, CodeNoSessionsRoute) {
		return SessionChoice{ID: op.Text}, nil
	}
	if err != nil {
		return SessionChoice{}, err
	}
	id, mode := sessionNamed(ss, op.Text)
	if id == op.Text && mode == "" {
		// Not listed as given: a unique prefix of a listed id names it.
		m, err := PrefixMatch("session", op.Text, sessionIDs(ss))
		if err != nil {
			return SessionChoice{}, err
		}
		if m != "" {
			_, mode = sessionNamed(ss, m)
			return SessionChoice{ID: m, Mode: mode}, nil
		}
	}
	return SessionChoice{ID: id, Mode: mode}, nil
}

// sessionIDs are the listed sessions' ids.
func sessionIDs(ss []Session) []string {
	ids := make([]string, 0, len(ss))
	for _, s := range ss {
		if s.SessionID != "" {
			ids = append(ids, s.SessionID)
		}
	}
	return ids
}

// maxCandidates is how many ids an ambiguous prefix's error lists.
const maxCandidates = 10

// PrefixMatch is the one id of ids that prefix begins (git's short hashes,
// docs/console.md#ids-and-prefixes): "" when none does (the operand is then
// read as it is), the id when prefix is one of ids or begins only one of
// them, and a usage error (exit 2) listing the candidates when it begins
// several. what names the kind of id ("session", "call").
func PrefixMatch(what, prefix string, ids []string) (string, error) {
	var found []string
	seen := map[string]bool{}
	for _, id := range ids {
		if id == prefix {
			return id, nil
		}
		if strings.HasPrefix(id, prefix) && !seen[id] {
			seen[id] = true
			found = append(found, id)
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	shown := make([]string, 0, maxCandidates)
	for _, id := range found[:min(len(found), maxCandidates)] {
		if t, ok := SessionIDOK(id); ok && t == id {
			shown = append(shown, id)
		} else {
			shown = append(shown, quoteOperand(id))
		}
	}
	more := ""
	if len(found) > maxCandidates {
		more = ", and " + strconv.Itoa(len(found)-maxCandidates) + " more"
	}
	return "", usageError("%s id prefix %s is ambiguous: it begins %d %s ids (%s%s); give more of the id",
		what, quoteOperand(prefix), len(found), what, strings.Join(shown, ", "), more)
}

// sessionNamed is the id of the session s names in the listing (its id, or
// the id of the session whose continuation token it is) and its mode; s
// itself when none.
func sessionNamed(ss []Session, s string) (id, mode string) {
	for _, x := range ss {
		if x.SessionID == s {
			return s, x.Mode
		}
	}
	for _, x := range ss {
		if x.ContinuationToken == s && x.SessionID != "" {
			return x.SessionID, x.Mode
		}
	}
	return s, ""
}

// SessionMode is the mode GET /v1/sessions lists for session id ("" when
// it does not say, or cannot be read).
func (c *Client) SessionMode(ctx context.Context, id string) string {
	ss, err := c.Sessions(ctx)
	if err != nil {
		return ""
	}
	_, mode := sessionNamed(ss, id)
	return mode
}

// BoundSession is the session a console command without an operand reads:
// the binding's session (a token looked up as ResolveSession does), else
// the latest session of GET /v1/sessions; a CodeNoSession error when there
// is none.
func (c *Client) BoundSession(ctx context.Context, b Binding) (SessionChoice, error) {
	switch {
	case b.SessionID != "":
		return SessionChoice{ID: b.SessionID}, nil
	case b.ContinuationToken != "":
		return c.ResolveSession(ctx, SessionOperand{Text: b.ContinuationToken})
	}
	ss, err := c.Sessions(ctx)
	if err != nil {
		return SessionChoice{}, err
	}
	s := LatestSession(ss)
	if s == nil || s.SessionID == "" && s.ContinuationToken == "" {
		return SessionChoice{}, c.fail(&Error{ErrCode: CodeNoSession,
			Message: "no session to read: the deployment lists none; pass a session id"})
	}
	if s.SessionID == "" {
		return SessionChoice{ID: s.ContinuationToken, Latest: true, Mode: s.Mode}, nil
	}
	return SessionChoice{ID: s.SessionID, Latest: true, Mode: s.Mode}, nil
}

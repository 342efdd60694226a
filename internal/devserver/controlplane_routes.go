package devserver

import (
	"net/http"
	"net/url"

	"github.com/agsh-dev/agsh/internal/wire"
)

// Control-plane routes, on the host root:
//
//	GET /internal/agentsdk/deployments?slug=<name>        resolution
//	ANY /internal/agentsdk/deployments/<name>/v1/…?teamId=<id>  the agent
const (
	cpPrefix      = "/internal/agentsdk/deployments"
	cpQuerySlug   = "slug"
	cpQueryTeamID = "teamId"
	// codeUnknownDeployment answers a deployment path the team does not host.
	codeUnknownDeployment = "unknown_deployment"
)

// isControlPlanePath reports whether segs address the control plane.
func isControlPlanePath(segs []string) bool {
	return len(segs) >= 3 && segs[0] == "internal" && segs[1] == "agentsdk" && segs[2] == "deployments"
}

// serveControlPlane answers the resolution route (rest empty) or forwards a
// deployment path (rest = name, v1, …) to its agent.
func (s *Server) serveControlPlane(w http.ResponseWriter, r *http.Request, rest []string) {
	k, aerr := s.cp.admit(r)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	if len(rest) == 0 {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			methodNotAllowed(w, []string{http.MethodGet})
			return
		}
		s.serveResolution(w, r, k)
		return
	}
	name := rest[0]
	teamID := r.URL.Query().Get(cpQueryTeamID)
	if teamID == "" {
		writeError(w, errorf(http.StatusForbidden, wire.CodeForbidden,
			"a deployment request needs ?teamId=<team id>: the control plane's answer names the team"))
		return
	}
	if !k.teams[teamID] {
		writeError(w, errorf(http.StatusForbidden, wire.CodeForbidden,
			"this API key cannot use team "+teamID))
		return
	}
	a := s.cp.byName[name]
	if a == nil || !s.cp.byID[teamID].hosts[a] {
		writeError(w, errorf(http.StatusNotFound, codeUnknownDeployment,
			"team "+teamID+" has no deployment named "+name))
		return
	}
	s.serveAgentAs(w, forwarded(r, a.slug, rest[1:]), a, rest[1:], k.principal)
}

// admit returns the API key of the request's bearer, or the 401 envelope.
// The message never repeats what was sent.
func (cp *controlPlane) admit(r *http.Request) (*cpKey, *apiError) {
	tok, present := bearer(r)
	if !present {
		return nil, errorf(http.StatusUnauthorized, wire.CodeUnauthorized,
			"the control plane requires Authorization: Bearer <API key>")
	}
	k := cp.key(tok)
	if k == nil {
		return nil, errorf(http.StatusUnauthorized, wire.CodeUnauthorized,
			"the API key is not valid")
	}
	return k, nil
}

// serveResolution answers the deployments the key can use, named slug (or
// all of them without slug), one row per team that hosts it.
func (s *Server) serveResolution(w http.ResponseWriter, r *http.Request, k *cpKey) {
	q := r.URL.Query()
	slug, filter := q.Get(cpQuerySlug), q.Has(cpQuerySlug)
	base := s.URL()
	if base == "" {
		base = "http://" + r.Host
	}
	rows := [][]byte{}
	for _, t := range s.cp.teams {
		if !k.teams[t.id] {
			continue
		}
		for _, a := range s.agents {
			if !t.hosts[a] || filter && a.name != slug {
				continue
			}
			rows = append(rows, object(val("slug", a.name), val("teamId", t.id), val("teamName", t.name),
				val("baseUrl", base+cpPath(a.name))))
		}
	}
	writeBody(w, http.StatusOK, object(val("ok", true), raw("deployments", array(rows))))
}

// forwarded is r as the agent's own route sees it: the path under the
// agent's mount (/<slug>/v1/…) and the query without teamId.
func forwarded(r *http.Request, slug string, segs []string) *http.Request {
	f := new(http.Request)
	*f = *r
	u := *r.URL
	plain, escaped := "/"+slug, "/"+url.PathEscape(slug)
	for _, seg := range segs {
		plain += "/" + seg
		escaped += "/" + url.PathEscape(seg)
	}
	u.Path, u.RawPath = plain, ""
	if escaped != u.EscapedPath() {
		u.RawPath = escaped
	}
	q := r.URL.Query()
	q.Del(cpQueryTeamID)
	u.RawQuery = q.Encode()
	f.URL = &u
	f.RequestURI = u.RequestURI()
	return f
}

// cpPath is the deployment path of an agent's name under the host root.
func cpPath(name string) string { return cpPrefix + "/" + url.PathEscape(name) }

package devserver

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"strings"
)

// The control-plane mode plays the part of the production service that
// resolves a deployment name (docs/devserver.md#control-plane-mode):
// configured teams and API keys, the resolution route on the host root, and
// every agent reachable again under
// /internal/agentsdk/deployments/<name>/v1/… for the teams that host it. The
// agent's name in the control plane is its /v1/info name
// ("change-monitor-executor").

// ControlPlane configures the control-plane mode; the zero value leaves it
// off. It is on when any team or key is given, and then needs both.
type ControlPlane struct {
	// Teams are the teams, in the order the resolution route lists them.
	Teams []Team `json:"teams"`
	// Keys are the API keys and the teams each may use.
	Keys []APIKey `json:"keys"`
}

// Team is one team of the control plane.
type Team struct {
	// ID is the team id ("42"): letters, digits, '-', '_' and '.'.
	ID string `json:"id"`
	// Name is the team's display name ("Acme").
	Name string `json:"name"`
	// Agents are the agents the team hosts, by /v1/info name or by slug;
	// empty means every agent of the server.
	Agents []string `json:"agents,omitempty"`
}

// APIKey is one API key of the control plane and the teams it may use.
type APIKey struct {
	Key   string   `json:"key"`
	Teams []string `json:"teams"`
}

// Enabled reports whether the mode is on (any team or key configured).
func (c ControlPlane) Enabled() bool { return len(c.Teams) > 0 || len(c.Keys) > 0 }

// controlPlane is a checked ControlPlane: keys hashed for constant-time
// comparison, agents resolved.
type controlPlane struct {
	teams  []*cpTeam
	byID   map[string]*cpTeam
	keys   []cpKey
	byName map[string]*agent // production name → agent
}

type cpTeam struct {
	id, name string
	hosts    map[*agent]bool
}

type cpKey struct {
	hash      [sha256.Size]byte
	principal string
	teams     map[string]bool
}

// newControlPlane checks cfg against the server's agents; nil when the
// mode is off.
func newControlPlane(cfg ControlPlane, agents []*agent) (*controlPlane, error) {
	if !cfg.Enabled() {
		return nil, nil
	}
	if len(cfg.Teams) == 0 {
		return nil, fmt.Errorf("devserver: control plane: no team configured (--cp-team ID=NAME)")
	}
	if len(cfg.Keys) == 0 {
		return nil, fmt.Errorf("devserver: control plane: no API key configured (--cp-key KEY=TEAMID)")
	}
	cp := &controlPlane{byID: map[string]*cpTeam{}, byName: map[string]*agent{}}
	bySlug := map[string]*agent{}
	for _, a := range agents {
		if a.slug == "internal" {
			return nil, fmt.Errorf("devserver: control plane: an agent mounted at /internal would hide the control plane")
		}
		if cp.byName[a.name] != nil {
			return nil, fmt.Errorf("devserver: control plane: two agents are named %q", a.name)
		}
		cp.byName[a.name] = a
		bySlug[a.slug] = a
	}
	for _, t := range cfg.Teams {
		if !validTeamID(t.ID) {
			return nil, fmt.Errorf("devserver: control plane: team id %q: use letters, digits, '-', '_' and '.'", t.ID)
		}
		if cp.byID[t.ID] != nil {
			return nil, fmt.Errorf("devserver: control plane: team %s configured twice", t.ID)
		}
		name := strings.TrimSpace(t.Name)
		if name == "" {
			return nil, fmt.Errorf("devserver: control plane: team %s has no name", t.ID)
		}
		ct := &cpTeam{id: t.ID, name: name, hosts: map[*agent]bool{}}
		for _, n := range t.Agents {
			a := cp.byName[n]
			if a == nil {
				a = bySlug[n]
			}
			if a == nil {
				return nil, fmt.Errorf("devserver: control plane: team %s: no agent %q (agents: %s)", t.ID, n, agentNames(agents))
			}
			ct.hosts[a] = true
		}
		if len(t.Agents) == 0 {
			for _, a := range agents {
				ct.hosts[a] = true
			}
		}
		cp.teams = append(cp.teams, ct)
		cp.byID[t.ID] = ct
	}
	seen := map[[sha256.Size]byte]bool{}
	for i, k := range cfg.Keys {
		if k.Key == "" || strings.ContainsAny(k.Key, " \t\r\n") {
			return nil, fmt.Errorf("devserver: control plane: API key #%d must be non-empty and have no spaces", i+1)
		}
		h := sha256.Sum256([]byte(k.Key))
		if seen[h] {
			return nil, fmt.Errorf("devserver: control plane: API key #%d is configured twice", i+1)
		}
		seen[h] = true
		if len(k.Teams) == 0 {
			return nil, fmt.Errorf("devserver: control plane: API key #%d names no team", i+1)
		}
		ck := cpKey{hash: h, principal: "key:" + hex.EncodeToString(h[:6]), teams: map[string]bool{}}
		for _, id := range k.Teams {
			if cp.byID[id] == nil {
				return nil, fmt.Errorf("devserver: control plane: API key #%d names team %q, which no --cp-team defines", i+1, id)
			}
			ck.teams[id] = true
		}
		cp.keys = append(cp.keys, ck)
	}
	return cp, nil
}

// key returns the key equal to tok, or nil. Every key is compared, each in
// constant time.
func (cp *controlPlane) key(tok string) *cpKey {
	h := sha256.Sum256([]byte(tok))
	var found *cpKey
	for i := range cp.keys {
		if subtle.ConstantTimeCompare(h[:], cp.keys[i].hash[:]) == 1 && found == nil {
			found = &cp.keys[i]
		}
	}
	return found
}

// validTeamID accepts ASCII letters, digits, '-', '_' and '.'.
func validTeamID(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return s != ""
}

// agentNames is "change-monitor-executor (executor), …" for messages.
func agentNames(agents []*agent) string {
	parts := make([]string, len(agents))
	for i, a := range agents {
		parts[i] = a.name + " (" + a.slug + ")"
	}
	return strings.Join(parts, ", ")
}

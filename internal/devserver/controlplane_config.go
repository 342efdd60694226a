package devserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// ParseTeamFlag parses a --cp-team value: "ID=NAME" (the team hosts every
// agent) or "ID=NAME:AGENT,AGENT…" (only those, by /v1/info name or slug).
// A name cannot contain ':' in this form; --control-plane FILE can.
func ParseTeamFlag(spec string) (Team, error) {
	id, rest, ok := strings.Cut(spec, "=")
	if !ok || id == "" || strings.TrimSpace(rest) == "" {
		return Team{}, fmt.Errorf("--cp-team %q: expected ID=NAME or ID=NAME:AGENT,AGENT", spec)
	}
	name, agents, hasAgents := strings.Cut(rest, ":")
	t := Team{ID: id, Name: strings.TrimSpace(name)}
	if t.Name == "" {
		return Team{}, fmt.Errorf("--cp-team %q: the team name is empty", spec)
	}
	if hasAgents {
		for _, a := range strings.Split(agents, ",") {
			if a = strings.TrimSpace(a); a != "" {
				t.Agents = append(t.Agents, a)
			}
		}
		if len(t.Agents) == 0 {
			return Team{}, fmt.Errorf("--cp-team %q: no agent after ':'", spec)
		}
	}
	return t, nil
}

// ParseKeyFlag parses a --cp-key value, "KEY=TEAMID[,TEAMID…]". The key
// may itself contain '=' (the last one separates the teams). Errors never
// repeat the key.
func ParseKeyFlag(spec string) (APIKey, error) {
	i := strings.LastIndex(spec, "=")
	if i <= 0 {
		return APIKey{}, errors.New("--cp-key: expected KEY=TEAMID[,TEAMID…]")
	}
	k := APIKey{Key: spec[:i]}
	for _, id := range strings.Split(spec[i+1:], ",") {
		if id = strings.TrimSpace(id); id != "" {
			k.Teams = append(k.Teams, id)
		}
	}
	if len(k.Teams) == 0 {
		return APIKey{}, errors.New("--cp-key: no team id after the last '=' (expected KEY=TEAMID[,TEAMID…])")
	}
	return k, nil
}

// maxControlPlaneFile bounds what LoadControlPlane reads.
const maxControlPlaneFile = 1 << 20

// LoadControlPlane reads a --control-plane file:
//
//	{"teams": [{"id": "42", "name": "Acme", "agents": ["change-monitor-executor"]}],
//	 "keys":  [{"key": "…", "teams": ["42"]}]}
//
// Unknown fields are an error (a misspelling would silently drop a team).
// Errors never repeat a key.
func LoadControlPlane(path string) (ControlPlane, error) {
	f, err := os.Open(path)
	if err != nil {
		return ControlPlane{}, fmt.Errorf("--control-plane: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxControlPlaneFile+1))
	if err != nil {
		return ControlPlane{}, fmt.Errorf("--control-plane: %w", err)
	}
	if len(b) > maxControlPlaneFile {
		return ControlPlane{}, fmt.Errorf("--control-plane %s: larger than %d bytes", path, maxControlPlaneFile)
	}
	var cp ControlPlane
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cp); err != nil {
		return ControlPlane{}, fmt.Errorf("--control-plane %s: %s", path, jsonProblem(err))
	}
	if dec.More() {
		return ControlPlane{}, fmt.Errorf("--control-plane %s: more than one JSON value", path)
	}
	if !cp.Enabled() {
		return ControlPlane{}, fmt.Errorf("--control-plane %s: no \"teams\" and no \"keys\"", path)
	}
	return cp, nil
}

// jsonProblem describes a decoding error without quoting the input (which
// may hold a key).
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("not valid JSON at byte %d", syn.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s must be %s, not %s", typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.EOF):
		return "empty file"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends too early"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// Merge appends o's teams and keys to c (the file first, then the flags).
func (c ControlPlane) Merge(o ControlPlane) ControlPlane {
	return ControlPlane{
		Teams: append(append([]Team(nil), c.Teams...), o.Teams...),
		Keys:  append(append([]APIKey(nil), c.Keys...), o.Keys...),
	}
}

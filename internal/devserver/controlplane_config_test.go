package devserver_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agsh-dev/agsh/internal/devserver"
)

func TestParseTeamFlag(t *testing.T) {
	tests := []struct {
		spec    string
		want    devserver.Team
		wantErr string
	}{
		{spec: "42=Acme", want: devserver.Team{ID: "42", Name: "Acme"}},
		{spec: "42=Acme Corp", want: devserver.Team{ID: "42", Name: "Acme Corp"}},
		{spec: "7=Beta:executor", want: devserver.Team{ID: "7", Name: "Beta", Agents: []string{"executor"}}},
		{spec: "7=Beta:executor, change-monitor-planner,", want: devserver.Team{ID: "7", Name: "Beta",
			Agents: []string{"executor", "change-monitor-planner"}}},
		{spec: "42", wantErr: `--cp-team "42": expected ID=NAME or ID=NAME:AGENT,AGENT`},
		{spec: "=Acme", wantErr: `--cp-team "=Acme": expected ID=NAME or ID=NAME:AGENT,AGENT`},
		{spec: "42= ", wantErr: `--cp-team "42= ": expected ID=NAME or ID=NAME:AGENT,AGENT`},
		{spec: "42=:executor", wantErr: `--cp-team "42=:executor": the team name is empty`},
		{spec: "42=Acme:", wantErr: `--cp-team "42=Acme:": no agent after ':'`},
		{spec: "42=Acme: , ", wantErr: `--cp-team "42=Acme: , ": no agent after ':'`},
	}
	for _, tt := range tests {
		got, err := devserver.ParseTeamFlag(tt.spec)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%q: error %v, want %s", tt.spec, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %#v, %v; want %#v", tt.spec, got, err, tt.want)
		}
	}
}

func TestParseKeyFlag(t *testing.T) {
	tests := []struct {
		spec    string
		want    devserver.APIKey
		wantErr string
	}{
		{spec: "secret=42", want: devserver.APIKey{Key: "secret", Teams: []string{"42"}}},
		{spec: "secret=42,7", want: devserver.APIKey{Key: "secret", Teams: []string{"42", "7"}}},
		{spec: "c2VjcmV0==42", want: devserver.APIKey{Key: "c2VjcmV0=", Teams: []string{"42"}}},
		{spec: "secret", wantErr: "--cp-key: expected KEY=TEAMID[,TEAMID…]"},
		{spec: "=42", wantErr: "--cp-key: expected KEY=TEAMID[,TEAMID…]"},
		{spec: "secret=", wantErr: "--cp-key: no team id after the last '=' (expected KEY=TEAMID[,TEAMID…])"},
		{spec: "secret= , ", wantErr: "--cp-key: no team id after the last '=' (expected KEY=TEAMID[,TEAMID…])"},
	}
	for _, tt := range tests {
		got, err := devserver.ParseKeyFlag(tt.spec)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%q: error %v, want %s", tt.spec, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %#v, %v; want %#v", tt.spec, got, err, tt.want)
		}
	}
}

func TestLoadControlPlane(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"teams":[{"id":"42","name":"Acme"},{"id":"7","name":"Beta","agents":["executor"]}],
		"keys":[{"key":"secret","teams":["42","7"]}]}`)
	got, err := devserver.LoadControlPlane(good)
	want := devserver.ControlPlane{
		Teams: []devserver.Team{{ID: "42", Name: "Acme"}, {ID: "7", Name: "Beta", Agents: []string{"executor"}}},
		Keys:  []devserver.APIKey{{Key: "secret", Teams: []string{"42", "7"}}},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, %v", got, err)
	}
	tests := []struct{ name, text, want string }{
		{"syntax", `{"keys":[{"key":"secret",}]}`, "not valid JSON at byte 26"},
		{"type", `{"keys":[{"key":"secret","teams":"42"}]}`, "keys.teams must be an array, not string"},
		{"unknown field", `{"team":[]}`, `unknown field "team"`},
		{"empty", ``, "empty file"},
		{"cut short", `{"teams":[`, "the JSON ends too early"},
		{"two values", `{"teams":[{"id":"1","name":"A"}]} {}`, "more than one JSON value"},
		{"nothing configured", `{}`, `no "teams" and no "keys"`},
	}
	for _, tt := range tests {
		p := write(tt.name+".json", tt.text)
		_, err := devserver.LoadControlPlane(p)
		if want := "--control-plane " + p + ": " + tt.want; err == nil || err.Error() != want {
			t.Errorf("%s: got %v\nwant %s", tt.name, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: the error repeats the key: %v", tt.name, err)
		}
	}
	if _, err := devserver.LoadControlPlane(filepath.Join(dir, "missing.json")); err == nil ||
		!strings.HasPrefix(err.Error(), "--control-plane: open ") {
		t.Errorf("missing file: %v", err)
	}
}

func TestControlPlaneMerge(t *testing.T) {
	file := devserver.ControlPlane{Teams: []devserver.Team{{ID: "1", Name: "A"}}}
	flags := devserver.ControlPlane{Teams: []devserver.Team{{ID: "2", Name: "B"}}, Keys: []devserver.APIKey{{Key: "k", Teams: []string{"1"}}}}
	got := file.Merge(flags)
	if len(got.Teams) != 2 || got.Teams[0].ID != "1" || got.Teams[1].ID != "2" || len(got.Keys) != 1 || len(file.Teams) != 1 {
		t.Fatalf("got %#v", got)
	}
	if (devserver.ControlPlane{}).Enabled() || !got.Enabled() {
		t.Fatal("Enabled is wrong")
	}
}

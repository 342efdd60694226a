package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/meta"
)

// :status remembers the connection groups it saw listing (per target and
// credential, under XDG_STATE_HOME): one that listed tools within the last
// hour and lists none now makes the deployment degraded, and goes on doing
// so until that hour has passed; the memory is replaced, never written
// through a link planted in its place.
func TestStatusConnectionStoppedListing(t *testing.T) {
	t.Parallel()
	srv, _ := startRepoDeployment(t, map[string]string{"README.md": "# Demo\n"})
	target := srv.AgentURL("executor")
	state := t.TempDir()
	file := statusMemoryFile(state, "", target, "")
	run := func() (string, int) {
		t.Helper()
		cmd := agshCommand("--target", target, ":status")
		cmd.Env = append(cmd.Env, "XDG_STATE_HOME="+state, "AGENT_SHELL_BEARER_TOKEN=")
		out, err := cmd.Output()
		if err != nil && cmd.ProcessState == nil {
			t.Fatal(err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	memory := func() map[string]meta.SeenGroup {
		t.Helper()
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Groups map[string]meta.SeenGroup `json:"groups"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("memory %s: %v", b, err)
		}
		return doc.Groups
	}
	plant := func(groups map[string]meta.SeenGroup) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"groups": groups})
		if err := os.WriteFile(file, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stamp := func(ago time.Duration) string { return time.Now().Add(-ago).UTC().Format(time.RFC3339) }

	if out, status := run(); status != 0 {
		t.Fatalf("first :status exited %d:\n%s", status, out)
	}
	if g := memory(); g["datadog"].Tools != 3 || len(g) != 1 {
		t.Fatalf("memory after the first run: %+v", g)
	}
	if st, err := os.Stat(filepath.Dir(file)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the memory's directory: %v %v", st.Mode(), err)
	}

	// A connection seen 5 minutes ago, listed no more: degraded, twice.
	plant(map[string]meta.SeenGroup{"datadog": {Tools: 3, Seen: stamp(time.Minute)}, "notes": {Tools: 12, Seen: stamp(5 * time.Minute)}})
	for i := 0; i < 2; i++ {
		out, status := run()
		if status != 1 || !strings.Contains(out, "- connection notes listed 12 tools at ") ||
			!strings.Contains(out, "and lists none now") || !strings.Contains(out, "verdict    degraded (exit 1)") {
			t.Fatalf("run %d: exit %d:\n%s", i, status, out)
		}
	}
	if g := memory(); g["notes"].Tools != 12 {
		t.Fatalf("the stopped connection was forgotten at once: %+v", g)
	}

	// Seen two hours ago: forgotten, healthy.
	plant(map[string]meta.SeenGroup{"notes": {Tools: 12, Seen: stamp(2 * time.Hour)}})
	if out, status := run(); status != 0 {
		t.Fatalf("a connection gone for two hours still counts: exit %d:\n%s", status, out)
	}
	if g := memory(); len(g) != 1 || g["datadog"].Tools != 3 {
		t.Fatalf("memory: %+v", g)
	}

	// A link in the memory's place is not read, and is replaced.
	elsewhere := filepath.Join(t.TempDir(), "other.json")
	b, _ := json.Marshal(map[string]any{"groups": map[string]meta.SeenGroup{"notes": {Tools: 12, Seen: stamp(time.Minute)}}})
	os.WriteFile(elsewhere, b, 0o600)
	os.Remove(file)
	if err := os.Symlink(elsewhere, file); err != nil {
		t.Skip(err)
	}
	if out, status := run(); status != 0 {
		t.Fatalf("the memory was read through a link: exit %d:\n%s", status, out)
	}
	if after, _ := os.ReadFile(elsewhere); string(after) != string(b) {
		t.Errorf("the memory was written through a link: %s", after)
	}
	if st, err := os.Lstat(file); err != nil || !st.Mode().IsRegular() {
		t.Errorf("the link was not replaced: %v %v", st, err)
	}
}

// The credential shown: its last four characters from 20 characters on,
// counted as characters, else only its length.
func TestCredentialTail(t *testing.T) {
	for _, tc := range []struct {
		token, tail string
		n           int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"0123456789012345678", "", 19},
		{"01234567890123456789", "6789", 20},
		{"ключ-ключ-ключ-ключ-ключ", "ключ", 24},
	} {
		tail, n := meta.CredentialTail(tc.token)
		if tail != tc.tail || n != tc.n {
			t.Errorf("CredentialTail(%q) = %q, %d; want %q, %d", tc.token, tail, n, tc.tail, tc.n)
		}
	}
}

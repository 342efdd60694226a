package compcache

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/catalog"
)

func TestSaveLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agsh")
	key := Key("http://127.0.0.1:39400/executor", "s3cret-token")
	if strings.Contains(key, "s3cret") || strings.Contains(key, "39400") {
		t.Fatalf("key %s reveals the target or the credential", key)
	}
	if e, err := Load(dir, key); e != nil || err != nil {
		t.Fatalf("empty cache: %v %v", e, err)
	}
	in := &Entry{Fetched: time.Now().UTC().Truncate(time.Second), Tools: []catalog.ToolEntry{{Name: "ls"}},
		Schemas: map[string]json.RawMessage{"ls": json.RawMessage(`{"type":"object"}`)}}
	if err := Save(dir, key, in); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, key))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("entry mode %v (%v), want 0600", st.Mode(), err)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("cache dir mode %v, want 0700", st.Mode())
	}
	out, err := Load(dir, key)
	if err != nil || out == nil || !out.Fetched.Equal(in.Fetched) || out.Tools[0].Name != "ls" || string(out.Schemas["ls"]) != `{"type":"object"}` {
		t.Fatalf("Load = %+v, %v", out, err)
	}
	if !out.Fresh(in.Fetched.Add(time.Minute)) || out.Fresh(in.Fetched.Add(TTL)) || out.Fresh(in.Fetched.Add(-2*time.Minute)) {
		t.Error("Fresh is wrong")
	}
	if Key("http://127.0.0.1:39400/executor", "other") == key || Key("http://127.0.0.1:39400/planner", "s3cret-token") == key {
		t.Error("keys of other principals or targets collide")
	}
	if err := os.WriteFile(filepath.Join(dir, key), []byte("{garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if e, err := Load(dir, key); e != nil || err != nil {
		t.Errorf("a corrupt entry: %v %v", e, err)
	}
}

func TestDir(t *testing.T) {
	env := map[string]string{"XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"}
	get := func(k string) string { return env[k] }
	if d := Dir(get); d != "/x/cache/agsh" {
		t.Errorf("Dir = %s", d)
	}
	env["XDG_CACHE_HOME"] = "relative"
	if d := Dir(get); d != "/home/u/.cache/agsh" {
		t.Errorf("Dir = %s", d)
	}
	delete(env, "HOME")
	if d := Dir(get); d != "" {
		t.Errorf("Dir = %s", d)
	}
}

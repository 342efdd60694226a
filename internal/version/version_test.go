package version

import (
	"encoding/json"
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	local := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/agsh-dev/agsh", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "1ca9af1c2d3e4f5061728394a5b6c7d8e9f0a1b2"},
			{Key: "vcs.time", Value: "2026-12-01T10:12:58Z"}, {Key: "vcs.modified", Value: "true"}}}
	installed := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/agsh-dev/agsh", Version: "v1.2.3"}}
	pseudo := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261201101258-1ca9af1c2d3e"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1ca9af1c2d3e4f5061728394a5b6c7d8e9f0a1b2"}}}
	none := &debug.BuildInfo{GoVersion: "go1.26.8"}
	tests := []struct {
		bi   *debug.BuildInfo
		line string
		json string
	}{
		{local, "agsh (devel) 1ca9af1c2d3e 2026-12-01T10:12:58Z (modified) (go1.26.8)",
			`{"program":"agsh","version":"(devel)","revision":"1ca9af1c2d3e4f5061728394a5b6c7d8e9f0a1b2","time":"2026-12-01T10:12:58Z","modified":true,"go":"go1.26.8"}`},
		{installed, "agsh v1.2.3 (go1.26.8)", `{"program":"agsh","version":"v1.2.3","go":"go1.26.8"}`},
		{pseudo, "agsh v0.0.0-20261201101258-1ca9af1c2d3e (go1.26.8)",
			`{"program":"agsh","version":"v0.0.0-20261201101258-1ca9af1c2d3e","revision":"1ca9af1c2d3e4f5061728394a5b6c7d8e9f0a1b2","go":"go1.26.8"}`},
		{none, "agsh (devel) (go1.26.8)", `{"program":"agsh","version":"(devel)","go":"go1.26.8"}`},
	}
	for _, tt := range tests {
		in := FromBuildInfo("agsh", tt.bi)
		if got := in.String(); got != tt.line {
			t.Errorf("String() = %q, want %q", got, tt.line)
		}
		if got := string(in.JSON()); got != tt.json {
			t.Errorf("JSON() = %s, want %s", got, tt.json)
		}
	}
}

func TestRead(t *testing.T) {
	in := Read("agsh")
	if in.Program != "agsh" || in.Version == "" || in.Go == "" {
		t.Errorf("Read = %+v", in)
	}
	var back Info
	if err := json.Unmarshal(in.JSON(), &back); err != nil || back != in {
		t.Errorf("JSON round trip: %v %+v", err, back)
	}
}

// TestWithTag: a release build's tag (set at link time) is its version, and
// its line names no revision; the object still carries it.
func TestWithTag(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261201101258-1ca9af1c2d3e+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "1ca9af1c2d3e4f5061728394a5b6c7d8e9f0a1b2"},
			{Key: "vcs.time", Value: "2026-12-01T10:12:58Z"}, {Key: "vcs.modified", Value: "true"}}}
	in := withTag(FromBuildInfo("agsh", bi), "v1.2.3")
	if got, want := in.String(), "agsh v1.2.3 (go1.26.8)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := string(in.JSON()), `{"program":"agsh","version":"v1.2.3","revision":"1ca9af1c2d3e4f5061728394a5b6c7d8e9f0a1b2","time":"2026-12-01T10:12:58Z","modified":true,"go":"go1.26.8"}`; got != want {
		t.Errorf("JSON() = %s, want %s", got, want)
	}
	if got := withTag(FromBuildInfo("agsh", bi), ""); got.Version != bi.Main.Version || got.release {
		t.Errorf("no tag: %+v", got)
	}
}

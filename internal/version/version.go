// Package version answers what `agsh --version` prints: the release's tag
// set at link time by the release build, else the module version of an
// installed build (`go install …@v1.2.3`), else the VCS revision and commit
// time the go command stamps into a local build, else "(devel)".
package version

import (
	"encoding/json"
	"runtime/debug"
	"strings"
)

// tag is the version of a release build, set at link time from the git
// tag by .goreleaser.yaml (-X github.com/agsh-dev/agsh/internal/version.tag=v1.2.3;
// docs/cli.md#version); "" in every other build, which falls back to the
// build information.
var tag string

// Info is the version of one binary.
type Info struct {
	// Program is the binary's name ("agsh").
	Program string `json:"program"`
	// Version is the module version ("v1.2.3", a pseudo-version), or
	// "(devel)" for a build from a checkout.
	Version string `json:"version"`
	// Revision and Time are the VCS commit and its time (RFC 3339) of a
	// local build; Modified says the work tree had uncommitted changes.
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the toolchain that built the binary.
	Go string `json:"go"`

	// release: Version is a release's tag, which names the build on its
	// own (String leaves the revision out).
	release bool
}

// Read answers the running binary's version from its build information.
func Read(program string) Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = &debug.BuildInfo{GoVersion: "unknown"}
	}
	return withTag(FromBuildInfo(program, bi), tag)
}

// withTag is in with the release's tag as its version (in as it is when
// tag is "").
func withTag(in Info, tag string) Info {
	if tag != "" {
		in.Version, in.release = tag, true
	}
	return in
}

// FromBuildInfo answers the version a build information describes.
func FromBuildInfo(program string, bi *debug.BuildInfo) Info {
	in := Info{Program: program, Version: bi.Main.Version, Go: bi.GoVersion}
	if in.Version == "" {
		in.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// String is the one line of `agsh --version`: "agsh v1.2.3" (a release's
// tag, or the module version of an installed build), or for a local
// build "agsh (devel) 1ca9af1c2d3e 2026-12-01T10:12:58Z (modified)", then
// the toolchain.
func (in Info) String() string {
	var b strings.Builder
	b.WriteString(in.Program + " " + in.Version)
	if in.Revision != "" && !in.release && !strings.Contains(in.Version, shortRev(in.Revision)) {
		b.WriteString(" " + shortRev(in.Revision))
		if in.Time != "" {
			b.WriteString(" " + in.Time)
		}
		if in.Modified {
			b.WriteString(" (modified)")
		}
	}
	if in.Go != "" {
		b.WriteString(" (" + in.Go + ")")
	}
	return b.String()
}

// JSON is `agsh --version --output json`: one object on one line.
func (in Info) JSON() []byte {
	b, _ := json.Marshal(in)
	return b
}

// shortRev is the first twelve characters of a revision, as a Go
// pseudo-version carries it.
func shortRev(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

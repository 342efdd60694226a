// Package version answers what `agsh --version` prints: the module version
// of an installed build (`go install …@v1.2.3`), else the VCS revision and
// commit time the go command stamps into a local build, else "(devel)".
package version

import (
	"encoding/json"
	"runtime/debug"
	"strings"
)

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
}

// Read answers the running binary's version from its build information.
func Read(program string) Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Program: program, Version: "(devel)", Go: "unknown"}
	}
	return FromBuildInfo(program, bi)
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

// String is the one line of `agsh --version`: "agsh v1.2.3", or for a local
// build "agsh (devel) 1ca9af1c2d3e 2026-12-01T10:12:58Z (modified)", then
// the toolchain.
func (in Info) String() string {
	var b strings.Builder
	b.WriteString(in.Program + " " + in.Version)
	if in.Revision != "" && !strings.Contains(in.Version, shortRev(in.Revision)) {
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

// Package release holds the test of the release build, .goreleaser.yaml
// (docs/cli.md#releases): goreleaser checks the configuration and builds a
// snapshot for the host in a copy of the repository, and the test runs the
// archive's binary. The package has no code of its own.
package release

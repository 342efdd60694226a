#!/usr/bin/env bash
# Writes agsh's completion scripts into the directory named by $1 (default
# completions/), as the release archives and packages carry them
# (.goreleaser.yaml's before hook): agsh.bash, _agsh (zsh's autoload name),
# agsh.fish and agsh.ps1, each printed by agsh --completion itself. The
# binary is built with the release build's flags, so that goreleaser's host
# build finds its packages compiled.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-completions}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_ENABLED=0 go build -trimpath -o "$tmp/agsh" ./cmd/agsh
"$tmp/agsh" --completion bash >"$out/agsh.bash"
"$tmp/agsh" --completion zsh >"$out/_agsh"
"$tmp/agsh" --completion fish >"$out/agsh.fish"
"$tmp/agsh" --completion pwsh >"$out/agsh.ps1"

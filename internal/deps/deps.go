//go:build tools

// Package deps pins the project's module dependencies before every package
// that uses them exists, so that `go mod tidy` keeps them.
package deps

import (
	_ "github.com/alecthomas/chroma/v2"
	_ "github.com/charmbracelet/bubbles/textinput"
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/glamour"
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/charmbracelet/x/exp/teatest"
	_ "github.com/itchyny/gojq"
	_ "github.com/mattn/go-runewidth"
	_ "github.com/mattn/go-shellwords"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/spf13/pflag"
	_ "golang.org/x/term"
)

// Package termquiet keeps agsh from querying the terminal when it starts.
//
// Bubble Tea (linked for the REPL) asks Lip Gloss at package init whether the
// terminal has a dark background. On a terminal that writes
// "ESC ] 11 ; ? ESC \" and "ESC [ 6 n" to standard output and waits for the
// answer — up to five seconds when the terminal does not answer (a plain pty,
// a serial console) — before every one-shot call, even `agsh --help`. agsh
// uses no adaptive colors, so the answer is never needed: this package tells
// Lip Gloss the background up front, which skips the query.
//
// It must be initialized before github.com/charmbracelet/bubbletea. Go
// initializes packages in import-path order among those whose dependencies
// are ready (Go 1.21); this path sorts before github.com/charmbracelet/… and
// depends on Lip Gloss alone, so importing it from package main is enough.
package termquiet

import "github.com/charmbracelet/lipgloss"

func init() {
	lipgloss.SetHasDarkBackground(true)
}

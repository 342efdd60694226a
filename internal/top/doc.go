// Package top is the fleet view of :top (docs/console.md#the-fleet-view): a
// full-screen bubbletea program that shows every session of the deployment,
// sorted with what needs the operator first, and acts on the selected one.
// It is a view: what it shows and does comes through its Source, which the
// caller implements over the deployment (internal/console's Fleet), so it
// imports nothing of HTTP and is tested with fakes. Every text a Source
// hands it is untrusted and escaped here (termsafe) before it is drawn.
package top

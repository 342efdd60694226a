// Package catalog talks to one agent-sdk deployment: targets and credentials,
// the HTTP client, the wire types of ../shared/spec/wire.md with their tolerant
// decoding, session binding, the tool listing and detail, and invocation.
// Errors carry the HTTP status and the envelope's code.
//
// It imports nothing else of agsh; the development deployment uses its wire
// types to encode the same contract.
package catalog

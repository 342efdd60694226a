// Package mcpconn provides the development deployment's connection tools,
// each one reached through a real MCP client session made with the official
// Go SDK (github.com/modelcontextprotocol/go-sdk):
//
//   - datadog: an in-process MCP server over the SDK's in-memory transport,
//     holding a seeded, stateful store of monitors shared by both agents;
//   - every --mcp 'NAME=COMMAND ARGS…' flag: a stdio MCP server spawned as a
//     child process (connection NAME, tools NAME_…);
//   - every --echo-tools PATH: tool definition files served by one in-process
//     echo server under the aggregating connection "echo", each folder or file
//     its own connector; an echo tool answers with the input it received.
//
// A tool is advertised as <prefix>_<tool>, the prefix being the connector when
// one is declared, else the connection name (see AdvertisedName). Its
// InputSchema is the raw JSON the MCP server sent in tools/list, captured from
// the JSON-RPC stream so that property order and number spelling survive (the
// SDK's client decodes schemas into maps). A call forwards the input bytes as
// the MCP arguments and answers the raw MCP result.
//
// A stdio server's standard output is filtered: lines that are not JSON-RPC
// (log lines) are logged and skipped (lines.go). A connection that dies is
// restarted on the next call, with backoff, its tools still listed; calls it
// cannot serve answer 502 connection_failed (restart.go). Tools that require
// MCP tasks are left out with a log line.
//
// The HTTP server uses Start, Set.Tools and Set.Close.
package mcpconn

// Package generated maps a tool's live input schema to a command-line shape
// and parses argv into the input object the tool receives.
//
// Build walks the raw JSON of an inputSchema in document order (resolving
// local $ref, merging allOf, flattening objects with declared properties)
// and yields a Command: an ordered list of Flags with kebab-cased names,
// value types, required marks and help text. Command.Parse turns the words
// after the tool name into a Parsed value whose Input holds only the flags
// the user set. The rules are those of ../shared/spec/mapping.md; the
// package does no I/O and knows nothing of HTTP or rendering.
//
// Every error a user can cause carries ExitCode() == 2 (usage).
package generated

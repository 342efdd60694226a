// Package curated holds the hand-designed command shapes of the workspace
// tools ls, read, grep, glob and diff
// (docs/file-tools.md#the-curated-commands): their operands and flags bound
// to the deployment's live schema by candidate fields, with a fallback to the
// generated shape when an operand cannot bind, and the reformatters that turn
// each tool's model-facing text into what the unix command prints.
//
// A reformatter is a pure function of the tool's result text. It runs only on
// a bound shape and a successful result; when the text does not have the
// expected format it reports so and the caller prints the text verbatim.
package curated

// Package render turns the values agsh handles into bytes for a writer: the
// result views of docs/rendering.md#views (text, table, list, property view,
// error line) and the output formats, the help pages (one tool's man-page
// layout and the `agsh help` index), terminal markdown through glamour,
// source and diff highlighting through chroma, and terminal-safe escaping of
// text that came from other systems.
//
// The package imports nothing of agsh: callers pass plain values and an
// Options{TTY, Color, Width}. JSON is decoded with a small token-level
// decoder that keeps key order and number text exactly as received; nothing
// goes through Go maps. Glamour and chroma are only touched on first use, so
// importing render adds no start-up work beyond those packages' own init.
//
// Terminal safety: when Options.TTY is true every piece of foreign text is
// passed through Safe before agsh adds its own color sequences. Help pages and
// highlighted source are always sanitized (they are presentation, not data).
package render

// Package jsontext is agsh's one reader of JSON text that keeps object
// members in document order: the grammar, its errors and limits, and the
// token-level helpers, over a byte slice. catalog (the answer splice), render
// (views of results) and generated (input schemas) all read JSON through it;
// each builds the tree it needs with a Builder, so that a 10,000-row result
// costs render a few hundred allocations while a schema gets generated its
// decoded, de-duplicated members. Readers that want a few members of a
// large answer, or offsets rather than values, walk it without a tree
// (Members, Elements, ValueEnd: the same grammar): catalog's listing; and
// IndexArray checks an array of objects and indexes its rows in one pass
// (catalog's answer splice, render's table).
//
// Everything is sized to its input: no buffer is allocated beyond what the
// text can hold. The reader works on a whole byte slice; a streaming reader
// (an io.Reader of values) is meant to find each value's end with SpanEnd or
// Parse's offsets and hand the value's bytes to Parse.
package jsontext

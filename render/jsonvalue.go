package render

import (
	"fmt"
	"sync/atomic"

	"github.com/agsh-dev/agsh/internal/jsontext"
)

// node is one decoded JSON value (jsontext's ordered tree): scalars keep
// their raw token bytes (a number's text exactly as received); objects keep
// their keys in order.
type node = jsontext.Value

// The JSON types of a node.
const (
	kindNull   = jsontext.Null
	kindBool   = jsontext.Bool
	kindNumber = jsontext.Number
	kindString = jsontext.String
	kindArray  = jsontext.Array
	kindObject = jsontext.Object
)

// parses counts parseJSON's calls, for the test that a result is parsed
// once.
var parses atomic.Int64

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 10000

// parseJSON decodes data (one JSON value, surrounding whitespace allowed)
// into an ordered tree. It never panics; bad input gives an error.
func parseJSON(data []byte) (*node, error) {
	parses.Add(1)
	n, err := jsontext.ParseTree(data, maxDepth)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return n, nil
}

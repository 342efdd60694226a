package interp

import (
	"bytes"
	"encoding/json"

	"github.com/itchyny/gojq"
)

// jqEncoder writes gojq results exactly as the gojq command prints them
// (without color): gojq.Marshal (object keys sorted, numbers and strings in
// jq's forms, NaN as null, infinities as the largest finite float), indented
// two spaces unless compact.
type jqEncoder struct {
	compact bool
}

func (e *jqEncoder) encode(b *bytes.Buffer, v any) {
	data, _ := gojq.Marshal(v)
	if e.compact || json.Indent(b, data, "", "  ") != nil {
		b.Write(data)
	}
}

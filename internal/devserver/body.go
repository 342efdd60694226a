package devserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/agsh-dev/agsh/internal/wire"
)

// Request body limits.
const (
	maxSmallBody = 1 << 20   // sessions, turns
	maxCallBody  = 64 << 20  // a call's input
	maxFaultBody = 256 << 20 // a fault's raw body (a 50 MB envelope and more)
)

// decodeBody reads the request's body, at most limit bytes, as one JSON
// object into v, numbers kept exact. An empty body leaves v untouched when
// allowEmpty; otherwise it is invalid input.
func decodeBody(c *reqCtx, limit int64, v any, allowEmpty bool) *apiError {
	b, err := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return tooLargeError(limit)
		}
		if errors.Is(err, errBodyStalled) {
			return stalledError()
		}
		return errorf(http.StatusBadRequest, wire.CodeInvalidInput, "reading the request body: "+err.Error())
	}
	if len(bytes.TrimSpace(b)) == 0 {
		if allowEmpty {
			return nil
		}
		return errorf(http.StatusBadRequest, wire.CodeInvalidInput, "the request body is empty; expected a JSON object")
	}
	return decodeJSON(b, v)
}

// stalledError is the 408 answer of a request body that stopped arriving.
func stalledError() *apiError {
	return errorf(http.StatusRequestTimeout, codeRequestTimeout,
		"the request body stalled: nothing arrived for a while, so the request was dropped")
}

// tooLargeError is the 413 answer of a body over limit bytes.
func tooLargeError(limit int64) *apiError {
	return errorf(http.StatusRequestEntityTooLarge, codeTooLarge,
		fmt.Sprintf("the request body is larger than %d bytes", limit))
}

// decodeJSON decodes b, which must hold exactly one JSON object, into v.
func decodeJSON(b []byte, v any) *apiError {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, wire.CodeInvalidInput, bodyErrorText(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return errorf(http.StatusBadRequest, wire.CodeInvalidInput,
			"the request body is not valid JSON: unexpected data after the JSON object")
	}
	return nil
}

// bodyErrorText says what is wrong with a request body in words.
func bodyErrorText(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return "the request body must be a JSON object, not " + typeErr.Value
		}
		return fmt.Sprintf("the request body's field %s must be %s, not %s",
			typeErr.Field, jsonKind(typeErr.Type.Kind().String()), typeErr.Value)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "the request body is not valid JSON: it ends early"
	}
	return "the request body is not valid JSON: " + err.Error()
}

// jsonKind names a Go kind as JSON would.
func jsonKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int64", "float64":
		return "a number"
	case "slice":
		return "an array"
	case "ptr":
		return "a string"
	default:
		return "an object"
	}
}

package devserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/agsh-dev/agsh/internal/jsontext"
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
	b, aerr := readBody(c, limit)
	if aerr != nil {
		return aerr
	}
	if len(bytes.TrimSpace(b)) == 0 {
		if allowEmpty {
			return nil
		}
		return errorf(http.StatusBadRequest, wire.CodeInvalidInput, "the request body is empty; expected a JSON object")
	}
	return decodeJSON(b, v)
}

// decodeLargeBody is decodeBody for the bodies that may be large (a call,
// a fault): members of type rawSpan stay slices of the body read, rather
// than copies, so a 256 MiB fault body is held once. What the fast path
// refuses goes the way of decodeBody, for the same error.
func decodeLargeBody(c *reqCtx, limit int64, v any, allowEmpty bool) *apiError {
	b, aerr := readBody(c, limit)
	if aerr != nil {
		return aerr
	}
	if len(bytes.TrimSpace(b)) == 0 {
		if allowEmpty {
			return nil
		}
		return errorf(http.StatusBadRequest, wire.CodeInvalidInput, "the request body is empty; expected a JSON object")
	}
	if f, ok := v.(fastBody); ok && f.decodeFast(b) {
		return nil
	}
	if jsontext.Valid(b, maxResultDepth) && json.Unmarshal(b, v) == nil {
		return nil
	}
	return decodeJSON(b, v)
}

// fastBody is a body that reads itself without reflection: decodeFast
// reports false for anything it does not read exactly as json.Unmarshal
// would (a key that matches a field only as encoding/json folds case, a
// field of the wrong type, anything invalid), which then goes the
// reflective way for its answer.
type fastBody interface {
	decodeFast(b []byte) bool
}

// decodeFast reads a call's body: input as a slice of b, the two strings
// (null: not sent); other members are skipped, as json.Unmarshal skips them.
func (body *callBody) decodeFast(b []byte) bool {
	var out callBody
	end, ok := jsontext.Members(b, 0, func(key []byte, start int) (int, bool) {
		end, ok := jsontext.ValueEnd(b, start, maxResultDepth-1)
		if !ok || bytes.IndexByte(key, '\\') >= 0 {
			return 0, false
		}
		v := b[start:end]
		switch k := string(key[1 : len(key)-1]); k {
		case "input":
			out.Input = v
		case "sessionId":
			out.SessionID, ok = optionalString(v)
		case "continuationToken":
			out.ContinuationToken, ok = optionalString(v)
		default:
			ok = !strings.EqualFold(k, "input") && !strings.EqualFold(k, "sessionId") && !strings.EqualFold(k, "continuationToken")
		}
		return end, ok
	})
	if !ok || jsontext.SkipSpace(b, end) != len(b) {
		return false
	}
	*body = out
	return true
}

// optionalString reads a checked JSON value as a *string field: null is
// nil, a string its text; anything else is not read (false).
func optionalString(v []byte) (*string, bool) {
	switch v[0] {
	case 'n':
		return nil, true
	case '"':
		s := jsontext.UnquoteValid(v)
		return &s, true
	}
	return nil, false
}

// rawSpan is a member's JSON text as a slice of the body it was read from
// (json.RawMessage would copy it). The body is the request's own buffer,
// never reused, so the slice may live on.
type rawSpan []byte

// UnmarshalJSON keeps the slice json.Unmarshal hands over: a slice of its
// input.
func (r *rawSpan) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// readBody reads the request's body, at most limit bytes: in one read
// sized from its Content-Length when it has one. A body of largeBody bytes
// or more (or of unknown size on a route that takes one) first passes the
// server's body gate, which it leaves when the request ends.
func readBody(c *reqCtx, limit int64) ([]byte, *apiError) {
	var gated int64 // what the body holds of the gate
	if n := c.r.ContentLength; n >= largeBody || n < 0 && limit >= largeBody {
		if n < 0 {
			n = limit // unknown: as large as it may be, until read
		}
		gated = min(n, c.hub.bodies.max)
		if !c.hub.bodies.enter(c.r.Context(), gated) {
			return nil, errorf(http.StatusServiceUnavailable, codeShuttingDown, "the request ended while it waited to be read")
		}
		c.after = append(c.after, func() { c.hub.bodies.leave(gated) })
	}
	b, aerr := readBodyBytes(c, limit)
	if gated > 0 && c.r.ContentLength < 0 {
		// A body of unknown size keeps what it turned out to hold.
		keep := min(int64(len(b)), gated)
		if keep < largeBody {
			keep = 0
		}
		c.hub.bodies.leave(gated - keep)
		gated = keep
	}
	return b, aerr
}

// readBodyBytes is readBody past the gate.
func readBodyBytes(c *reqCtx, limit int64) ([]byte, *apiError) {
	body := http.MaxBytesReader(c.w, c.r.Body, limit)
	var b []byte
	var err error
	if n := c.r.ContentLength; n >= 0 && n <= limit {
		b = make([]byte, n)
		_, err = io.ReadFull(body, b)
	} else {
		b, err = io.ReadAll(body)
	}
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, tooLargeError(limit)
		}
		if errors.Is(err, errBodyStalled) {
			return nil, stalledError()
		}
		if errors.Is(err, errBodyTooSlow) {
			return nil, tooSlowError()
		}
		return nil, errorf(http.StatusBadRequest, wire.CodeInvalidInput, "reading the request body: "+err.Error())
	}
	return b, nil
}

// stalledError is the 408 answer of a request body that stopped arriving.
func stalledError() *apiError {
	return errorf(http.StatusRequestTimeout, codeRequestTimeout,
		"the request body stalled: nothing arrived for a while, so the request was dropped")
}

// tooSlowError is the 408 answer of a request body that kept arriving,
// too slowly to be whole in time.
func tooSlowError() *apiError {
	return errorf(http.StatusRequestTimeout, codeRequestTimeout,
		"the request body arrived too slowly to be whole in time, so the request was dropped")
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

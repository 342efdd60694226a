package devserver

import (
	"net/http"
	"strconv"

	"github.com/agsh-dev/agsh/internal/jsontext"
	"github.com/agsh-dev/agsh/internal/wire"
)

// Codes of the envelope the development server adds to the runtime's list
// (docs/devserver.md#error-codes). The client relies on not_found, so it is
// wire's.
const (
	codeNotFound         = wire.CodeNotFound
	codeMethodNotAllowed = "method_not_allowed"
	codeTooLarge         = "request_too_large"
	codeInjectedFault    = "injected_fault"
	codeInternal         = "internal"
	codeShuttingDown     = "shutting_down"
)

// Codes of the session records and console routes
// (docs/wire.md#session-records-and-console-routes).
const (
	codeStaleContinuationToken = "stale_continuation_token"
	codeTaskSession            = "task_session"
	codeNotParked              = "not_parked"
	codeUnknownCall            = "unknown_call"
	codeTooManyStreams         = "too_many_streams"
)

// marshal encodes v as JSON without HTML escaping and without the trailing
// newline json.Encoder adds. Values it is given are plain data, so an error
// means a programming mistake; it then encodes null rather than panic.
func marshal(v any) []byte {
	return jsontext.MarshalOrNull(v)
}

// field is one member of a JSON object built by object: either a value to
// marshal or raw JSON bytes written verbatim (schemas, inputs, results).
type field struct {
	key  string
	raw  []byte
	omit bool
}

// val is a field holding v, marshaled.
func val(key string, v any) field { return field{key: key, raw: marshal(v)} }

// raw is a field holding JSON bytes as they are; the caller guarantees they
// are valid JSON.
func raw(key string, b []byte) field { return field{key: key, raw: b, omit: len(b) == 0} }

// valIf is val when cond holds, else an omitted field.
func valIf(cond bool, key string, v any) field {
	if !cond {
		return field{omit: true}
	}
	return val(key, v)
}

// object writes the fields, in order, as one JSON object.
func object(fields ...field) []byte {
	n := 2
	for _, f := range fields {
		n += len(f.key) + len(f.raw) + 4
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	first := true
	for _, f := range fields {
		if f.omit {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = strconv.AppendQuote(b, f.key)
		b = append(b, ':')
		b = append(b, f.raw...)
	}
	return append(b, '}')
}

// array joins JSON values into one JSON array.
func array(items [][]byte) []byte {
	n := 2
	for _, it := range items {
		n += len(it) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	return append(b, ']')
}

// writeBody answers status with the JSON body b.
func writeBody(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeJSON answers status with v marshaled.
func writeJSON(w http.ResponseWriter, status int, v any) {
	writeBody(w, status, marshal(v))
}

// apiError is an error envelope waiting to be written.
type apiError struct {
	status int
	body   wire.ErrorBody
}

func (e *apiError) Error() string { return e.body.Error + ": " + e.body.Message }

// errorf builds an error envelope with a message.
func errorf(status int, code, msg string) *apiError {
	return &apiError{status: status, body: wire.ErrorBody{Error: code, Message: msg}}
}

// invalidField is a 400 invalid_input whose one issue, issue, is at the
// body's field path.
func invalidField(msg, issue string, path ...any) *apiError {
	e := errorf(http.StatusBadRequest, wire.CodeInvalidInput, msg)
	e.body.Issues = []wire.Issue{{Path: append([]any{}, path...), Message: issue}}
	return e
}

// writeError answers the error envelope.
func writeError(w http.ResponseWriter, e *apiError) {
	if e.status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="agsh-devserver"`)
	}
	writeJSON(w, e.status, e.body)
}

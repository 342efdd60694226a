package catalog

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// testToken is the bearer token of the tests; no error may contain it.
const testToken = "sk-test-SECRET-4242-token"

// fastOptions shortens every limit so that tests run quickly.
func fastOptions() Options {
	return Options{
		BearerToken:   testToken,
		HeaderTimeout: 300 * time.Millisecond,
		RetryBackoff:  []time.Duration{time.Millisecond, 2 * time.Millisecond},
	}
}

// serve starts an httptest server whose handler is h and returns a client
// of its mount path ("" for the root) with fastOptions.
func serve(t *testing.T, mount string, h http.HandlerFunc) (*Client, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(srv.URL+mount, fastOptions())
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c, srv
}

// counter counts requests by "METHOD path".
type counter struct{ n atomic.Int64 }

func (c *counter) inc() int64 { return c.n.Add(1) }
func (c *counter) get() int64 { return c.n.Load() }

// writeJSON answers status with body as application/json.
func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// asError asserts that err is an *Error and returns it.
func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *catalog.Error", err, err)
	}
	if e.Error() == "" {
		t.Fatalf("empty error text")
	}
	return e
}

// wantError asserts an *Error's code, exit status and exact text.
func wantError(t *testing.T, err error, code string, exit int, text string) *Error {
	t.Helper()
	e := asError(t, err)
	if e.Code() != code || e.ExitCode() != exit {
		t.Errorf("code/exit = %q/%d, want %q/%d (text %q)", e.Code(), e.ExitCode(), code, exit, e.Error())
	}
	if text != "" && e.Error() != text {
		t.Errorf("text =\n%q\nwant\n%q", e.Error(), text)
	}
	return e
}

// ctxT is a context that ends with the test.
func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

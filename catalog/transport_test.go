package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestGetRetries(t *testing.T) {
	tests := []struct {
		name     string
		failures int // answers of the fault before a good answer
		status   int
		wantN    int64
		wantErr  string
	}{
		{"503 twice then ok", 2, 503, 3, ""},
		{"502 once then ok", 1, 502, 2, ""},
		{"504 three times", 3, 504, 3, `injected_fault: gateway (HTTP 504)`},
		{"500 not retried", 1, 500, 1, `injected_fault: gateway (HTTP 500)`},
		{"429 not retried", 1, 429, 1, `injected_fault: gateway (HTTP 429)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n counter
			c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
				if int(n.inc()) <= tt.failures {
					writeJSON(w, tt.status, `{"ok":false,"error":"injected_fault","message":"gateway"}`)
					return
				}
				writeJSON(w, 200, `{"ok":true,"tools":[]}`)
			})
			_, err := c.Tools(ctxT(t), Binding{})
			if n.get() != tt.wantN {
				t.Errorf("%d requests, want %d", n.get(), tt.wantN)
			}
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			e := asError(t, err)
			if got := fmt.Sprintf("%s: %s (HTTP %d)", e.Code(), e.Message, e.Status); got != tt.wantErr {
				t.Errorf("error = %q, want %q", got, tt.wantErr)
			}
			wantExit := exitForStatus(tt.status)
			if e.ExitCode() != wantExit {
				t.Errorf("exit = %d, want %d", e.ExitCode(), wantExit)
			}
		})
	}
}

// hijackClose closes the connection without answering (a reset as the
// client sees it).
func hijackClose(w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // RST instead of FIN
		}
		_ = conn.Close()
	}
}

func TestGetRetriesConnectionReset(t *testing.T) {
	var n counter
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		if n.inc() <= 2 {
			hijackClose(w)
			return
		}
		writeJSON(w, 200, `{"ok":true,"sessions":[]}`)
	})
	if _, err := c.Sessions(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if n.get() != 3 {
		t.Errorf("%d requests, want 3", n.get())
	}
}

func TestGetResetExhausted(t *testing.T) {
	var n counter
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		n.inc()
		hijackClose(w)
	})
	_, err := c.Tools(ctxT(t), Binding{})
	e := wantError(t, err, CodeUnreachable, ExitUnreachable, "")
	prefix := "the connection to " + c.base.Host + " was closed before an answer to GET /v1/tools; " +
		"is the deployment restarting? ("
	if !strings.HasPrefix(e.Error(), prefix) || !strings.HasSuffix(e.Error(), ", 3 attempts)") {
		t.Errorf("text = %q", e.Error())
	}
	if n.get() != 3 {
		t.Errorf("%d requests, want 3", n.get())
	}
}

func TestPostNeverRetried(t *testing.T) {
	for _, fault := range []string{"503", "reset"} {
		t.Run(fault, func(t *testing.T) {
			var n counter
			c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
				n.inc()
				if fault == "reset" {
					hijackClose(w)
					return
				}
				writeJSON(w, 503, `{"ok":false,"error":"injected_fault"}`)
			})
			_, err := c.Call(ctxT(t), "write", json.RawMessage(`{}`), Binding{})
			e := asError(t, err)
			if e.ExitCode() != ExitUnreachable {
				t.Errorf("exit = %d, want 5 (%s)", e.ExitCode(), e)
			}
			if fault == "reset" && !strings.Contains(e.Error(), "POST /v1/tools/write, so the call may or may not have run; ") {
				t.Errorf("text = %q", e.Error())
			}
			if n.get() != 1 {
				t.Errorf("%d requests, want 1", n.get())
			}
		})
	}
}

func TestGetHeaderTimeout(t *testing.T) {
	var n counter
	release := make(chan struct{})
	defer close(release)
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		n.inc()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	c.opts.HeaderTimeout = 50 * time.Millisecond
	_, err := c.Info(ctxT(t))
	e := wantError(t, err, CodeTimeout, ExitUnreachable, "")
	want := "deployment did not answer GET /v1/info within 50ms (" + c.Target() + ", 3 attempts)"
	if e.Error() != want {
		t.Errorf("text = %q, want %q", e.Error(), want)
	}
	if n.get() != 3 {
		t.Errorf("%d requests, want 3", n.get())
	}
}

func TestPostHasNoTimeLimit(t *testing.T) {
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond) // three times the GET limit below
		writeJSON(w, 200, `{"ok":true,"toolName":"slow","result":1}`)
	})
	c.opts.HeaderTimeout = 50 * time.Millisecond
	res, err := c.Call(ctxT(t), "slow", nil, Binding{})
	if err != nil || string(res.Result) != "1" {
		t.Fatalf("call = %+v, %v", res, err)
	}
}

func TestGetBodyStallTimesOut(t *testing.T) {
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true,"tools":[`))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	c.opts.HeaderTimeout = 50 * time.Millisecond
	_, err := c.Tools(ctxT(t), Binding{})
	wantError(t, err, CodeTimeout, ExitUnreachable,
		"deployment did not answer: its answer to GET /v1/tools stalled for 50ms")
}

// stallAfter writes a partial body and then blocks until the client goes.
func stallAfter(partial string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // else the server never sees the client go
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(partial))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
}

func TestCancelMidBody(t *testing.T) {
	tests := []struct {
		name string
		run  func(ctx context.Context, c *Client) error
		want string
	}{
		{"GET", func(ctx context.Context, c *Client) error { _, err := c.Tools(ctx, Binding{}); return err },
			"interrupted"},
		{"POST", func(ctx context.Context, c *Client) error {
			_, err := c.Call(ctx, "read", nil, Binding{})
			return err
		}, "interrupted while receiving the answer; the call to read completed on the deployment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := serve(t, "", stallAfter(`{"ok":true,"tools":[{"name":"a"},`+`{"toolName":"read","result":"`))
			c.opts.HeaderTimeout = time.Hour // only the cancellation may end it
			ctx, cancel := context.WithCancel(ctxT(t))
			time.AfterFunc(50*time.Millisecond, cancel)
			done := make(chan error, 1)
			go func() { done <- tt.run(ctx, c) }()
			select {
			case err := <-done:
				wantError(t, err, CodeInterrupted, ExitInterrupted, tt.want)
			case <-time.After(10 * time.Second):
				t.Fatal("cancellation did not end the request")
			}
		})
	}
}

func TestCancelPostBeforeAnswer(t *testing.T) {
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(ctxT(t))
	time.AfterFunc(30*time.Millisecond, cancel)
	_, err := c.Call(ctx, "deploy", nil, Binding{SessionID: "ses_1"})
	wantError(t, err, CodeInterrupted, ExitInterrupted,
		"interrupted; the call to deploy may still complete on the deployment")
}

func TestCancelDuringBackoff(t *testing.T) {
	c, _ := serve(t, "", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 503, `{"ok":false,"error":"busy"}`)
	})
	c.opts.RetryBackoff = []time.Duration{time.Hour, time.Hour}
	ctx, cancel := context.WithCancel(ctxT(t))
	time.AfterFunc(30*time.Millisecond, cancel)
	_, err := c.Sessions(ctx)
	wantError(t, err, CodeInterrupted, ExitInterrupted, "interrupted")
}

func TestUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c, err := New("http://user:hunter22@"+addr+"/executor", fastOptions())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Info(ctxT(t))
	wantError(t, err, CodeUnreachable, ExitUnreachable,
		"cannot reach the deployment at http://"+addr+"/executor: connection refused; is it running, and is the target right?")
}

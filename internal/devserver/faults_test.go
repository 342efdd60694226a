package devserver_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agsh-dev/agsh/internal/devserver/devservertest"
	"github.com/agsh-dev/agsh/internal/testtier"
)

func TestFaultStatus(t *testing.T) {
	_, exec := start(t)
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "POST /v1/tools/echo_read", Count: 2, Status: 503})
	for i := 0; i < 2; i++ {
		status, body := post(t, exec, "echo_read", "", `{}`)
		if status != 503 || string(body) != `{"ok":false,"error":"injected_fault"}` {
			t.Fatalf("request %d: got %d %s", i, status, body)
		}
	}
	// The count is used up; other routes were never affected.
	if status, body := post(t, exec, "echo_read", "", `{}`); status != 200 {
		t.Fatalf("after the count: %d %s", status, body)
	}
}

func TestFaultMatchesMethodAndPathOnly(t *testing.T) {
	s, exec := start(t)
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "GET /v1/tools", Status: 502})
	// Another agent, another method, another path: untouched.
	for _, u := range []string{s.AgentURL("planner") + "/v1/tools", exec + "/v1/tools/echo_read", exec + "/v1/info"} {
		if status, body := devservertest.Do(t, http.MethodGet, u, "", nil); status != 200 {
			t.Fatalf("%s: %d %s", u, status, body)
		}
	}
	// The query is ignored.
	if status, _ := devservertest.Do(t, http.MethodGet, exec+"/v1/tools?sessionId=x", "", nil); status != 502 {
		t.Fatalf("got %d, want the fault", status)
	}
}

func TestFaultBody(t *testing.T) {
	_, exec := start(t)
	for _, tt := range []struct {
		name, body, ctype string
		status, want      int
	}{
		{"html", "<html><body>Bad gateway</body></html>", "text/html; charset=utf-8", 502, 502},
		{"malformed json", `{"ok": tru`, "application/json; charset=utf-8", 0, 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "GET /v1/info", Status: tt.status, Body: &tt.body})
			resp, err := http.Get(exec + "/v1/info")
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want || string(got) != tt.body || resp.Header.Get("Content-Type") != tt.ctype {
				t.Fatalf("got %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), got)
			}
		})
	}
}

func TestFaultFiftyMegabyteBodyBig(t *testing.T) {
	testtier.Big(t)
	if testing.Short() {
		t.Skip("50 MB body")
	}
	_, exec := start(t)
	big := `{"ok":true,"tools":[],"pad":"` + strings.Repeat("x", 50<<20) + `"}`
	// A JSON value as the body is served as is; the arming request is built
	// by hand (marshaling 50 MB is slow under -race).
	arm := `{"route":"GET /v1/tools","body":` + big + `}`
	if status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/dev/faults", "", arm); status != 200 {
		t.Fatalf("arming: %d %s", status, body)
	}
	status, body := devservertest.Do(t, http.MethodGet, exec+"/v1/tools", "", nil)
	if status != 200 || len(body) != len(big) || string(body) != big {
		t.Fatalf("got %d, %d bytes, want %d", status, len(body), len(big))
	}
}

func TestFaultDelay(t *testing.T) {
	_, exec := start(t)
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "POST /v1/tools/echo_read", DelayMs: 150})
	began := time.Now()
	status, body := post(t, exec, "echo_read", "", `{"input":{"a":1}}`)
	// A delay alone answers normally, after at least the delay.
	if elapsed := time.Since(began); status != 200 || !strings.Contains(string(body), `"result":{"a":1}`) || elapsed < 150*time.Millisecond {
		t.Fatalf("got %d %s after %v", status, body, elapsed)
	}
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "POST /v1/tools/echo_read", DelayMs: 50, Status: 504})
	if status, _ := post(t, exec, "echo_read", "", `{}`); status != 504 {
		t.Fatalf("delay with status: got %d", status)
	}
}

func TestFaultHang(t *testing.T) {
	_, exec := start(t)
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "GET /v1/tools", HangMs: 200})
	began := time.Now()
	// A fresh connection: net/http retries a GET that fails on a reused one.
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get(exec + "/v1/tools")
	if err == nil {
		resp.Body.Close()
		t.Fatalf("a hang answered %d", resp.StatusCode)
	}
	if elapsed := time.Since(began); elapsed < 200*time.Millisecond || !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("got %v after %v, want the connection closed after the hang", err, elapsed)
	}
	if status, _ := devservertest.Do(t, http.MethodGet, exec+"/v1/tools", "", nil); status != 200 {
		t.Fatalf("after the hang: %d", status)
	}
}

func TestFaultTruncate(t *testing.T) {
	_, exec := start(t)
	fetch := func() (*http.Response, []byte, error) {
		resp, err := http.Get(exec + "/v1/tools/echo_read")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp, b, err
	}
	_, whole, _ := fetch()
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "GET /v1/tools/echo_read", Truncate: true})
	resp, got, err := fetch()
	if !errors.Is(err, io.ErrUnexpectedEOF) || resp.StatusCode != 200 || resp.ContentLength != int64(len(whole)) ||
		string(got) != string(whole[:len(whole)/2]) {
		t.Fatalf("got %v, %d, length %d, body %q\nwant half of %q", err, resp.StatusCode, resp.ContentLength, got, whole)
	}
	body := "0123456789"
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "GET /v1/tools/echo_read", Status: 500, Body: &body, Truncate: true})
	resp, got, err = fetch()
	if !errors.Is(err, io.ErrUnexpectedEOF) || resp.StatusCode != 500 || resp.ContentLength != 10 || string(got) != "01234" {
		t.Fatalf("got %v, %d, length %d, body %q", err, resp.StatusCode, resp.ContentLength, got)
	}
}

func TestFaultsClearAndValidate(t *testing.T) {
	_, exec := start(t)
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "DELETE /v1/dev/faults", Status: 500})
	html := "<p>"
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "POST /executor/v1/tools/echo_read", Count: 5, Status: 500, Body: &html})
	status, listed := devservertest.Do(t, http.MethodGet, exec+"/v1/dev/faults", "", nil)
	if want := `{"faults":[{"bodyBytes":0,"count":1,"delayMs":0,"hangMs":0,"route":"DELETE /v1/dev/faults","status":500,"truncate":false},` +
		`{"bodyBytes":3,"count":5,"delayMs":0,"hangMs":0,"route":"POST /v1/tools/echo_read","status":500,"truncate":false}],"ok":true}`; status != 200 || string(listed) != want {
		t.Fatalf("listing: %d %s\nwant %s", status, listed, want)
	}
	status, body := devservertest.Do(t, http.MethodDelete, exec+"/v1/dev/faults", "", nil)
	if status != 200 || string(body) != `{"cleared":2,"ok":true}` {
		t.Fatalf("clear: %d %s", status, body)
	}
	if status, _ := post(t, exec, "echo_read", "", `{}`); status != 200 {
		t.Fatalf("after clear: %d", status)
	}
	for _, tt := range []struct{ body, msg string }{
		{`{"route":"tools/read","status":500}`, `invalid fault: route: expected "METHOD /path", such as "POST /v1/tools/read"`},
		{`{"route":"GET /v1/tools"}`, "invalid fault: status: a fault needs at least one of status, body, delayMs, hangMs, truncate"},
		{`{"route":"GET /v1/tools","status":42}`, "invalid fault: status: must be an HTTP status between 100 and 599"},
		{`{"route":"GET /v1/tools","status":500,"count":0}`, "invalid fault: count: must be at least 1"},
	} {
		status, body := devservertest.Do(t, http.MethodPost, exec+"/v1/dev/faults", "", tt.body)
		expectError(t, status, body, 400, "invalid_input", tt.msg)
	}
}

func TestCloseEndsDelaysAndHangs(t *testing.T) {
	s, exec := start(t)
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "GET /v1/info", DelayMs: 600_000})
	devservertest.ArmFault(t, exec, "", devservertest.Fault{Route: "GET /v1/tools", HangMs: 600_000})
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	type answer struct {
		status int
		body   string
		err    error
	}
	get := func(u string, out chan<- answer) {
		resp, err := client.Get(u)
		if err != nil {
			out <- answer{err: err}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		out <- answer{status: resp.StatusCode, body: string(b)}
	}
	delayed, hung := make(chan answer, 1), make(chan answer, 1)
	go get(exec+"/v1/info", delayed)
	go get(exec+"/v1/tools", hung)
	// Both requests have reached the server once both faults are taken.
	for {
		_, body := devservertest.Do(t, http.MethodGet, exec+"/v1/dev/faults", "", nil)
		if string(body) == `{"faults":[],"ok":true}` {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("close: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Close waited on an injected delay or hang")
	}
	if a := <-delayed; a.status != 503 || a.body != `{"ok":false,"error":"shutting_down","message":"the server is shutting down"}` {
		t.Fatalf("delayed request: %+v", a)
	}
	if a := <-hung; a.err == nil {
		t.Fatalf("hung request answered: %+v", a)
	}
}

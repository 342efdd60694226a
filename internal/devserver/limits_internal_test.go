package devserver

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// pipeListener hands out the server ends of pipes.
type pipeListener struct{ conns chan net.Conn }

func (p *pipeListener) Accept() (net.Conn, error) {
	c, ok := <-p.conns
	if !ok {
		return nil, errors.New("closed")
	}
	return c, nil
}
func (p *pipeListener) Close() error   { return nil }
func (p *pipeListener) Addr() net.Addr { return &net.TCPAddr{} }

// The cap on connections keeps room for those being answered: a new
// connection takes the slot of the one that has waited longest for its
// request (past the cap on waiting ones, or on all), and only when every
// slot is answering is it refused with 503.
func TestCapListenerEvictsTheLongestWaiting(t *testing.T) {
	pl := &pipeListener{conns: make(chan net.Conn)}
	l := newCapListener(pl, 8, func(string, ...any) {}) // 7 may wait
	dial := func() (client net.Conn, admitted *cappedConn) {
		c, s := net.Pipe()
		go func() { pl.conns <- s }()
		got, err := l.Accept()
		if err != nil {
			return c, nil // refused: Accept went on to the next
		}
		return c, got.(*cappedConn)
	}
	closed := func(c net.Conn) bool {
		_, err := c.Read(make([]byte, 1))
		return errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe)
	}
	counts := func() (open, waiting int) {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.open, l.waiting
	}
	var clients []net.Conn
	var conns []*cappedConn
	for range 7 {
		c, cc := dial()
		clients, conns = append(clients, c), append(conns, cc)
	}
	// An eighth waiting one is past the cap on waiting connections: the
	// first goes.
	c8, cc8 := dial()
	if open, waiting := counts(); cc8 == nil || !closed(clients[0]) || open != 7 || waiting != 7 {
		t.Fatalf("eighth: admitted %v, open %d, waiting %d", cc8 != nil, open, waiting)
	}
	// The one whose request came in last waits from then: the second is
	// now the one that waited longest... until it too gets its request.
	conns[1].setWaiting(true)
	_, cc9 := dial()
	if cc9 == nil || !closed(clients[2]) {
		t.Fatal("ninth: the connection that waited longest was not the one closed")
	}
	// Connections being answered are never closed for a new one.
	for _, cc := range append(conns[1:2], conns[3:]...) {
		cc.setWaiting(false)
	}
	cc8.setWaiting(false)
	cc9.setWaiting(false)
	if open, waiting := counts(); open != 7 || waiting != 0 {
		t.Fatalf("open %d, waiting %d", open, waiting)
	}
	_, cc10 := dial() // the eighth slot
	if cc10 == nil {
		t.Fatal("the last slot was refused")
	}
	cc10.setWaiting(false)
	// Every slot answering: refused with 503, the others untouched.
	c, s := net.Pipe()
	go func() { pl.conns <- s }()
	go func() { _, _ = l.Accept() }() // refuses, then waits for the next
	_, _ = c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 503 {
		t.Fatalf("over the cap: %v %v", err, resp)
	}
	body, _ := io.ReadAll(resp.Body)
	if open, _ := counts(); !strings.Contains(string(body), `"error":"too_many_connections"`) || open != 8 {
		t.Fatalf("over the cap: %s, open %d", body, open)
	}
	// A connection that closes gives its slot back.
	_ = cc8.Close()
	_ = c8.Close()
	if open, _ := counts(); open != 7 {
		t.Fatalf("open %d after a close", open)
	}
	close(pl.conns)
}

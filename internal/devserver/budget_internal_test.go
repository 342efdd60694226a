package devserver

import (
	"context"
	"runtime"
	"testing"
)

// waitWaiters yields until the gate has n waiters in line.
func waitWaiters(g *bodyGate, n int) {
	for {
		g.mu.Lock()
		got := len(g.waiters)
		g.mu.Unlock()
		if got == n {
			return
		}
		runtime.Gosched()
	}
}

// The body gate lets large bodies in up to its bytes, in order of arrival;
// a body larger than the gate goes alone; a waiter whose request ends
// leaves the line.
func TestBodyGate(t *testing.T) {
	g := newBodyGate(10)
	ctx := context.Background()
	if !g.enter(ctx, 6) || !g.enter(ctx, 4) {
		t.Fatal("bodies that fit waited")
	}
	admitted := make(chan int64, 3)
	for i, n := range []int64{100, 1} { // the large one first: the small one waits behind it
		go func() {
			if g.enter(ctx, n) {
				admitted <- n
			}
		}()
		waitWaiters(g, i+1)
	}
	cctx, cancel := context.WithCancel(ctx)
	gone := make(chan bool)
	go func() { gone <- g.enter(cctx, 3) }()
	waitWaiters(g, 3)
	cancel()
	if <-gone {
		t.Fatal("a cancelled waiter was admitted")
	}
	waitWaiters(g, 2)
	g.leave(6)
	select {
	case n := <-admitted:
		t.Fatalf("%d admitted while 4 bytes are in", n)
	default:
	}
	g.leave(4)
	if n := <-admitted; n != 100 {
		t.Fatalf("admitted %d first, want the body that came first", n)
	}
	g.leave(100)
	if n := <-admitted; n != 1 {
		t.Fatalf("admitted %d", n)
	}
	g.leave(1)
	if g.used != 0 || len(g.waiters) != 0 {
		t.Fatalf("used %d, %d waiting", g.used, len(g.waiters))
	}
}

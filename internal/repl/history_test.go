package repl

import (
	"reflect"
	"testing"
)

func TestRingAdd(t *testing.T) {
	h := newRing(3)
	for _, e := range []string{"a", "a", " ", "", "b", "a", "c", "d"} {
		h.add(e)
	}
	if want := []string{"a", "c", "d"}; !reflect.DeepEqual(h.entries, want) {
		t.Errorf("entries = %q, want %q", h.entries, want)
	}
	if h.add("d") {
		t.Error("add of the newest entry again reported true")
	}
}

func TestRingBrowse(t *testing.T) {
	h := newRing(10)
	h.add("one")
	h.add("two")
	steps := []struct {
		op   string
		want string
		ok   bool
	}{
		{"next", "", false},
		{"prev", "two", true},
		{"prev", "one", true},
		{"prev", "", false},
		{"next", "two", true},
		{"next", "draft", true},
		{"next", "", false},
	}
	for i, s := range steps {
		var got string
		var ok bool
		if s.op == "prev" {
			got, ok = h.prev("draft")
		} else {
			got, ok = h.next()
		}
		if got != s.want || ok != s.ok {
			t.Fatalf("step %d %s = %q,%v; want %q,%v", i, s.op, got, ok, s.want, s.ok)
		}
	}
}

func TestRingPrepend(t *testing.T) {
	h := newRing(4)
	h.add("x")
	h.add("y")
	h.prepend([]string{"a", "b", "x"})
	if want := []string{"a", "b", "x", "y"}; !reflect.DeepEqual(h.entries, want) {
		t.Errorf("entries = %q, want %q", h.entries, want)
	}
	h.prepend([]string{"0"})
	if want := []string{"a", "b", "x", "y"}; !reflect.DeepEqual(h.entries, want) {
		t.Errorf("entries over the limit = %q, want %q", h.entries, want)
	}
}

func TestRingFind(t *testing.T) {
	h := newRing(10)
	for _, e := range []string{"ls /", "read /a", "ls /repo", "grep x"} {
		h.add(e)
	}
	tests := []struct {
		query string
		from  int
		want  int
	}{
		{"ls", 3, 2},
		{"ls", 1, 0},
		{"ls", 99, 2},
		{"read", 3, 1},
		{"nope", 3, -1},
		{"", 3, -1},
		{"ls", -1, -1},
	}
	for _, tt := range tests {
		if got := h.find(tt.query, tt.from); got != tt.want {
			t.Errorf("find(%q, %d) = %d, want %d", tt.query, tt.from, got, tt.want)
		}
	}
}

func TestSearch(t *testing.T) {
	h := newRing(10)
	for _, e := range []string{"ls /src", "read /repo/a", "ls /repo", "grep x"} {
		h.add(e)
	}
	e := edState("typed|")
	var s search
	s.start(&e)
	s.typed(&h, []rune("l"))
	if got := s.current(&h); got != "ls /repo" {
		t.Fatalf("after l: %q", got)
	}
	s.typed(&h, []rune("s /s"))
	if got := s.current(&h); got != "ls /src" || s.failing {
		t.Fatalf("after 'ls /s': %q failing=%v", got, s.failing)
	}
	s.backspace(&h)
	s.backspace(&h) // query "ls "
	if got := s.current(&h); got != "ls /repo" {
		t.Fatalf("after backspaces: %q", got)
	}
	s.older(&h)
	if got := s.current(&h); got != "ls /src" {
		t.Fatalf("after Ctrl-R: %q", got)
	}
	s.older(&h)
	if got := s.current(&h); got != "ls /src" || !s.failing {
		t.Fatalf("Ctrl-R past the oldest: %q failing=%v", got, s.failing)
	}
	s.typed(&h, []rune("zz"))
	if !s.failing {
		t.Fatal("query ls zz should fail")
	}
	s.cancel(&e)
	if got := edString(e); got != "typed|" || s.active {
		t.Fatalf("cancel left %q active=%v", got, s.active)
	}

	s.start(&e)
	s.typed(&h, []rune("repo/"))
	s.accept(&h, &e)
	if got := edString(e); got != "read /|repo/a" {
		t.Fatalf("accept left %q", got)
	}
}

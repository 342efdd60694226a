package top

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// benchRows are n sessions in the demo's mix of states.
func benchRows(n int) []Row {
	states := []string{StateApproval, StateRunning, StateRunning, StateWaiting, StateFailed, StateDone, StateQueued, StateStopped}
	rows := make([]Row, n)
	for i := range rows {
		r := &rows[i]
		r.ID = fmt.Sprintf("ses_%016x", uint64(i)*0x9e3779b97f4a7c15)
		r.Title = fmt.Sprintf("Check the release notes of build %d (bench)", i)
		r.Principal = "local"
		r.State = states[i%len(states)]
		r.Created = t0.Add(-time.Duration(n-i) * time.Second)
		r.Activity = t0.Add(-time.Duration(i%600) * time.Second)
		if i%3 == 0 {
			r.Call = fmt.Sprintf("read --limit=3 /repo/docs/page-%d.md", i)
		}
		switch r.State {
		case StateApproval:
			r.Parked = r.Activity
		case StateFailed:
			r.Failed = r.Activity
		}
	}
	return rows
}

// benchModel is the view of n sessions at w×h, the rows landed.
func benchModel(n, w, h int) *Model {
	m := New(context.Background(), Config{Source: &fakeSource{}, Target: "http://127.0.0.1:1/executor",
		Interval: time.Hour, Now: func() time.Time { return t0 }, Location: time.UTC})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.busy = true
	m.Update(refreshMsg{rows: benchRows(n)})
	return m
}

// BenchmarkTopKey is a key and the redraw it causes (Update, then View),
// with 10,000 sessions: a move (j, k), and a filter's next character
// (which looks through every row).
func BenchmarkTopKey(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		for _, size := range [][2]int{{80, 24}, {200, 50}} {
			b.Run(fmt.Sprintf("move/sessions=%d/%dx%d", n, size[0], size[1]), func(b *testing.B) {
				m := benchModel(n, size[0], size[1])
				keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'j'}}, {Type: tea.KeyRunes, Runes: []rune{'k'}}}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					m.Update(keys[i%2])
					_ = m.View()
				}
			})
		}
		b.Run(fmt.Sprintf("filter/sessions=%d/200x50", n), func(b *testing.B) {
			m := benchModel(n, 200, 50)
			m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'/'}})
			keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'9'}}, {Type: tea.KeyBackspace}}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.Update(keys[i%2])
				_ = m.View()
			}
		})
	}
}

// BenchmarkTopRefreshLanded is a refresh's answer landing in the view:
// the rows sorted, filtered and drawn.
func BenchmarkTopRefreshLanded(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			m := benchModel(n, 200, 50)
			rows := benchRows(n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.busy = true
				m.Update(refreshMsg{rows: append([]Row(nil), rows...)})
				_ = m.View()
			}
		})
	}
}

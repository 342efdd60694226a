package datadog

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

func TestSeedIsDeterministic(t *testing.T) {
	a, b := NewStore(), NewStore()
	ma, _ := a.List(Filter{}, 0, 100)
	mb, _ := b.List(Filter{}, 0, 100)
	ja, _ := json.Marshal(ma)
	jb, _ := json.Marshal(mb)
	if string(ja) != string(jb) {
		t.Fatal("two stores differ")
	}
	if len(ma) != 40 || a.Len() != 40 {
		t.Fatalf("%d monitors, want 40", len(ma))
	}
	if ma[0].ID != 4101266 || ma[0].Name != "api error rate is high" || ma[0].Type != "query alert" {
		t.Errorf("first monitor %+v", ma[0])
	}
	ids := map[int64]bool{}
	for i, m := range ma {
		if ids[m.ID] || (i > 0 && m.ID <= ma[i-1].ID) {
			t.Errorf("id %d repeated or out of order", m.ID)
		}
		ids[m.ID] = true
		if !slices.Contains(Statuses, m.Status) {
			t.Errorf("monitor %d: status %q", m.ID, m.Status)
		}
		if _, err := time.Parse(time.RFC3339, m.UpdatedAt); err != nil {
			t.Errorf("monitor %d: updatedAt %q", m.ID, m.UpdatedAt)
		}
		if len(m.Tags) < 3 || m.Tags[1] != "env:prod" {
			t.Errorf("monitor %d: tags %q", m.ID, m.Tags)
		}
	}
}

func TestMonitorJSONOrder(t *testing.T) {
	until := "2027-01-04T09:00:00Z"
	b, _ := json.Marshal(Monitor{ID: 1, Name: "n", Status: "OK", Type: "metric alert", Query: "q", Tags: []string{"a"}, Muted: true, MutedUntil: &until, UpdatedAt: "u"})
	if want := `{"id":1,"name":"n","status":"OK","type":"metric alert","query":"q","tags":["a"],"muted":true,"mutedUntil":"2027-01-04T09:00:00Z","updatedAt":"u"}`; string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestMuteEndsAndExpires(t *testing.T) {
	s := NewStore()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	first, _ := s.List(Filter{}, 0, 1)
	id := first[0].ID

	m, err := s.Mute(id, now.Add(time.Hour))
	if err != nil || !m.Muted || *m.MutedUntil != "2026-11-30T13:00:00Z" || m.UpdatedAt != "2026-11-30T12:00:00Z" {
		t.Fatalf("Mute = %+v, %v", m, err)
	}
	now = now.Add(2 * time.Hour)
	if m, _ := s.Get(id); m.Muted || m.MutedUntil != nil {
		t.Errorf("after the end: %+v", m)
	}
	if _, err := s.Mute(id, now); err == nil || err.Error() != "end 2026-11-30T14:00:00Z is not in the future" {
		t.Errorf("Mute(now) error = %v", err)
	}
	if m, err := s.Mute(id, time.Time{}); err != nil || !m.Muted || m.MutedUntil != nil {
		t.Errorf("Mute with no end = %+v, %v", m, err)
	}
	if _, err := s.Get(7); err == nil || err.Error() != "no monitor with id 7" {
		t.Errorf("Get(7) error = %v", err)
	}
}

func TestListPagesAfterCursor(t *testing.T) {
	s := NewStore()
	all, next := s.List(Filter{}, 0, 40)
	if next != "" {
		t.Errorf("a page holding everything has cursor %q", next)
	}
	page, next := s.List(Filter{}, all[9].ID, 5)
	if len(page) != 5 || page[0].ID != all[10].ID {
		t.Errorf("page after the tenth: %d monitors from %d, next %q", len(page), page[0].ID, next)
	}
	if next != jsonID(all[14].ID) {
		t.Errorf("next %q, want %d", next, all[14].ID)
	}
	if page, next := s.List(Filter{}, all[39].ID, 5); len(page) != 0 || next != "" {
		t.Errorf("after the last: %d monitors, next %q", len(page), next)
	}
}

func jsonID(id int64) string {
	b, _ := json.Marshal(id)
	return string(b)
}

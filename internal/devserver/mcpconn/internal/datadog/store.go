// Package datadog is the development deployment's stand-in for a Datadog
// MCP server: a deterministic, seeded, stateful store of monitors and an MCP
// server (built with the official Go SDK) whose tools list, get and mute
// them. Muting changes what the store shows for the rest of the run.
package datadog

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Statuses are the monitor states, in the order the list_monitors schema
// offers them.
var Statuses = []string{"OK", "Alert", "Warn", "No Data"}

// Monitor is one monitor as the tools answer it (field order is the JSON
// order). MutedUntil is null when the monitor is not muted or muted with no
// end.
type Monitor struct {
	ID         int64    `json:"id"`
	Name       string   `json:"name"`
	Status     string   `json:"status"`
	Type       string   `json:"type"`
	Query      string   `json:"query"`
	Tags       []string `json:"tags"`
	Muted      bool     `json:"muted"`
	MutedUntil *string  `json:"mutedUntil"`
	UpdatedAt  string   `json:"updatedAt"`
}

// monitor is a stored monitor.
type monitor struct {
	id         int64
	name       string
	status     string
	typ        string
	query      string
	tags       []string
	muted      bool
	mutedUntil time.Time // zero: muted with no end
	updatedAt  time.Time
}

// Store holds the monitors. It is safe for concurrent use.
type Store struct {
	mu       sync.Mutex
	monitors []*monitor // by ascending id
	now      func() time.Time
}

// NewStore returns the seeded store: 40 monitors, the same on every run.
func NewStore() *Store {
	return &Store{monitors: seed(), now: time.Now}
}

// Len is the number of monitors.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.monitors)
}

// Filter selects monitors for List. Zero fields select everything.
type Filter struct {
	Query  string   // substring of the name or the query, case-insensitive
	Tags   []string // every tag must be carried (case-insensitive)
	Status string   // exact state
}

// List answers up to size monitors matching f whose id is above after
// (0: from the start), in id order, and the cursor of the next page ("" when
// this page is the last).
func (s *Store) List(f Filter, after int64, size int) ([]Monitor, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	q := strings.ToLower(f.Query)
	var out []Monitor
	for _, m := range s.monitors {
		if m.id <= after || !m.matches(q, f.Tags, f.Status) {
			continue
		}
		if len(out) == size {
			return out, strconv.FormatInt(out[len(out)-1].ID, 10)
		}
		out = append(out, m.view(now))
	}
	if out == nil {
		out = []Monitor{}
	}
	return out, ""
}

// matches reports whether m passes the filter (q already lower-cased).
func (m *monitor) matches(q string, tags []string, status string) bool {
	if status != "" && m.status != status {
		return false
	}
	if q != "" && !strings.Contains(strings.ToLower(m.name), q) && !strings.Contains(strings.ToLower(m.query), q) {
		return false
	}
	for _, t := range tags {
		if !slices.ContainsFunc(m.tags, func(have string) bool { return strings.EqualFold(have, t) }) {
			return false
		}
	}
	return true
}

// Get answers the monitor with the given id.
func (s *Store) Get(id int64) (Monitor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.find(id)
	if m == nil {
		return Monitor{}, fmt.Errorf("no monitor with id %d", id)
	}
	return m.view(s.now()), nil
}

// Mute mutes a monitor until end (the zero time: with no end) and answers it
// as it now is. An end that is not in the future is refused.
func (s *Store) Mute(id int64, end time.Time) (Monitor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.find(id)
	if m == nil {
		return Monitor{}, fmt.Errorf("no monitor with id %d", id)
	}
	now := s.now()
	if !end.IsZero() && !end.After(now) {
		return Monitor{}, fmt.Errorf("end %s is not in the future", end.UTC().Format(time.RFC3339))
	}
	m.muted, m.mutedUntil, m.updatedAt = true, end.UTC(), now.UTC()
	return m.view(now), nil
}

// find answers the stored monitor with the id, nil when there is none.
func (s *Store) find(id int64) *monitor {
	i, ok := slices.BinarySearchFunc(s.monitors, id, func(m *monitor, id int64) int {
		switch {
		case m.id < id:
			return -1
		case m.id > id:
			return 1
		}
		return 0
	})
	if !ok {
		return nil
	}
	return s.monitors[i]
}

// view is the monitor as shown at now: a mute whose end has passed is over.
func (m *monitor) view(now time.Time) Monitor {
	v := Monitor{
		ID: m.id, Name: m.name, Status: m.status, Type: m.typ, Query: m.query,
		Tags: slices.Clone(m.tags), Muted: m.muted,
		UpdatedAt: m.updatedAt.UTC().Format(time.RFC3339),
	}
	if m.muted && !m.mutedUntil.IsZero() {
		if m.mutedUntil.After(now) {
			until := m.mutedUntil.Format(time.RFC3339)
			v.MutedUntil = &until
		} else {
			v.Muted = false
		}
	}
	return v
}

// The seed: four monitors for each of ten services.
var (
	services = []string{"api", "checkout", "billing", "payments", "search", "auth", "inventory", "notifications", "gateway", "orders"}
	teams    = []string{"platform", "commerce", "finance", "finance", "discovery", "identity", "commerce", "engagement", "platform", "commerce"}
)

// template is one kind of monitor made for every service.
type template struct {
	name, typ, query string
}

var templates = []template{
	{"%s error rate is high", "query alert", "sum(last_5m):sum:trace.http.request.errors{service:%[1]s,env:prod}.as_count() / sum:trace.http.request.hits{service:%[1]s,env:prod}.as_count() > 0.05"},
	{"%s p99 latency above 800ms", "metric alert", "avg(last_10m):p99:trace.http.request.duration{service:%s,env:prod} > 0.8"},
	{"%s pods restarting", "metric alert", "max(last_15m):sum:kubernetes.containers.restarts{kube_deployment:%s,env:prod} > 3"},
	{"%s health check failing", "service check", "\"http.can_connect\".over(\"service:%s\").by(\"host\").last(3).count_by_status()"},
}

// seed builds the monitors from a fixed random source, so every run (and
// every test) sees the same store.
func seed() []*monitor {
	r := rand.New(rand.NewPCG(20261129, 39400))
	base := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	id := int64(4101200)
	var out []*monitor
	for si, svc := range services {
		for _, t := range templates {
			id += 1 + r.Int64N(90)
			m := &monitor{
				id:        id,
				name:      fmt.Sprintf(t.name, svc),
				status:    seedStatus(r.IntN(20)),
				typ:       t.typ,
				query:     fmt.Sprintf(t.query, svc),
				tags:      []string{"service:" + svc, "env:prod", "team:" + teams[si]},
				updatedAt: base.Add(-time.Duration(r.IntN(14*24*60)) * time.Minute),
			}
			if si%3 == 0 {
				m.tags = append(m.tags, "tier:critical")
			}
			out = append(out, m)
		}
	}
	// Two monitors start muted: one with no end, one until the new year.
	out[6].muted = true
	out[21].muted, out[21].mutedUntil = true, time.Date(2027, 1, 4, 9, 0, 0, 0, time.UTC)
	return out
}

// seedStatus maps a draw from [0,20) to a state: mostly OK.
func seedStatus(n int) string {
	switch {
	case n < 12:
		return "OK"
	case n < 15:
		return "Alert"
	case n < 18:
		return "Warn"
	}
	return "No Data"
}

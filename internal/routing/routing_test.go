package routing

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/s2r-project/s2r/internal/model"
)

func TestPathTemplate(t *testing.T) {
	tests := []struct {
		tmpl, path string
		want       []PathParam
		ok         bool
	}{
		{"/add", "/add", nil, true},
		{"/add", "/add/", nil, true},
		{"/add", "/sub", nil, false},
		{"/countries/{code}", "/countries/US", []PathParam{{"code", "US"}}, true},
		{"/countries/{code}", "/countries/", nil, false},
		{"/countries/{code}", "/countries/US/x", nil, false},
		{"/a/{x}/b/{y}", "/a/1/b/2", []PathParam{{"x", "1"}, {"y", "2"}}, true},
		{"/", "/", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.tmpl+" "+tt.path, func(t *testing.T) {
			got, ok := ParsePathTemplate(tt.tmpl).Match(tt.path)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFieldRule(t *testing.T) {
	doc, err := DecodeJSON([]byte(`{"code":"us","n":12345678901234567890,"items":[{"sku":"A1"},{"sku":"b2"}],"o":{"x":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		field, pattern string
		want           []string
	}{
		{"/code", "^[A-Z]{2}$", []string{"/code"}},
		{"/code", "^[a-z]{2}$", nil},
		{"/n", `^\d{20}$`, nil},
		{"/items/*/sku", "^[A-Z]", []string{"/items/1/sku"}},
		{"/items/0/sku", "^[a-z]", []string{"/items/0/sku"}},
		{"/absent", "x", nil},
		{"/o", "x", []string{"/o"}},
	}
	for _, tt := range tests {
		t.Run(tt.field+" "+tt.pattern, func(t *testing.T) {
			r, err := CompileRule(model.ValidationRule{Field: tt.field, Pattern: tt.pattern})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range r.Check(doc) {
				got = append(got, v.Pointer)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := CompileRule(model.ValidationRule{Field: "/x", Pattern: "("}); err == nil {
		t.Error("bad pattern compiled")
	}
}

func TestSchemaViolations(t *testing.T) {
	s, err := CompileSchema("mem://t.json", map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type":    "object", "additionalProperties": false,
		"required":   []any{"a"},
		"properties": map[string]any{"a": map[string]any{"type": "integer"}, "b": map[string]any{"type": "string"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		doc  string
		want []string
	}{
		{`{"a":1}`, nil},
		{`{"a":"x","b":2}`, []string{"/a", "/b"}},
		{`{}`, []string{""}},
	} {
		doc, _ := DecodeJSON([]byte(tt.doc))
		var got []string
		for _, v := range SchemaViolations(s, doc) {
			got = append(got, v.Pointer)
			if v.Reason == "" {
				t.Errorf("%s: empty reason", tt.doc)
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.doc, diff)
		}
	}
}

func TestShapes(t *testing.T) {
	w, err := ParseEnvelopeWrap([]byte(`{"dataField":"data","include":{"correlationId":true,"timestamp":true}}`))
	if err != nil || w.DataField != "data" || !w.CorrelationID || !w.Timestamp || w.ServiceKey {
		t.Errorf("wrap = %+v, %v", w, err)
	}
	if w, err := ParseEnvelopeWrap([]byte(`null`)); w != nil || err != nil {
		t.Errorf("null wrap = %+v, %v", w, err)
	}
	s, err := ParseErrorShape([]byte(`{"ok":false,"error":{"text":"${code}: ${message}","d":"${details}","n":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Root.Object[1].Value.Object[1].Value.Details != true {
		t.Errorf("details node not marked: %+v", s.Root.Object[1].Value.Object[1].Value)
	}
	if _, err := ParseErrorShape([]byte(`{"x":"${oops}"}`)); err == nil {
		t.Error("unknown placeholder accepted")
	}
	if _, err := ParseErrorShape([]byte(`[1]`)); err == nil {
		t.Error("array shape accepted")
	}
}

func TestReloaderKeepsTableOnFailure(t *testing.T) {
	var fail atomic.Bool
	var rev atomic.Int64
	r := NewReloader(ReloaderConfig{
		Load: func(ctx context.Context) (*Table, error) {
			if fail.Load() {
				return nil, errors.New("broken compile")
			}
			svc := NewService(&Service{ID: "s1", ServiceKey: "calc", Environment: "dev", Direction: "publish"}, nil)
			return NewTable(rev.Load(), []*Service{svc}, nil), nil
		},
		Interval: 10 * time.Millisecond,
	})
	ctx := context.Background()
	rev.Store(1)
	if err := r.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if r.Table().Lookup("publish", "dev", "calc") == nil || r.Table().Revision() != 1 {
		t.Fatal("first table not served")
	}
	fail.Store(true)
	rev.Store(2)
	if err := r.Reload(ctx); err == nil {
		t.Fatal("broken load succeeded")
	}
	if r.Table().Revision() != 1 || r.Table().Lookup("publish", "dev", "calc") == nil {
		t.Fatal("broken load replaced the table")
	}
	// Run retries a failed load and picks up the fixed configuration.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	r.Nudge()
	time.Sleep(30 * time.Millisecond)
	fail.Store(false)
	deadline := time.Now().Add(2 * time.Second)
	for r.Table().Revision() != 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if r.Table().Revision() != 2 {
		t.Errorf("revision = %d after the fix, want 2", r.Table().Revision())
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

func TestReloaderMetrics(t *testing.T) {
	r := NewReloader(ReloaderConfig{Load: func(context.Context) (*Table, error) {
		svc := NewService(&Service{ID: "s1", ServiceKey: "calc", Environment: "dev", Direction: "publish"}, nil)
		return NewTable(7, []*Service{svc}, []ServiceError{{ServiceID: "s2", Err: errors.New("bad")}}), nil
	}})
	reg := prometheus.NewRegistry()
	if err := r.Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := r.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		m := mf.GetMetric()[0]
		if m.GetGauge() != nil {
			got[mf.GetName()] = m.GetGauge().GetValue()
		} else {
			got[mf.GetName()] = m.GetCounter().GetValue()
		}
	}
	want := map[string]float64{"s2r_route_table_revision": 7, "s2r_route_table_services": 1,
		"s2r_route_table_excluded_services": 1, "s2r_route_table_reload_failures_total": 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
}

func TestParamKinds(t *testing.T) {
	root := map[string]any{"properties": map[string]any{
		"n":  map[string]any{"type": "integer"},
		"d":  map[string]any{"type": "number"},
		"b":  map[string]any{"type": "boolean"},
		"s":  map[string]any{"type": "string"},
		"f":  map[string]any{"oneOf": []any{map[string]any{"type": "number"}, map[string]any{"type": "string"}}},
		"an": map[string]any{"type": "array", "items": map[string]any{"type": "integer"}},
		"ab": map[string]any{"type": "array", "items": map[string]any{"type": "boolean"}},
		"as": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/X"}},
	}}
	want := map[string]ParamKind{"n": ParamNumber, "d": ParamNumber, "b": ParamBoolean, "s": ParamString, "f": ParamNumber,
		"an": ParamNumberArray, "ab": ParamBooleanArray, "as": ParamArray}
	if diff := cmp.Diff(want, paramKinds(root)); diff != "" {
		t.Errorf("paramKinds (-want +got):\n%s", diff)
	}
}

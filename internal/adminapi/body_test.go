package adminapi

import (
	"bytes"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
)

// failingBody fails the test when read: a declared length over the limit
// must be refused before the body is touched.
type failingBody struct{ t *testing.T }

func (f failingBody) Read([]byte) (int, error) {
	f.t.Error("the body was read although its declared length is over the limit")
	return 0, io.EOF
}
func (failingBody) Close() error { return nil }

func TestReadBodyRefusesDeclaredLengthUnread(t *testing.T) {
	r := httptest.NewRequest("POST", "/admin/v1/x", nil)
	r.Body, r.ContentLength = failingBody{t}, 200<<20
	w := httptest.NewRecorder()
	_, err := ReadBody(w, r, 32<<20)
	var e *apierr.Error
	if !errors.As(err, &e) || e.Code != apierr.AdmPayloadTooLarge || e.Details["maxPayloadMb"] != 32 {
		t.Fatalf("err = %v, want 413 S2R-ADM-0413 with maxPayloadMb 32", err)
	}
	if w.Header().Get("Connection") != "close" {
		t.Error("the connection is kept to drain a body that is refused")
	}
}

func TestReadBody(t *testing.T) {
	long := strings.Repeat("x", 3<<20+17)
	tests := []struct {
		name     string
		body     string
		declared int64 // -1: chunked
		limit    int64
		wantErr  string
	}{
		{name: "declared", body: `{"a":1}`, declared: 7, limit: 1 << 20},
		{name: "chunked small", body: `{"a":1}`, declared: -1, limit: 1 << 20},
		{name: "chunked several chunks", body: long, declared: -1, limit: 4 << 20},
		{name: "declared several MB", body: long, declared: int64(len(long)), limit: 4 << 20},
		{name: "empty", body: "", declared: 0, limit: 1 << 20},
		{name: "chunked over the limit", body: long, declared: -1, limit: 1 << 20, wantErr: apierr.AdmPayloadTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/admin/v1/x", nil)
			r.Body, r.ContentLength = io.NopCloser(strings.NewReader(tt.body)), tt.declared
			got, err := ReadBody(httptest.NewRecorder(), r, tt.limit)
			if tt.wantErr != "" {
				var e *apierr.Error
				if !errors.As(err, &e) || e.Code != tt.wantErr {
					t.Fatalf("err = %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.body {
				t.Fatalf("got %d bytes, %v; want the %d bytes sent", len(got), err, len(tt.body))
			}
		})
	}
}

// A reader delivering more than it declared is read to its end (the
// limit, not the declaration, bounds it).
func TestReadAllLongerThanDeclared(t *testing.T) {
	got, err := ReadAll(bytes.NewReader([]byte("0123456789")), 4)
	if err != nil || string(got) != "0123456789" {
		t.Fatalf("ReadAll = %q, %v", got, err)
	}
}

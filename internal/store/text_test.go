package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

func TestStorableText(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"plain", "/publish/x", 512, "/publish/x"},
		{"invalid byte", "/a\xffb", 512, "/a\uFFFDb"},
		{"nul dropped", "/a\x00b", 512, "/ab"},
		{"cut through a rune", "/é", 2, "/\uFFFD"},
		{"cut", "abcdef", 3, "abc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := store.StorableText(tc.in, tc.n); got != tc.want {
				t.Errorf("StorableText(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
		})
	}
}

// A hostile path (%FF, %00, a multi-byte character cut by the length bound)
// must not fail the batch it is written in: PostgreSQL refuses invalid
// UTF-8 and NUL in text columns.
func TestBadURLAttemptsHostilePaths(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	storetest.Run(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		attempts := []model.BadURLAttempt{
			{Path: "/x\xff", Method: "GET", At: now},
			{Path: "/y\x00", Method: "GET", At: now},
			{Path: "/" + strings.Repeat("é", 300), Method: "GET", At: now},
			{Path: "/ok", Method: "GET", At: now},
		}
		if err := s.Transact(ctx, func(tx *store.Tx) error { return tx.InsertBadURLAttempts(ctx, attempts) }); err != nil {
			t.Fatalf("insert: %v", err)
		}
		got, err := s.BadURLGroups(ctx, now.Add(-time.Hour), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 4 {
			t.Fatalf("got %d groups, want 4: %+v", len(got), got)
		}
	})
}

package correlation

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestUsable(t *testing.T) {
	tests := []struct {
		name string
		id   string
		want bool
	}{
		{"simple", "abc-123", true},
		{"max length", strings.Repeat("a", MaxLen), true},
		{"empty", "", false},
		{"too long", strings.Repeat("a", MaxLen+1), false},
		{"space", "a b", false},
		{"newline", "a\nb", false},
		{"non-ascii", "caf\u00e9", false},
		{"del", "a\x7f", false},
		{"punctuation", "!~{}", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Usable(tt.id); got != tt.want {
				t.Errorf("Usable(%q) = %v, want %v", tt.id, got, tt.want)
			}
		})
	}
}

func TestFromHeader(t *testing.T) {
	if got := FromHeader("keep-me"); got != "keep-me" {
		t.Errorf("FromHeader kept %q, want keep-me", got)
	}
	got := FromHeader("bad id")
	u, err := uuid.Parse(got)
	if err != nil {
		t.Fatalf("generated id %q is not a UUID: %v", got, err)
	}
	if u.Version() != 7 {
		t.Errorf("generated id version = %d, want 7", u.Version())
	}
}

func TestContext(t *testing.T) {
	ctx := context.Background()
	if got := ID(ctx); got != "" {
		t.Errorf("ID(empty ctx) = %q, want empty", got)
	}
	if got := ID(WithID(ctx, "x1")); got != "x1" {
		t.Errorf("ID = %q, want x1", got)
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name     string
		supplied string
		present  bool
		want     Origin
	}{
		{"absent", "", false, Generated},
		{"usable", "abc", true, Supplied},
		{"empty header", "", true, Replaced},
		{"unusable", "a b", true, Replaced},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, origin := Resolve(tt.supplied, tt.present)
			if origin != tt.want {
				t.Errorf("origin = %d, want %d", origin, tt.want)
			}
			if origin == Supplied && id != tt.supplied {
				t.Errorf("id = %q, want the supplied one", id)
			}
			if origin != Supplied && !Usable(id) {
				t.Errorf("generated id %q is not usable", id)
			}
			ctx := WithIDOrigin(context.Background(), id, origin)
			if ID(ctx) != id || OriginOf(ctx) != origin {
				t.Errorf("context round trip = %q %d", ID(ctx), OriginOf(ctx))
			}
		})
	}
}

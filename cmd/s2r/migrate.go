package main

import (
	"context"
	"fmt"
	"io"

	"github.com/s2r-project/s2r/internal/store"
)

// migrate applies the migrations and prints the resulting schema version.
func migrate(ctx context.Context, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	s, err := store.Open(ctx, store.Config{URL: cfg.DatabaseURL, DataDir: cfg.DataDir})
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		return err
	}
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "database (%s) at schema version %d\n", s.Dialect(), v)
	return nil
}

// Package license reads the optional license file and derives the license
// state that gates the runtime (DESIGN 6.10).
//
// The file is JSON: {"licensee": "...", "expiresAt": "RFC 3339 time",
// "graceDays": N}. It is not signed yet; signing is future work
// (docs/decisions.md). No file means VALID.
package license

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// State is the license state.
type State string

// States.
const (
	// Valid: no license file, or before expiresAt.
	Valid State = "VALID"
	// Grace: after expiresAt, within graceDays; everything still works and
	// a warning is logged.
	Grace State = "GRACE"
	// RuntimeStop: after the grace period; /health/ready answers 503 and
	// the runtime surfaces answer 503 S2R-RUN-0503. Admin keeps working.
	RuntimeStop State = "RUNTIME_STOP"
)

// maxFileSize bounds the license file.
const maxFileSize = 64 << 10

// License is the content of a license file.
type License struct {
	Licensee  string    `json:"licensee,omitempty"`
	ExpiresAt time.Time `json:"expiresAt"`
	GraceDays int       `json:"graceDays"`
}

// StateAt returns the state of l at now; a nil License is Valid.
func (l *License) StateAt(now time.Time) State {
	if l == nil || now.Before(l.ExpiresAt) {
		return Valid
	}
	if now.Before(l.ExpiresAt.Add(time.Duration(l.GraceDays) * 24 * time.Hour)) {
		return Grace
	}
	return RuntimeStop
}

// Load reads the license file at path; an empty path means no license
// (nil, nil).
func Load(path string) (*License, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("license: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("license: read %s: %w", path, err)
	}
	if len(b) > maxFileSize {
		return nil, fmt.Errorf("license: %s is larger than %d bytes", path, maxFileSize)
	}
	l, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("license: %s: %w", path, err)
	}
	return l, nil
}

// Parse decodes a license document. Unknown fields, trailing data, a
// missing expiresAt and a negative graceDays are errors.
func Parse(b []byte) (*License, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var l License
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("invalid JSON: data after the object")
	}
	if l.ExpiresAt.IsZero() {
		return nil, errors.New("expiresAt is required")
	}
	if l.GraceDays < 0 || l.GraceDays > 3650 {
		return nil, fmt.Errorf("graceDays %d out of range 0..3650", l.GraceDays)
	}
	return &l, nil
}

// Checker reports the current state of a loaded license.
type Checker struct {
	lic *License
	now func() time.Time
}

// NewChecker returns a Checker for lic (nil: no license). now defaults to
// time.Now.
func NewChecker(lic *License, now func() time.Time) *Checker {
	if now == nil {
		now = time.Now
	}
	return &Checker{lic: lic, now: now}
}

// State returns the license state now.
func (c *Checker) State() State { return c.lic.StateAt(c.now()) }

// License returns the loaded license, nil when there is none.
func (c *Checker) License() *License { return c.lic }

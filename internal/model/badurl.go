package model

import "time"

// BadURLAttempt is one request rejected because its direction segment was
// missing or invalid (S2R-RUN-0405).
type BadURLAttempt struct {
	Path   string
	Method string
	At     time.Time
}

// BadURLCount is the number of attempts at one path.
type BadURLCount struct {
	Path  string
	Count int64
}

// BadURLGroup is the attempts at one path rejected with S2R-RUN-0405.
type BadURLGroup struct {
	Path       string
	Count      int64
	LastSeenAt time.Time
	Methods    []string // sorted
}

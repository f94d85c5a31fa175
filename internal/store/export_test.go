package store

import "time"

// SetLeaseIdle sets how long s keeps a job lease without a run (tests).
func SetLeaseIdle(s *Store, d time.Duration) {
	s.leases.mu.Lock()
	defer s.leases.mu.Unlock()
	s.leases.idle = d
}

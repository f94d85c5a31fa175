package store

// Dialect is the SQL dialect of an open Store. Differences between SQLite
// and PostgreSQL are kept to the few places that switch on it.
type Dialect int

// Dialects.
const (
	SQLite Dialect = iota + 1
	Postgres
)

// String returns "sqlite" or "postgres".
func (d Dialect) String() string {
	switch d {
	case SQLite:
		return "sqlite"
	case Postgres:
		return "postgres"
	}
	return "unknown"
}

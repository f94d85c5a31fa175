// Package config is the start-up configuration of s2r: documented defaults,
// overridden by environment variables, validated once before anything
// starts. Runtime-mutable settings live in the database, not here.
package config

import (
	"encoding/base64"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
)

// Environment variable names.
const (
	EnvListenAddr      = "S2R_LISTEN_ADDR"
	EnvAdminListenAddr = "S2R_ADMIN_LISTEN_ADDR"
	EnvDataDir         = "S2R_DATA_DIR"
	EnvDatabaseURL     = "S2R_DATABASE_URL"
	EnvBootstrapAdmins = "S2R_BOOTSTRAP_ADMINS"
	EnvSecretKey       = "S2R_SECRET_KEY"
	EnvSecretKeyFile   = "S2R_SECRET_KEY_FILE"
	EnvLogLevel        = "S2R_LOG_LEVEL"
	EnvPublicBaseURL   = "S2R_PUBLIC_BASE_URL"
	EnvLicenseFile     = "S2R_LICENSE_FILE"
	EnvDevIdentity     = "S2R_DEV_IDENTITY"
	// EnvTxSpoolMaxMB and EnvTxSpoolMaxAgeHours bound the on-disk spool of
	// transaction records not written while the database is away
	// (internal/observe/spool.go).
	EnvTxSpoolMaxMB       = "S2R_TX_SPOOL_MAX_MB"
	EnvTxSpoolMaxAgeHours = "S2R_TX_SPOOL_MAX_AGE_HOURS"
	// EnvHTTPEngine chooses the HTTP server of the main listener: "s2r"
	// (internal/engine) or "net/http" (docs/engine.md).
	EnvHTTPEngine = "S2R_HTTP_ENGINE"
)

// Defaults.
const (
	DefaultListenAddr = ":8080"
	DefaultDataDir    = "./s2r-data"
	DefaultLogLevel   = "info"
	// SecretKeyFileName is the key file in the data directory used when
	// neither S2R_SECRET_KEY nor S2R_SECRET_KEY_FILE is set.
	SecretKeyFileName = "secret.key"
	// DefaultTxSpoolMaxMB and DefaultTxSpoolMaxAgeHours bound the record
	// spool; a maximum of 0 MB disables it.
	DefaultTxSpoolMaxMB       = 512
	DefaultTxSpoolMaxAgeHours = 72
	// HTTPEngineOwn and HTTPEngineNetHTTP are the values of S2R_HTTP_ENGINE.
	HTTPEngineOwn     = "s2r"
	HTTPEngineNetHTTP = "net/http"
)

// Config is the validated start-up configuration.
type Config struct {
	ListenAddr      string   // runtime (and admin, unless AdminListenAddr is set) listener
	AdminListenAddr string   // optional separate admin listener; /admin/v1 only there
	DataDir         string   // SQLite file, generated key file
	DatabaseURL     string   // postgres://…; empty selects SQLite in DataDir
	BootstrapAdmins []string // e-mails that are always admin
	SecretKey       string   // base64 of 32 bytes; empty reads SecretKeyFile
	SecretKeyFile   string   // defaults to <DataDir>/secret.key
	LogLevel        slog.Level
	PublicBaseURL   string // external base URL, used in generated documents
	LicenseFile     string // optional license file
	// HTTPEngine is the server of the main listener: HTTPEngineOwn or
	// HTTPEngineNetHTTP. The separate admin listener is always net/http.
	HTTPEngine string
	// DevIdentity (S2R_DEV_IDENTITY) is the e-mail that admin requests
	// from a loopback peer without identity headers act as; it is only
	// accepted when every listener is on a loopback address.
	DevIdentity string
	// TxSpoolMaxMB and TxSpoolMaxAgeHours bound the spool of transaction
	// records in <DataDir>/tx-spool (0 MB: no spool, records the database
	// cannot take are dropped).
	TxSpoolMaxMB       int
	TxSpoolMaxAgeHours int
}

// FromEnv reads the configuration from getenv, applies defaults and
// validates it. Errors are one line naming the variable.
func FromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		ListenAddr:      orDefault(getenv(EnvListenAddr), DefaultListenAddr),
		AdminListenAddr: strings.TrimSpace(getenv(EnvAdminListenAddr)),
		DataDir:         orDefault(getenv(EnvDataDir), DefaultDataDir),
		DatabaseURL:     strings.TrimSpace(getenv(EnvDatabaseURL)),
		SecretKey:       strings.TrimSpace(getenv(EnvSecretKey)),
		SecretKeyFile:   strings.TrimSpace(getenv(EnvSecretKeyFile)),
		PublicBaseURL:   strings.TrimSpace(getenv(EnvPublicBaseURL)),
		LicenseFile:     strings.TrimSpace(getenv(EnvLicenseFile)),
		DevIdentity:     strings.ToLower(strings.TrimSpace(getenv(EnvDevIdentity))),
	}
	if c.SecretKeyFile == "" {
		c.SecretKeyFile = filepath.Join(c.DataDir, SecretKeyFileName)
	}
	for _, e := range strings.Split(getenv(EnvBootstrapAdmins), ",") {
		if e = strings.TrimSpace(e); e != "" {
			c.BootstrapAdmins = append(c.BootstrapAdmins, strings.ToLower(e))
		}
	}
	level, err := parseLevel(orDefault(getenv(EnvLogLevel), DefaultLogLevel))
	if err != nil {
		return Config{}, err
	}
	if c.TxSpoolMaxMB, err = intVar(getenv, EnvTxSpoolMaxMB, DefaultTxSpoolMaxMB, 0, 1<<20); err != nil {
		return Config{}, err
	}
	if c.TxSpoolMaxAgeHours, err = intVar(getenv, EnvTxSpoolMaxAgeHours, DefaultTxSpoolMaxAgeHours, 1, 24*365); err != nil {
		return Config{}, err
	}
	c.LogLevel = level
	switch c.HTTPEngine = orDefault(getenv(EnvHTTPEngine), HTTPEngineOwn); c.HTTPEngine {
	case HTTPEngineOwn, HTTPEngineNetHTTP:
	default:
		return Config{}, fmt.Errorf("%s: invalid engine %q: want %s or %s", EnvHTTPEngine, c.HTTPEngine, HTTPEngineOwn, HTTPEngineNetHTTP)
	}
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// Validate checks every field; the error names the variable and the value.
func (c Config) Validate() error {
	if err := checkAddr(EnvListenAddr, c.ListenAddr); err != nil {
		return err
	}
	if c.AdminListenAddr != "" {
		if err := checkAddr(EnvAdminListenAddr, c.AdminListenAddr); err != nil {
			return err
		}
		if c.AdminListenAddr == c.ListenAddr && !strings.HasSuffix(c.ListenAddr, ":0") {
			return fmt.Errorf("%s: must differ from %s (%q)", EnvAdminListenAddr, EnvListenAddr, c.ListenAddr)
		}
	}
	if strings.TrimSpace(c.DataDir) == "" {
		return fmt.Errorf("%s: must not be empty", EnvDataDir)
	}
	if c.DatabaseURL != "" {
		if err := checkDatabaseURL(c.DatabaseURL); err != nil {
			return err
		}
	}
	for _, e := range c.BootstrapAdmins {
		if a, err := mail.ParseAddress(e); err != nil || a.Address != e {
			return fmt.Errorf("%s: invalid e-mail address %q", EnvBootstrapAdmins, e)
		}
	}
	if c.SecretKey != "" {
		if err := checkKey(c.SecretKey); err != nil {
			return err
		}
	}
	if c.PublicBaseURL != "" {
		u, err := url.Parse(c.PublicBaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s: invalid URL %q: want http(s)://host[:port][/path]", EnvPublicBaseURL, c.PublicBaseURL)
		}
	}
	return c.checkDevIdentity()
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v != "" {
		return v
	}
	return def
}

func checkAddr(name, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s: invalid address %q: %v", name, addr, err)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return fmt.Errorf("%s: invalid address %q: port must be a number 0..65535", name, addr)
	}
	if strings.ContainsAny(host, " /") {
		return fmt.Errorf("%s: invalid address %q: bad host", name, addr)
	}
	return nil
}

func checkDatabaseURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%s: invalid URL: %v", EnvDatabaseURL, err)
	}
	if u.Scheme != "postgres" && u.Scheme != "postgresql" {
		return fmt.Errorf("%s: unsupported scheme %q: want postgres:// (or leave empty for SQLite)", EnvDatabaseURL, u.Scheme)
	}
	if u.Host == "" {
		return fmt.Errorf("%s: missing host in %q", EnvDatabaseURL, u.Redacted())
	}
	return nil
}

func checkKey(key string) error {
	b, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(key)
	}
	if err != nil {
		return fmt.Errorf("%s: not valid base64", EnvSecretKey)
	}
	if len(b) != 32 {
		return fmt.Errorf("%s: decodes to %d bytes, want 32", EnvSecretKey, len(b))
	}
	return nil
}

// intVar reads the integer variable name, def when unset; out of
// [lo, hi] is an error.
func intVar(getenv func(string) string, name string, def, lo, hi int) (int, error) {
	s := strings.TrimSpace(getenv(name))
	if s == "" {
		return def, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("%s: invalid value %q: want an integer %d..%d", name, s, lo, hi)
	}
	return v, nil
}

func parseLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("%s: invalid level %q: want debug, info, warn or error", EnvLogLevel, s)
}

// Variable documents one environment variable for help output and README.
type Variable struct {
	Name, Default, Meaning string
}

// Variables lists every environment variable read by FromEnv.
func Variables() []Variable {
	return []Variable{
		{EnvListenAddr, DefaultListenAddr, "listen address of the runtime, ingest and (by default) admin surfaces"},
		{EnvAdminListenAddr, "", "optional separate listener; when set, /admin/v1 and the console are served only there"},
		{EnvDataDir, DefaultDataDir, "data directory: SQLite database s2r.db and the generated secret.key"},
		{EnvDatabaseURL, "", "postgres://user:pass@host:5432/db; empty uses SQLite in the data directory"},
		{EnvBootstrapAdmins, "", "comma-separated e-mails that always have the admin role"},
		{EnvSecretKey, "", "base64 of 32 bytes: key encrypting stored credentials"},
		{EnvSecretKeyFile, "<data dir>/secret.key", "key file used when S2R_SECRET_KEY is empty; generated (0600) on first start"},
		{EnvLogLevel, DefaultLogLevel, "debug, info, warn or error"},
		{EnvPublicBaseURL, "", "external base URL (http/https) used in generated documents"},
		{EnvLicenseFile, "", "optional license file (JSON: expiresAt, graceDays)"},
		{EnvTxSpoolMaxMB, strconv.Itoa(DefaultTxSpoolMaxMB), "largest size of the spool of transaction records kept on disk while the database is away (0: no spool)"},
		{EnvTxSpoolMaxAgeHours, strconv.Itoa(DefaultTxSpoolMaxAgeHours), "spooled transaction records older than this are dropped instead of written"},
		{EnvHTTPEngine, HTTPEngineOwn, "HTTP server of the main listener: s2r (its own HTTP/1.1 engine) or net/http"},
		{EnvDevIdentity, "", "for trying s2r on a laptop: e-mail that admin requests from loopback without identity headers act as; every listener must be on a loopback address"},
	}
}

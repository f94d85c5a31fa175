package config

import (
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefaults(t *testing.T) {
	got, err := FromEnv(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		ListenAddr:    ":8080",
		DataDir:       "./s2r-data",
		SecretKeyFile: "s2r-data/secret.key",
		LogLevel:      slog.LevelInfo,
		TxSpoolMaxMB:  512, TxSpoolMaxAgeHours: 72,
		HTTPEngine: "s2r",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

func TestFromEnv(t *testing.T) {
	got, err := FromEnv(env(map[string]string{
		EnvListenAddr:         "127.0.0.1:0",
		EnvAdminListenAddr:    "127.0.0.1:9090",
		EnvDataDir:            "/var/lib/s2r",
		EnvDatabaseURL:        "postgres://u:p@db:5432/s2r?sslmode=disable",
		EnvBootstrapAdmins:    " Ops@Example.com, b@example.org ,",
		EnvSecretKey:          "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
		EnvLogLevel:           "DEBUG",
		EnvPublicBaseURL:      "https://s2r.example.com",
		EnvLicenseFile:        "/etc/s2r/license.json",
		EnvTxSpoolMaxMB:       "0",
		EnvTxSpoolMaxAgeHours: "2",
		EnvHTTPEngine:         "net/http",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		ListenAddr:      "127.0.0.1:0",
		AdminListenAddr: "127.0.0.1:9090",
		DataDir:         "/var/lib/s2r",
		DatabaseURL:     "postgres://u:p@db:5432/s2r?sslmode=disable",
		BootstrapAdmins: []string{"ops@example.com", "b@example.org"},
		SecretKey:       "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
		SecretKeyFile:   "/var/lib/s2r/secret.key",
		LogLevel:        slog.LevelDebug,
		PublicBaseURL:   "https://s2r.example.com",
		LicenseFile:     "/etc/s2r/license.json",
		TxSpoolMaxMB:    0, TxSpoolMaxAgeHours: 2,
		HTTPEngine: "net/http",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestBadConfigs pairs each bad environment with the exact error.
func TestBadConfigs(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"listen no port", map[string]string{EnvListenAddr: "x"},
			`S2R_LISTEN_ADDR: invalid address "x": address x: missing port in address`},
		{"listen bad port", map[string]string{EnvListenAddr: ":http-alt"},
			`S2R_LISTEN_ADDR: invalid address ":http-alt": port must be a number 0..65535`},
		{"listen port range", map[string]string{EnvListenAddr: ":70000"},
			`S2R_LISTEN_ADDR: invalid address ":70000": port must be a number 0..65535`},
		{"admin addr", map[string]string{EnvAdminListenAddr: "localhost"},
			`S2R_ADMIN_LISTEN_ADDR: invalid address "localhost": address localhost: missing port in address`},
		{"admin same as listen", map[string]string{EnvListenAddr: ":9000", EnvAdminListenAddr: ":9000"},
			`S2R_ADMIN_LISTEN_ADDR: must differ from S2R_LISTEN_ADDR (":9000")`},
		{"database scheme", map[string]string{EnvDatabaseURL: "mysql://u@h/db"},
			`S2R_DATABASE_URL: unsupported scheme "mysql": want postgres:// (or leave empty for SQLite)`},
		{"database host", map[string]string{EnvDatabaseURL: "postgres:///db"},
			`S2R_DATABASE_URL: missing host in "postgres:///db"`},
		{"bootstrap admin", map[string]string{EnvBootstrapAdmins: "ops@example.com,not-an-email"},
			`S2R_BOOTSTRAP_ADMINS: invalid e-mail address "not-an-email"`},
		{"secret not base64", map[string]string{EnvSecretKey: "!!!"},
			`S2R_SECRET_KEY: not valid base64`},
		{"secret short", map[string]string{EnvSecretKey: "c2hvcnQ="},
			`S2R_SECRET_KEY: decodes to 5 bytes, want 32`},
		{"log level", map[string]string{EnvLogLevel: "verbose"},
			`S2R_LOG_LEVEL: invalid level "verbose": want debug, info, warn or error`},
		{"public base url", map[string]string{EnvPublicBaseURL: "ftp://x"},
			`S2R_PUBLIC_BASE_URL: invalid URL "ftp://x": want http(s)://host[:port][/path]`},
		{"http engine", map[string]string{EnvHTTPEngine: "fasthttp"},
			`S2R_HTTP_ENGINE: invalid engine "fasthttp": want s2r or net/http`},
		{"spool size", map[string]string{EnvTxSpoolMaxMB: "-1"},
			`S2R_TX_SPOOL_MAX_MB: invalid value "-1": want an integer 0..1048576`},
		{"spool age", map[string]string{EnvTxSpoolMaxAgeHours: "0"},
			`S2R_TX_SPOOL_MAX_AGE_HOURS: invalid value "0": want an integer 1..8760`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromEnv(env(tt.env))
			if err == nil {
				t.Fatalf("FromEnv succeeded, want %q", tt.want)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestVariablesCoverEnv(t *testing.T) {
	names := map[string]bool{}
	for _, v := range Variables() {
		names[v.Name] = true
	}
	for _, n := range []string{EnvListenAddr, EnvAdminListenAddr, EnvDataDir, EnvDatabaseURL, EnvBootstrapAdmins,
		EnvSecretKey, EnvSecretKeyFile, EnvLogLevel, EnvPublicBaseURL, EnvLicenseFile, EnvDevIdentity,
		EnvTxSpoolMaxMB, EnvTxSpoolMaxAgeHours} {
		if !names[n] {
			t.Errorf("Variables() lacks %s", n)
		}
	}
}

package config

import "testing"

func TestDevIdentity(t *testing.T) {
	got, err := FromEnv(env(map[string]string{
		EnvListenAddr:      "127.0.0.1:8080",
		EnvAdminListenAddr: "[::1]:9090",
		EnvDevIdentity:     " Admin@Localhost ",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if got.DevIdentity != "admin@localhost" {
		t.Errorf("DevIdentity = %q, want admin@localhost", got.DevIdentity)
	}
	if _, err := FromEnv(env(map[string]string{EnvListenAddr: "localhost:0", EnvDevIdentity: "a@b.c"})); err != nil {
		t.Errorf("localhost listener refused: %v", err)
	}
}

// TestDevIdentityRefused pairs each refused S2R_DEV_IDENTITY set-up with
// its one-line error.
func TestDevIdentityRefused(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"default listener is every interface", map[string]string{EnvDevIdentity: "admin@localhost"},
			`S2R_DEV_IDENTITY: allowed only when every listener is on a loopback address; S2R_LISTEN_ADDR is ":8080" (use 127.0.0.1:<port>)`},
		{"wildcard address", map[string]string{EnvListenAddr: "0.0.0.0:8080", EnvDevIdentity: "admin@localhost"},
			`S2R_DEV_IDENTITY: allowed only when every listener is on a loopback address; S2R_LISTEN_ADDR is "0.0.0.0:8080" (use 127.0.0.1:<port>)`},
		{"private address", map[string]string{EnvListenAddr: "10.1.2.3:8080", EnvDevIdentity: "admin@localhost"},
			`S2R_DEV_IDENTITY: allowed only when every listener is on a loopback address; S2R_LISTEN_ADDR is "10.1.2.3:8080" (use 127.0.0.1:<port>)`},
		{"host name", map[string]string{EnvListenAddr: "example.com:8080", EnvDevIdentity: "admin@localhost"},
			`S2R_DEV_IDENTITY: allowed only when every listener is on a loopback address; S2R_LISTEN_ADDR is "example.com:8080" (use 127.0.0.1:<port>)`},
		{"admin listener public", map[string]string{EnvListenAddr: "127.0.0.1:8080", EnvAdminListenAddr: ":9090",
			EnvDevIdentity: "admin@localhost"},
			`S2R_DEV_IDENTITY: allowed only when every listener is on a loopback address; S2R_ADMIN_LISTEN_ADDR is ":9090" (use 127.0.0.1:<port>)`},
		{"not an e-mail", map[string]string{EnvListenAddr: "127.0.0.1:8080", EnvDevIdentity: "admin"},
			`S2R_DEV_IDENTITY: invalid e-mail address "admin"`},
		{"display name", map[string]string{EnvListenAddr: "127.0.0.1:8080", EnvDevIdentity: "Admin <a@b.c>"},
			`S2R_DEV_IDENTITY: invalid e-mail address "admin <a@b.c>"`},
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

func TestIsLoopbackAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "127.9.9.9:1": true, "[::1]:80": true, "localhost:0": true, "LOCALHOST:1": true,
		":8080": false, "0.0.0.0:80": false, "[::]:80": false, "192.168.1.1:80": false, "x": false, "host:1": false,
	} {
		if got := IsLoopbackAddr(addr); got != want {
			t.Errorf("IsLoopbackAddr(%q) = %v, want %v", addr, got, want)
		}
	}
}

package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Cluster is a PostgreSQL server of a test's own, on a free loopback
// port, that the test can stop and start again (a database restart under
// load). scripts/with-postgres.sh's server is shared by every test and
// must stay up; this one belongs to one test and is removed at cleanup.
//
// Like with-postgres.sh it runs the server as the unprivileged user
// s2rtest when the test runs as root (initdb refuses root), with fsync off
// (the tests stop the server, they do not crash the machine) but
// synchronous_commit on, so a commit survives an immediate stop.
type Cluster struct {
	t      testing.TB
	bindir string
	dir    string // owned by the server user: data, socket, log
	port   int
	runAs  string // "" or the user to run the server tools as
}

// StartCluster initdbs and starts a new server. Without the PostgreSQL
// server binaries it skips the test, or fails it where PostgreSQL is
// required (CI, S2R_REQUIRE_POSTGRES=1), like PostgresURL.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	bindir := findBindir()
	if bindir == "" {
		if os.Getenv("CI") != "" || os.Getenv(EnvRequirePostgres) == "1" {
			t.Fatalf("storetest: PostgreSQL server binaries (initdb, pg_ctl) not found but PostgreSQL is required")
		}
		t.Skip("storetest: PostgreSQL server binaries (initdb, pg_ctl) not found; skipping a test that needs its own server")
	}
	c := &Cluster{t: t, bindir: bindir}
	if os.Geteuid() == 0 {
		c.runAs = "s2rtest"
		if _, err := user.Lookup(c.runAs); err != nil {
			c.run(exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", c.runAs))
		}
	}
	dir, err := os.MkdirTemp("", "s2r-pgcluster-")
	if err != nil {
		t.Fatal(err)
	}
	c.dir = dir
	t.Cleanup(func() {
		c.pgctl("stop", "-m", "immediate") // errors ignored: it may be stopped already
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if c.runAs != "" {
		c.run(exec.Command("chown", c.runAs, dir))
	}
	if out, err := c.command(filepath.Join(bindir, "initdb"), "-D", c.dataDir(), "-U", "postgres",
		"--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync").CombinedOutput(); err != nil {
		t.Fatalf("storetest: initdb: %v\n%s", err, out)
	}
	c.port = freePort(t)
	c.Start()
	recordPostgresTest(t)
	return c
}

// URL is the server's postgres database, as a superuser.
func (c *Cluster) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// DatabaseURL creates database name and returns its URL.
func (c *Cluster) DatabaseURL(name string) string {
	c.t.Helper()
	db, err := sql.Open("pgx", c.URL())
	if err != nil {
		c.t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		c.t.Fatalf("storetest: create database %s: %v", name, err)
	}
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, name)
}

// Start starts the (stopped) server on its port and waits until it
// accepts connections.
func (c *Cluster) Start() {
	c.t.Helper()
	opts := "-c listen_addresses=127.0.0.1 -p " + strconv.Itoa(c.port) + " -k " + c.dir +
		" -c fsync=off -c full_page_writes=off -c max_connections=200"
	if out, err := c.pgctl("start", "-w", "-t", "60", "-l", filepath.Join(c.dir, "server.log"), "-o", opts); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
		c.t.Fatalf("storetest: pg_ctl start: %v\n%s\n%s", err, out, log)
	}
}

// Stop stops the server: mode "fast" (disconnect clients, clean shutdown)
// or "immediate" (as a crash: recovery at the next start).
func (c *Cluster) Stop(mode string) {
	c.t.Helper()
	if out, err := c.pgctl("stop", "-w", "-t", "60", "-m", mode); err != nil {
		c.t.Fatalf("storetest: pg_ctl stop: %v\n%s", err, out)
	}
}

func (c *Cluster) dataDir() string { return filepath.Join(c.dir, "data") }

func (c *Cluster) pgctl(args ...string) ([]byte, error) {
	args = append([]string{"-D", c.dataDir()}, args...)
	return c.command(filepath.Join(c.bindir, "pg_ctl"), args...).CombinedOutput()
}

// command runs a server tool as the server user.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	if c.runAs == "" {
		return exec.Command(name, args...)
	}
	return exec.Command("runuser", append([]string{"-u", c.runAs, "--", name}, args...)...)
}

func (c *Cluster) run(cmd *exec.Cmd) {
	c.t.Helper()
	if out, err := cmd.CombinedOutput(); err != nil {
		c.t.Fatalf("storetest: %v: %v\n%s", cmd.Args, err, out)
	}
}

// findBindir finds the directory holding initdb, pg_ctl and postgres, as
// scripts/with-postgres.sh does.
func findBindir() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	dirs = append(dirs, "/usr/local/pgsql/bin", "/usr/local/bin", "/usr/bin")
	for _, d := range dirs {
		ok := true
		for _, tool := range []string{"initdb", "pg_ctl", "postgres"} {
			if st, err := os.Stat(filepath.Join(d, tool)); err != nil || st.Mode()&0o111 == 0 {
				ok = false
			}
		}
		if ok {
			return d
		}
	}
	return ""
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

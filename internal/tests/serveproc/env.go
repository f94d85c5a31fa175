package serveproc

// Env returns the environment of a server on 127.0.0.1:0 with its data in
// dataDir and admin as its bootstrap admin: SQLite in the data directory
// and a generated key unless extra says otherwise, no admin listener, no
// development identity, info logs. The extra entries (KEY=VALUE) come last
// and win.
func Env(dataDir, admin string, extra ...string) []string {
	return append([]string{
		"S2R_LISTEN_ADDR=127.0.0.1:0",
		"S2R_ADMIN_LISTEN_ADDR=",
		"S2R_DATA_DIR=" + dataDir,
		"S2R_BOOTSTRAP_ADMINS=" + admin,
		"S2R_DATABASE_URL=",
		"S2R_SECRET_KEY=",
		"S2R_DEV_IDENTITY=",
		"S2R_LOG_LEVEL=info",
	}, extra...)
}

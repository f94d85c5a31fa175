// Package admintest is the test harness of the admin API (/admin/v1),
// shared by internal/admin and by the areas that hand their routes to
// admin.Config.Routes (async executions, alert mail, discovery,
// observability queries). It binds the test identities to their roles in
// a real store, sends requests as an identity to a real HTTP server on
// 127.0.0.1, decodes the SPEC 7.1 error shape, and checks that every route
// of an area answers 401 without identity and 403 below its role and is
// described by the OpenAPI document.
//
// It does not import internal/admin, so that admin's own tests can use it:
// a test builds the real handler with admin.New (Secrets: Box(t),
// BootstrapAdmins: []string{RootEmail}) and serves it with Serve, or
// serves a frame around it (server.Config.MainHandler) and points a
// Client at that.
package admintest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
	"github.com/s2r-project/s2r/internal/store"
)

// The test identities. RootEmail is meant for admin.Config.BootstrapAdmins;
// Staff binds AdminEmail, OperatorEmail and ReaderEmail; NobodyEmail has no
// role at all.
const (
	RootEmail     = "root@example.com"
	AdminEmail    = "admin@example.com"
	OperatorEmail = "operator@example.com"
	ReaderEmail   = "reader@example.com"
	NobodyEmail   = "nobody@example.com"
)

// Binding gives Email the Role in TenantID ("" is the default tenant).
type Binding struct {
	Email    string
	Role     model.Role
	TenantID string
}

// Staff returns the bindings of AdminEmail, OperatorEmail and ReaderEmail
// in the default tenant.
func Staff() []Binding {
	return []Binding{
		{Email: AdminEmail, Role: model.RoleAdmin},
		{Email: OperatorEmail, Role: model.RoleOperator},
		{Email: ReaderEmail, Role: model.RoleReader},
	}
}

// Bind stores bindings as direct permission bindings. A binding's id is
// derived from its tenant and e-mail, so binding again on the same store
// (a second instance on one database) keeps what is there.
func Bind(t testing.TB, st *store.Store, bindings ...Binding) {
	t.Helper()
	ctx := context.Background()
	for _, b := range bindings {
		tenant := b.TenantID
		if tenant == "" {
			tenant = model.DefaultTenant
		}
		err := st.Transact(ctx, func(tx *store.Tx) error {
			return tx.InsertPermissionBinding(ctx, model.PermissionBinding{
				BindingID: bindingID(tenant, b.Email), Email: b.Email, Role: b.Role,
				TenantID: tenant, CreatedAt: time.Now(), CreatedBy: "setup"})
		})
		if err != nil && !errors.Is(err, store.ErrAlreadyExists) {
			t.Fatalf("bind %s: %v", b.Email, err)
		}
	}
}

// bindingID is a UUID-shaped id that depends only on tenant and email.
func bindingID(tenant, email string) string {
	sum := sha256.Sum256([]byte(tenant + "\x00" + email))
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-8" + h[17:20] + "-" + h[20:32]
}

// Box returns the secret box of the tests. Its key is fixed, so instances
// sharing a database share it too.
func Box(t testing.TB) *secret.Box {
	t.Helper()
	box, err := secret.NewBox(bytes.Repeat([]byte{9}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// LogBuffer is a goroutine-safe log sink, for tests that look for (or for
// the absence of) something in a component's log.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Logger returns a debug-level text logger that writes to a new LogBuffer.
func Logger() (*slog.Logger, *LogBuffer) {
	logs := &LogBuffer{}
	return slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})), logs
}

package access

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// BenchmarkResolve measures role resolution on a real SQLite store holding
// 200 permission bindings and 50 group bindings: "cached" is the admin
// request path; "reload" invalidates before every call, which is what every
// request would cost without the cache (the baseline).
func BenchmarkResolve(b *testing.B) {
	st := storetest.SQLite(b)
	ctx := context.Background()
	err := st.Transact(ctx, func(tx *store.Tx) error {
		for i := range 200 {
			err := tx.InsertPermissionBinding(ctx, model.PermissionBinding{BindingID: fmt.Sprintf("b-%03d", i),
				Email: fmt.Sprintf("user%03d@example.com", i), Role: model.RoleReader, TenantID: "default", CreatedAt: time.Now(), CreatedBy: "x"})
			if err != nil {
				return err
			}
		}
		roles := make([]model.RoleBinding, 50)
		for i := range roles {
			roles[i] = model.RoleBinding{Group: fmt.Sprintf("group-%02d", i), Role: model.RoleOperator, TenantID: "default"}
		}
		return tx.ReplaceRoleBindings(ctx, roles)
	})
	if err != nil {
		b.Fatal(err)
	}
	id := Identity{Email: "user150@example.com", Groups: []string{"group-07", "group-42", "unbound"}}
	r := NewResolver(st, []string{"root@example.com"}, time.Hour)
	for _, mode := range []string{"cached", "reload"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if mode == "reload" {
					r.Invalidate()
				}
				c, err := r.Resolve(ctx, id)
				if err != nil || c.Role != model.RoleOperator {
					b.Fatalf("resolve: %v %v", c.Role, err)
				}
			}
		})
	}
}

// Package access resolves the caller of the admin API and authorizes it.
//
// The identity-aware ingress in front of the admin API forwards the caller's
// e-mail and groups in headers; access maps that identity to one application
// role (reader < operator < admin) from three sources: the emergency
// bootstrap list, direct permission bindings and group role bindings. The
// highest role wins (DESIGN 6.3).
package access

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/s2r-project/s2r/internal/model"
)

// Identity-proxy headers (SPEC 5).
const (
	HeaderEmail  = "X-Idp-Authenticated-User-Email"
	HeaderGroups = "X-Idp-Authenticated-User-Groups"
)

// Identity is who the ingress says the caller is.
type Identity struct {
	Email  string   // trimmed, lower-case
	Groups []string // trimmed, non-empty, in header order, without duplicates
}

// IdentityFromHeader reads the identity headers. ok is false when there is
// no usable e-mail. Groups keep their case: group identifiers of identity
// providers are often case-sensitive ids.
func IdentityFromHeader(h http.Header) (id Identity, ok bool) {
	email := NormalizeEmail(h.Get(HeaderEmail))
	if email == "" {
		return Identity{}, false
	}
	id.Email = email
	for _, line := range h.Values(HeaderGroups) {
		for g := range strings.SplitSeq(line, ",") {
			g = strings.TrimSpace(g)
			if g != "" && !slices.Contains(id.Groups, g) {
				id.Groups = append(id.Groups, g)
			}
		}
	}
	return id, true
}

// NormalizeEmail trims and lower-cases an e-mail address, the form in which
// e-mails are compared and stored.
func NormalizeEmail(s string) string {
	return strings.ToLower(strings.TrimSpace(s))
}

// Caller is a resolved, authorized admin caller.
type Caller struct {
	Email    string       `json:"email"`
	Groups   []string     `json:"groups"`
	Role     model.Role   `json:"role"`
	TenantID string       `json:"tenantId"`
	Sources  []RoleSource `json:"sources"`
}

// Kinds of role source.
const (
	SourceBootstrap         = "bootstrap"
	SourcePermissionBinding = "permission_binding"
	SourceRoleBinding       = "role_binding"
)

// RoleSource is one grant of a role to the caller.
type RoleSource struct {
	Kind      string     `json:"kind"`
	Role      model.Role `json:"role"`
	TenantID  string     `json:"tenantId"`
	Group     string     `json:"group,omitempty"`
	BindingID string     `json:"bindingId,omitempty"`
}

type callerKey struct{}

// WithCaller returns a copy of ctx carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller stored by Require.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}

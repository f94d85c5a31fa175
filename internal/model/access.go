package model

import (
	"fmt"
	"time"
)

// Role is an application role of the admin API (SPEC 5, DESIGN 6.3).
type Role string

// Application roles, lowest first.
const (
	RoleReader   Role = "reader"
	RoleOperator Role = "operator"
	RoleAdmin    Role = "admin"
)

// DefaultTenant is the tenant of a binding that names none (DESIGN 6.4).
const DefaultTenant = "default"

// Rank orders roles: reader 1 < operator 2 < admin 3; anything else is 0.
func (r Role) Rank() int {
	switch r {
	case RoleReader:
		return 1
	case RoleOperator:
		return 2
	case RoleAdmin:
		return 3
	}
	return 0
}

// Valid reports whether r is one of the three roles.
func (r Role) Valid() bool { return r.Rank() > 0 }

// AtLeast reports whether r grants everything min grants.
func (r Role) AtLeast(min Role) bool { return r.Valid() && r.Rank() >= min.Rank() }

// ParseRole returns the role named s or an error.
func ParseRole(s string) (Role, error) {
	r := Role(s)
	if !r.Valid() {
		return "", fmt.Errorf("role must be one of admin, operator, reader")
	}
	return r, nil
}

// RoleBinding maps an identity-provider group to a role in a tenant.
type RoleBinding struct {
	Group    string `json:"group"`
	Role     Role   `json:"role"`
	TenantID string `json:"tenantId"`
}

// PermissionBinding assigns a role directly to a user (by e-mail).
type PermissionBinding struct {
	BindingID string    `json:"bindingId"`
	Email     string    `json:"email"`
	Role      Role      `json:"role"`
	TenantID  string    `json:"tenantId"`
	CreatedAt time.Time `json:"createdAt"`
	CreatedBy string    `json:"createdBy"`
}

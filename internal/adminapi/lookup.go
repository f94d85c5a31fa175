package adminapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/google/uuid"
	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// ServiceOrNotFound turns the store's ErrNotFound of a service lookup into
// 404 S2R-ADM-0404:
//
//	svc, err := adminapi.ServiceOrNotFound(tx.Service(ctx, id))
func ServiceOrNotFound(svc model.Service, err error) (model.Service, error) {
	if errors.Is(err, store.ErrNotFound) {
		return svc, apierr.New(apierr.AdmNotFound, "service not found")
	}
	return svc, err
}

// VersionReader is what the store and a transaction both offer for
// reading one version.
type VersionReader interface {
	Version(ctx context.Context, versionID string) (model.Version, error)
}

// VersionOf returns version versionID of service serviceID; 404
// S2R-ADM-0404 when either does not exist or the version belongs to
// another service.
func VersionOf(ctx context.Context, q VersionReader, serviceID, versionID string) (model.Version, error) {
	v, err := q.Version(ctx, versionID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && v.ServiceID != serviceID) {
		return model.Version{}, apierr.New(apierr.AdmNotFound, "version not found for this service")
	}
	return v, err
}

// CallerEmail returns the e-mail of r's caller.
func CallerEmail(r *http.Request) string {
	c, _ := access.CallerFrom(r.Context())
	return c.Email
}

// NewID returns a new catalog id: a time-ordered UUID (v7), a random one
// if the clock cannot give one.
func NewID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

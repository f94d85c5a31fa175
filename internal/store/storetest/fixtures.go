package storetest

import (
	"context"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// AddAPIKeyService creates, in tx, an active publish service with the key
// key and one backend profile that sends its API key in header: the
// header name is then one redaction masks (store.APIKeyHeaderNames).
// Ids are "svc-"+key and "p-"+key.
func AddAPIKeyService(ctx context.Context, tx *store.Tx, key, header string) error {
	now := time.Now()
	if err := tx.CreateService(ctx, model.Service{ServiceID: "svc-" + key, ServiceKey: key, ServiceName: key, Environment: "dev",
		Direction: "publish", Status: "active", CreatedAt: now, UpdatedAt: now}); err != nil {
		return err
	}
	return tx.CreateBackendProfile(ctx, model.BackendProfile{ProfileID: "p-" + key, ServiceID: "svc-" + key, Name: "main",
		EndpointURL: "http://10.0.0.1/", AuthType: model.AuthAPIKeyHeader, APIKeyHeaderName: header, RoutingWeight: 1,
		CreatedAt: now, UpdatedAt: now})
}

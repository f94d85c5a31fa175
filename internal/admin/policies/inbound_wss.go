package policies

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// maxInboundWSSEntries bounds the usernames and the trusted certificates
// of one inbound policy.
const maxInboundWSSEntries = 1000

// inboundWSSBody is the PUT body of a service's inbound WS-Security policy
// (DESIGN 10.2). A username without a password keeps the one stored for
// it.
type inboundWSSBody struct {
	Mode                   string               `json:"mode"`
	UsernameTokens         []inboundWSSUserBody `json:"usernameTokens"`
	TrustedCertificatesPEM []string             `json:"trustedCertificatesPem"`
	RequireSignature       bool                 `json:"requireSignature"`
	RequireTimestamp       bool                 `json:"requireTimestamp"`
	MaxClockSkewSeconds    int                  `json:"maxClockSkewSeconds"`
}

// inboundWSSUserBody is one accepted username; Password is write-only.
type inboundWSSUserBody struct {
	Username string  `json:"username"`
	Password *string `json:"password,omitempty"`
}

var docGetInboundWSS = adminapi.Doc{
	Summary: "Inbound WS-Security policy of a consume or gateway service (DESIGN 10.2): how the wsse:Security header " +
		"of incoming SOAP requests is checked before the backend is called. Passwords are answered as their credential " +
		"metadata envelope. A service without a stored policy answers mode off.",
	Response: model.InboundWSSConfig{},
}

var docPutInboundWSS = adminapi.Doc{
	Summary: "Replace the inbound WS-Security policy. mode: off (default; a Security header is accepted unchecked), " +
		"optional (a header that is present must validate) or required. A username without a password keeps its " +
		"stored password; a new username needs one. Certificates are PEM; maxClockSkewSeconds 0 means 300.",
	Request:  inboundWSSBody{},
	Response: model.InboundWSSConfig{},
}

// getInboundWSS answers the inbound WS-Security policy of a service.
func (s *Handlers) getInboundWSS(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	if _, err := adminapi.ServiceOrNotFound(s.store.Service(r.Context(), id)); err != nil {
		return err
	}
	c, err := s.store.InboundWSS(r.Context(), id)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, c)
}

// putInboundWSS replaces the inbound WS-Security policy of a service.
func (s *Handlers) putInboundWSS(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	var body inboundWSSBody
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	if err := validateInboundWSS(body); err != nil {
		return err
	}
	ctx := r.Context()
	now, by := s.now().UTC(), adminapi.CallerEmail(r)
	var after model.InboundWSSConfig
	err := s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		svc, err := adminapi.ServiceOrNotFound(tx.Service(ctx, id))
		if err != nil {
			return err
		}
		if svc.Direction == model.DirectionPublish && body.Mode != "" && body.Mode != model.WSSModeOff {
			return adminapi.FieldError("mode", "inbound WS-Security applies to consume and gateway services; this one is publish")
		}
		before, err := tx.InboundWSS(ctx, id)
		if err != nil {
			return err
		}
		if after, err = s.inboundWSSConfig(id, body, before, now, by); err != nil {
			return err
		}
		if err := tx.PutInboundWSS(ctx, after); err != nil {
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "inbound_ws_security.update", "service", id,
			"replaced inbound WS-Security policy of service "+id+" (mode "+after.Mode+", "+
				strconv.Itoa(len(after.UsernameTokens))+" usernames, "+strconv.Itoa(len(after.TrustedCertificatesPEM))+
				" certificates)", before, after))
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, after)
}

// validateInboundWSS checks the body as model.InboundWSSecurity does, plus
// the rules of the admin body: unique usernames and bounded lists.
func validateInboundWSS(b inboundWSSBody) error {
	if len(b.UsernameTokens) > maxInboundWSSEntries {
		return adminapi.FieldError("usernameTokens", "must hold at most "+strconv.Itoa(maxInboundWSSEntries)+" entries")
	}
	if len(b.TrustedCertificatesPEM) > maxInboundWSSEntries {
		return adminapi.FieldError("trustedCertificatesPem", "must hold at most "+strconv.Itoa(maxInboundWSSEntries)+" entries")
	}
	p := model.InboundWSSecurity{Mode: b.Mode, TrustedCertificatesPEM: b.TrustedCertificatesPEM,
		RequireSignature: b.RequireSignature, RequireTimestamp: b.RequireTimestamp, MaxClockSkewSeconds: b.MaxClockSkewSeconds}
	seen := map[string]bool{}
	for i, u := range b.UsernameTokens {
		if seen[u.Username] {
			return indexedFieldError(&model.FieldError{Field: "usernameTokens", Index: i, Reason: "username is listed twice"})
		}
		seen[u.Username] = true
		p.UsernameTokens = append(p.UsernameTokens, model.WSSUserPassword{Username: u.Username})
	}
	return indexedFieldError(p.Validate())
}

// indexedFieldError maps a *model.FieldError to S2R-VAL-0400 naming the
// field (with its index, as "usernameTokens[1]", and details.index).
func indexedFieldError(err error) error {
	var fe *model.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	if fe.Index < 0 {
		return adminapi.FieldError(fe.Field, fe.Reason)
	}
	return adminapi.FieldError(fe.Field+"["+strconv.Itoa(fe.Index)+"]", fe.Reason).WithDetail("index", fe.Index)
}

// inboundWSSConfig builds the stored policy: each given password sealed,
// each omitted one kept from before (a new username without one is
// refused).
func (s *Handlers) inboundWSSConfig(id string, b inboundWSSBody, before model.InboundWSSConfig, now time.Time, by string) (model.InboundWSSConfig, error) {
	c := model.InboundWSSConfig{ServiceID: id, Mode: b.Mode, UsernameTokens: []model.InboundWSSUser{},
		TrustedCertificatesPEM: b.TrustedCertificatesPEM, RequireSignature: b.RequireSignature,
		RequireTimestamp: b.RequireTimestamp, MaxClockSkewSeconds: b.MaxClockSkewSeconds, UpdatedAt: &now, UpdatedBy: by}
	if c.Mode == "" {
		c.Mode = model.WSSModeOff
	}
	if c.TrustedCertificatesPEM == nil {
		c.TrustedCertificatesPEM = []string{}
	}
	stored := map[string]model.Credential{}
	for _, u := range before.UsernameTokens {
		stored[u.Username] = u.Password
	}
	for i, u := range b.UsernameTokens {
		field := "usernameTokens[" + strconv.Itoa(i) + "].password"
		if u.Password == nil {
			old, ok := stored[u.Username]
			if !ok || !old.Set {
				return c, adminapi.FieldError(field, "is required for a new username").WithDetail("index", i)
			}
			c.UsernameTokens = append(c.UsernameTokens, model.InboundWSSUser{Username: u.Username, Password: old})
			continue
		}
		if *u.Password == "" {
			return c, adminapi.FieldError(field, "must not be empty").WithDetail("index", i)
		}
		if s.secrets == nil {
			return c, apierr.New(apierr.AdmInternal, "the password cannot be stored: no secret key is configured")
		}
		sealed, err := s.secrets.Seal([]byte(*u.Password), model.InboundWSSPasswordAAD(id, u.Username))
		if err != nil {
			return c, apierr.Internal(apierr.AdmInternal, err)
		}
		c.UsernameTokens = append(c.UsernameTokens, model.InboundWSSUser{Username: u.Username, Password: model.NewCredential(sealed, now, by)})
	}
	return c, nil
}

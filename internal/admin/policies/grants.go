package policies

import (
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// maxGrantCIDRs bounds a consumer grant list.
const maxGrantCIDRs = 1000

// grantsBody is the PUT body of consumer grants.
type grantsBody struct {
	CIDRs []string `json:"cidrs"`
}

var docGetConsumerGrants = adminapi.Doc{
	Summary: "Consumer IP grants of a service (DESIGN 6.9): the CIDRs whose attributed client addresses may call it " +
		"through the gateway. A service without a stored list answers an empty list (nobody granted).",
	Response: model.ConsumerGrants{},
}

var docPutConsumerGrants = adminapi.Doc{
	Summary: "Replace the consumer IP grants. Each entry is an IPv4 or IPv6 CIDR (a bare address means /32 or /128) " +
		"without host bits set; at most 1000; duplicates are dropped, order is kept.",
	Request:  grantsBody{},
	Response: model.ConsumerGrants{},
}

// getConsumerGrants answers the grant list of a service.
func (s *Handlers) getConsumerGrants(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	if _, err := adminapi.ServiceOrNotFound(s.store.Service(r.Context(), id)); err != nil {
		return err
	}
	g, err := s.store.ConsumerGrants(r.Context(), id)
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, g)
}

// putConsumerGrants replaces the grant list of a service.
func (s *Handlers) putConsumerGrants(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("serviceId")
	var body struct {
		CIDRs *[]string `json:"cidrs"`
	}
	if err := adminapi.DecodeJSON(w, r, &body); err != nil {
		return err
	}
	if body.CIDRs == nil {
		return adminapi.FieldError("cidrs", "is required")
	}
	cidrs, err := normalizeCIDRs(*body.CIDRs)
	if err != nil {
		return err
	}
	ctx := r.Context()
	now := s.now().UTC()
	after := model.ConsumerGrants{ServiceID: id, CIDRs: cidrs, UpdatedAt: &now, UpdatedBy: adminapi.CallerEmail(r)}
	err = s.store.ChangeConfig(ctx, func(tx *store.Tx) error {
		if _, err := adminapi.ServiceOrNotFound(tx.Service(ctx, id)); err != nil {
			return err
		}
		before, err := tx.ConsumerGrants(ctx, id)
		if err != nil {
			return err
		}
		if err := tx.PutConsumerGrants(ctx, after); err != nil {
			return err
		}
		return tx.InsertAudit(ctx, adminapi.AuditEvent(r, "consumer_grants.update", "service", id,
			"replaced consumer grants of service "+id+" ("+strconv.Itoa(len(cidrs))+" CIDRs)", before, after))
	})
	if err != nil {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, after)
}

// normalizeCIDRs validates the entries and returns them in canonical
// form, duplicates dropped.
func normalizeCIDRs(in []string) ([]string, error) {
	if len(in) > maxGrantCIDRs {
		return nil, adminapi.FieldError("cidrs", "must hold at most "+strconv.Itoa(maxGrantCIDRs)+" entries")
	}
	out := make([]string, 0, len(in))
	seen := map[netip.Prefix]bool{}
	for i, raw := range in {
		field := "cidrs[" + strconv.Itoa(i) + "]"
		p, err := parseGrant(strings.TrimSpace(raw))
		if err != nil {
			return nil, adminapi.FieldError(field, err.Error())
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p.String())
		}
	}
	return out, nil
}

type grantError string

func (e grantError) Error() string { return string(e) }

// parseGrant parses a CIDR or a bare address.
func parseGrant(s string) (netip.Prefix, error) {
	if !strings.Contains(s, "/") {
		a, err := netip.ParseAddr(s)
		if err != nil || a.Zone() != "" {
			return netip.Prefix{}, grantError("must be an IP address or CIDR such as 10.0.0.0/8")
		}
		return netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), nil
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, grantError("must be a CIDR such as 10.0.0.0/8 or 2001:db8::/32")
	}
	if p.Masked() != p {
		return netip.Prefix{}, grantError("has host bits set; the network is " + p.Masked().String())
	}
	return p, nil
}

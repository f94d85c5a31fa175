package bundle

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/s2r-project/s2r/internal/access"
	"github.com/s2r-project/s2r/internal/adminapi"
	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
)

// MaxApplyBytes bounds the body of POST /bundle:apply (WSDL files
// included).
const MaxApplyBytes = 64 << 20

// Change actions.
const (
	ActionCreate    = "create"
	ActionUpdate    = "update"
	ActionUnchanged = "unchanged"
)

// Change kinds: the parts of a service an apply compares.
const (
	KindService           = "service"
	KindBackendProfile    = "backendProfile"
	KindConsumerGrants    = "consumerGrants"
	KindInboundWSSecurity = "inboundWsSecurity"
	KindRateLimits        = "rateLimits"
	KindVersion           = "version"
)

// ApplyResult answers POST /bundle:apply: what the apply changed (or, in
// a dry run, would change) and the secrets the bundle says are set that
// the target does not hold.
type ApplyResult struct {
	DryRun         bool     `json:"dryRun"`
	Changes        []Change `json:"changes"`
	MissingSecrets []string `json:"missingSecrets"`
}

// Change is what an apply does to one part of a service. Name is the
// backend profile's name, or for a version the number it gets (or keeps);
// Fields lists the changed members of an update. A secret is named in
// Fields when it changes, never shown.
type Change struct {
	Kind        string   `json:"kind"`
	Direction   string   `json:"direction"`
	Environment string   `json:"environment"`
	ServiceKey  string   `json:"serviceKey"`
	Name        string   `json:"name"`
	Action      string   `json:"action"`
	Fields      []string `json:"fields"`
}

var docApplyBundle = adminapi.Doc{
	Summary: "Apply a bundle (DESIGN 10.5, docs/bundles.md) in one transaction: create or update each service, its backend " +
		"profiles, consumer grants, inbound WS-Security and, when its operations, mappings, rules or WSDL differ, a new " +
		"version made from the bundle's WSDL files, activated unless the service says \"activate\": false. JSON or YAML " +
		"body. A bad bundle is 400 S2R-VAL-0400 with details.pointer and changes nothing. Secrets given as strings are " +
		"sealed and never echoed; absent ones keep the stored value. dryRun=true (any role) answers the same without " +
		"writing; a real apply needs the operator role.",
	Query: []adminapi.Param{
		{Name: "dryRun", Type: "boolean", Description: "true: compute and answer the changes, write nothing; default false"},
	},
	Request:      Bundle{},
	RequestMedia: []string{"application/json", "application/yaml"},
	Response:     ApplyResult{},
	Errors:       []int{http.StatusConflict},
}

// errDryRun rolls a dry run's transaction back.
var errDryRun = errors.New("bundle: dry run")

// postApply applies a bundle. The route admits readers so that they may
// dry-run; a real apply checks the operator role here.
func (h *Handlers) postApply(w http.ResponseWriter, r *http.Request) error {
	dry, err := dryRunOf(r)
	if err != nil {
		return err
	}
	if !dry {
		if err := requireOperator(r); err != nil {
			return err
		}
	}
	body, err := adminapi.ReadBody(w, r, MaxApplyBytes)
	if err != nil {
		return err
	}
	b, err := ParseBundle(body, r.Header.Get("Content-Type"))
	if err != nil {
		return err
	}
	now := h.now().UTC()
	policy, err := h.backendPolicy(r.Context())
	if err != nil {
		return err
	}
	c := checker{now: now, override: h.checkOverride, backends: policy}
	versions, err := c.check(r.Context(), &b)
	if err != nil {
		return err
	}
	res := ApplyResult{DryRun: dry, Changes: []Change{}, MissingSecrets: []string{}}
	err = h.store.Transact(r.Context(), func(tx *store.Tx) error {
		a := &applier{h: h, r: r, tx: tx, now: now, by: adminapi.CallerEmail(r), res: &res}
		for i := range b.Services {
			if err := a.service(i, b.Services[i], versions[i]); err != nil {
				return err
			}
		}
		if dry {
			return errDryRun
		}
		return a.finish()
	})
	if err != nil && !errors.Is(err, errDryRun) {
		return err
	}
	return adminapi.WriteJSON(w, http.StatusOK, res)
}

// backendPolicy is the outbound policy of backend connections under the
// current settings, as the runtime applies it.
func (h *Handlers) backendPolicy(ctx context.Context) (fetch.Policy, error) {
	st, err := h.store.Settings(ctx)
	if err != nil {
		return fetch.Policy{}, err
	}
	allowed, err := fetch.ParseCIDRs(st.OutboundAllowedCIDRs)
	if err != nil {
		return fetch.Policy{}, err
	}
	denied, err := fetch.ParseCIDRs(st.OutboundDeniedCIDRs)
	if err != nil {
		return fetch.Policy{}, err
	}
	return fetch.Policy{AllowedCIDRs: allowed, DeniedCIDRs: denied}.ForBackends(), nil
}

// dryRunOf reads the dryRun query parameter.
func dryRunOf(r *http.Request) (bool, error) {
	switch v := r.URL.Query().Get("dryRun"); v {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	default:
		return false, adminapi.FieldError("dryRun", "must be true or false")
	}
}

// requireOperator refuses a caller below the operator role (403
// S2R-ADM-0403, as the route guard words it).
func requireOperator(r *http.Request) error {
	c, _ := access.CallerFrom(r.Context())
	if c.Role.AtLeast(model.RoleOperator) {
		return nil
	}
	return apierr.New(apierr.AdmForbidden, "caller role not permitted: applying a bundle needs the operator role; "+
		"a dry run (dryRun=true) does not").WithDetail("requiredRole", string(model.RoleOperator)).WithDetail("role", string(c.Role))
}

// finish bumps the configuration revision when anything changed and
// records the apply's one audit event.
func (a *applier) finish() error {
	counts := map[string]int{}
	for _, c := range a.res.Changes {
		counts[c.Action]++
	}
	if counts[ActionCreate]+counts[ActionUpdate] > 0 {
		if _, err := a.tx.BumpRevision(a.r.Context()); err != nil {
			return err
		}
	}
	msg := "applied a bundle: " + strconv.Itoa(counts[ActionCreate]) + " created, " + strconv.Itoa(counts[ActionUpdate]) +
		" updated, " + strconv.Itoa(counts[ActionUnchanged]) + " unchanged"
	return a.tx.InsertAudit(a.r.Context(), adminapi.AuditEvent(a.r, "bundle.apply", "bundle", "bundle", msg, nil,
		map[string]any{"changes": a.res.Changes, "missingSecrets": a.res.MissingSecrets}))
}

// applier applies the services of one bundle inside one transaction.
type applier struct {
	h   *Handlers
	r   *http.Request
	tx  *store.Tx
	now time.Time
	by  string
	res *ApplyResult
}

// add records a change of service s.
func (a *applier) add(s Service, kind, name, action string, fields []string) {
	if fields == nil {
		fields = []string{}
	}
	a.res.Changes = append(a.res.Changes, Change{Kind: kind, Direction: s.Direction, Environment: s.Environment,
		ServiceKey: s.ServiceKey, Name: name, Action: action, Fields: fields})
}

// missing records a secret the bundle says is set that the target lacks.
func (a *applier) missing(s Service, where string) {
	a.res.MissingSecrets = append(a.res.MissingSecrets, s.Direction+"/"+s.Environment+"/"+s.ServiceKey+": "+where)
}

// actionOf is create for a new part, update when fields changed.
func actionOf(created bool, fields []string) string {
	switch {
	case created:
		return ActionCreate
	case len(fields) > 0:
		return ActionUpdate
	}
	return ActionUnchanged
}

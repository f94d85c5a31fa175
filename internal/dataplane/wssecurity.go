package dataplane

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/correlation"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/routing"
	"github.com/s2r-project/s2r/internal/wssec"
)

// checkWSSecurity applies svc's inbound WS-Security policy (DESIGN 10.2)
// to envelope and records the authenticated identity on rec. A refused
// header is S2R-RUN-0407 carrying the WS-Security fault code; a failure of
// the nonce store is 503 S2R-RUN-0503 (the caller may retry). With mode
// off (no verifier) nothing is checked.
func checkWSSecurity(ctx context.Context, svc *routing.Service, envelope []byte, rec *model.TxRecord) error {
	if svc.WSSecurity == nil {
		return nil
	}
	res, err := svc.WSSecurity.Verify(ctx, envelope)
	if err != nil {
		var f *wssec.Fault
		if errors.As(err, &f) {
			return apierr.New(apierr.RunWSSecurity, "WS-Security: "+f.Message).
				WithFaultCode(apierr.FaultCode{Prefix: "wsse", Space: wssec.NSWSSE, Local: string(f.Code)}).
				WithDetail("wsSecurityFault", string(f.Code))
		}
		return apierr.Wrap(apierr.RunUnavailable, err, "the WS-Security replay check is unavailable; retry later")
	}
	rec.ConsumerIdentity = res.Identity
	return nil
}

// checkGatewayWSSecurity reads the whole request body of a gateway
// request whose service has an inbound WS-Security policy, checks it, and
// puts the unchanged bytes back as the body to forward. It reports false
// when it has answered the request itself: a refused header as a SOAP
// Fault of the request's version, an unreadable or oversized body as the
// gateway's JSON error.
func (d *Dispatcher) checkGatewayWSSecurity(w http.ResponseWriter, r *http.Request, rec *model.TxRecord, svc *routing.Service, limit int64) bool {
	if svc.WSSecurity == nil {
		return true
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	rec.RequestBytes = int64(len(body))
	switch {
	case int64(len(body)) > limit:
		d.gatewayFail(w, r, rec, apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, maxPayloadMB(d.cfg.MaxPayloadMB)))
		return false
	case err != nil:
		d.gatewayFail(w, r, rec, apierr.Wrap(apierr.ValBadRequest, err, "the request body could not be read"))
		return false
	}
	if err := checkWSSecurity(r.Context(), svc, body, rec); err != nil {
		e := apierr.Resolve(err, apierr.RunInternal)
		apierr.Log(r.Context(), e)
		v := soapVersionOf(r)
		apierr.WriteFault(w, v, e, correlation.ID(r.Context()))
		d.finishGatewayRecord(rec, apierr.FaultStatus(v, e), e.Code)
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

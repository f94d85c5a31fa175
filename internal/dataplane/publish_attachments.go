package dataplane

import (
	"errors"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/upstream"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// inlineAttachments turns a multipart/related answer (MTOM/XOP, or SOAP
// with Attachments referenced by href="cid:…") into a plain envelope whose
// xs:base64Binary elements hold the referenced parts in base64, so the
// response plan converts it like any other answer (DESIGN 10.3). The whole
// multipart body was read under max_payload_mb (the upstream response
// limit); the inlined envelope may grow by the base64 third. It returns
// the body unchanged, and lim, for any other answer.
func (c *publishCall) inlineAttachments(resp *upstream.Response, lim xmlstream.Limits) ([]byte, xmlstream.Limits, error) {
	ct := resp.Header.Get("Content-Type")
	if !soap.IsMultipart(ct) {
		return resp.Body, lim, nil
	}
	limit := int64(c.maxMB) << 20
	limit += limit/3 + 4096
	env, _, err := soap.InlineMTOM(ct, resp.Body, limit, xmlstream.Limits{MaxSize: limit})
	if errors.Is(err, soap.ErrTooLarge) {
		e := apierr.PayloadTooLarge(apierr.RunPayloadTooLarge, c.maxMB).WithCause(err)
		e.Message = "the backend response is over the maximum payload size"
		return nil, lim, e
	}
	if err != nil {
		return nil, lim, apierr.Wrap(apierr.RunBadSOAPResponse, err, "the backend's multipart answer could not be read").
			WithDetail("backendStatus", resp.StatusCode)
	}
	lim.MaxSize = limit
	return env, lim, nil
}

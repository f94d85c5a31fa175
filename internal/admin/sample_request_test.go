package admin

import (
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
)

// TestSampleRequest: the console's "sample SOAP request ready to copy"
// comes from the operation's contract, without a call.
func TestSampleRequest(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		api := newTestAPI(t, st)
		_, d := api.consumeDraft("calc", calcOps)
		var got struct {
			SOAPAction, ContentType, Envelope string
			Payload                           map[string]any
		}
		api.Do("GET", Prefix+"/operations/"+d.Operations[0].OperationID+"/sample-request", readerEmail, "").
			WantStatus(t, 200).Decode(t, &got)
		if got.SOAPAction != "urn:Add" || !strings.HasPrefix(got.ContentType, "text/xml") || got.Payload == nil {
			t.Errorf("sample = %+v", got)
		}
		for _, want := range []string{"http://schemas.xmlsoap.org/soap/envelope/", ":Add", ":a>", ":b>"} {
			if !strings.Contains(got.Envelope, want) {
				t.Errorf("envelope lacks %s: %s", want, got.Envelope)
			}
		}
		api.Do("GET", Prefix+"/operations/nope/sample-request", readerEmail, "").WantError(t, 404, apierr.AdmNotFound)
	})
}

package load

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"testing"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wssec"
)

// TestLoadInboundWSS: a policy stored through the admin API is compiled
// into the service's verifier with its password opened; mode off
// compiles none.
func TestLoadInboundWSS(t *testing.T) {
	wsdlText, err := os.ReadFile("../../dataplane/testdata/calc.wsdl")
	if err != nil {
		t.Fatal(err)
	}
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		box := admintest.Box(t)
		a := newAdminClient(t, st, box)
		imp := a.importActive(wsdlText, "calc")
		path := "/services/" + imp.Service.ServiceID + "/inbound-ws-security"
		ctx := context.Background()
		cfg := Config{Store: st, Secrets: box, Logger: slog.New(slog.DiscardHandler)}
		tbl, err := Table(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if s := tbl.Lookup("publish", "dev", "calc"); s == nil || s.WSSecurity != nil {
			t.Fatalf("without a policy: %+v", s)
		}
		a.do("PUT", path, `{"mode":"required","usernameTokens":[{"username":"u1","password":"pw-1"}]}`, http.StatusOK, nil)
		if tbl, err = Table(ctx, cfg); err != nil {
			t.Fatal(err)
		}
		s := tbl.Lookup("publish", "dev", "calc")
		if s == nil || s.WSSecurity == nil {
			t.Fatalf("policy not compiled: %+v", tbl.Errors())
		}
		env := `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><o:Security xmlns:o="` + wssec.NSWSSE +
			`"><o:UsernameToken><o:Username>u1</o:Username><o:Password>pw-1</o:Password></o:UsernameToken></o:Security>` +
			`</s:Header><s:Body/></s:Envelope>`
		if res, err := s.WSSecurity.Verify(ctx, []byte(env)); err != nil || res.Identity != "u1" {
			t.Errorf("verify with the stored password: %+v, %v", res, err)
		}
	})
}

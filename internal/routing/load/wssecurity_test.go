package load

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/s2r-project/s2r/internal/admin/admintest"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/store"
	"github.com/s2r-project/s2r/internal/store/storetest"
	"github.com/s2r-project/s2r/internal/wssec"
)

// TestLoadInboundWSS: a stored policy is compiled
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
		ctx := context.Background()
		cfg := Config{Store: st, Secrets: box, Logger: slog.New(slog.DiscardHandler)}
		tbl, err := Table(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if s := tbl.Lookup("publish", "dev", "calc"); s == nil || s.WSSecurity != nil {
			t.Fatalf("without a policy: %+v", s)
		}
		// Stored as the admin API stores it (which allows it on consume
		// and gateway services only; the loader compiles it whatever the
		// direction).
		sealed, err := box.Seal([]byte("pw-1"), model.InboundWSSPasswordAAD(imp.Service.ServiceID, "u1"))
		if err != nil {
			t.Fatal(err)
		}
		err = st.ChangeConfig(ctx, func(tx *store.Tx) error {
			return tx.PutInboundWSS(ctx, model.InboundWSSConfig{ServiceID: imp.Service.ServiceID, Mode: model.WSSModeRequired,
				UsernameTokens: []model.InboundWSSUser{{Username: "u1", Password: model.NewCredential(sealed, time.Now(), "t")}}})
		})
		if err != nil {
			t.Fatal(err)
		}
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

package apierr

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wantStatus is every code of SPEC 7.2 and 7.3 plus the added ones, with the
// status the SPEC (or docs/decisions.md) gives.
var wantStatus = map[string]int{
	"S2R-RUN-0405":  400,
	"S2R-VAL-0400":  400,
	"S2R-VAL-0410":  400,
	"S2R-VAL-0411":  400,
	"S2R-RUN-0401":  401,
	"S2R-RUN-0407":  401,
	"S2R-GW-0403":   403,
	"S2R-GW-0407":   403,
	"S2R-RUN-0404":  404,
	"S2R-RUN-0411":  405,
	"S2R-RUN-0431":  409,
	"S2R-RUN-0410":  410,
	"S2R-RUN-0413":  413,
	"S2R-RUN-0500":  500,
	"S2R-RUN-0502":  502,
	"S2R-RUN-0504":  502,
	"S2R-RUN-0505":  502,
	"S2R-RUN-0506":  502,
	"S2R-VAL-0430":  502,
	"S2R-VAL-0431":  502,
	"S2R-RUN-0503":  503,
	"S2R-RUN-0529":  503,
	"S2R-RUN-0424":  504,
	"S2R-ADM-0403":  403,
	"S2R-ADM-0410":  409,
	"S2R-DISC-0404": 404,
	"S2R-DISC-0400": 400,
	"S2R-OBS-0400":  400,
	"S2R-OBS-0422":  422,
	// Added by s2r (docs/decisions.md).
	"S2R-ADM-0401": 401,
	"S2R-ADM-0404": 404,
	"S2R-ADM-0405": 405,
	"S2R-ADM-0409": 409,
	"S2R-ADM-0413": 413,
	"S2R-ADM-0500": 500,
	"S2R-ADM-0503": 503,
	"S2R-VAL-0415": 415,
	// Ingest (docs/discovery.md).
	"S2R-ING-0400": 400,
	"S2R-ING-0401": 401,
	"S2R-ING-0404": 404,
	"S2R-ING-0405": 405,
	"S2R-ING-0413": 413,
	"S2R-ING-0415": 415,
	"S2R-ING-0500": 500,
	"S2R-ING-0503": 503,
	// Backend protection and client rate limits (DESIGN 10.6).
	"S2R-RUN-0509": 503,
	"S2R-RUN-0429": 429,
}

func TestRegistryStatuses(t *testing.T) {
	for code, want := range wantStatus {
		t.Run(code, func(t *testing.T) {
			got, ok := StatusOf(code)
			if !ok {
				t.Fatalf("code %s not registered", code)
			}
			if got != want {
				t.Errorf("StatusOf(%s) = %d, want %d", code, got, want)
			}
			if s := New(code, "m").Status(); s != want {
				t.Errorf("New(%s).Status() = %d, want %d", code, s, want)
			}
		})
	}
}

func TestRegistryHasNoExtraCodes(t *testing.T) {
	var want []string
	for c := range wantStatus {
		want = append(want, c)
	}
	if diff := cmp.Diff(len(want), len(Codes())); diff != "" {
		t.Errorf("registry size mismatch (-want +got):\n%s\nregistered: %v", diff, Codes())
	}
}

func TestCodeFormat(t *testing.T) {
	re := regexp.MustCompile(`^S2R-[A-Z]+-[0-9]{4}$`)
	for _, c := range Codes() {
		if !re.MatchString(c) {
			t.Errorf("code %q does not match S2R-<AREA>-<NNNN>", c)
		}
	}
}

func TestUnknownCodeIs500(t *testing.T) {
	if s, ok := StatusOf("S2R-XXX-9999"); ok || s != http.StatusInternalServerError {
		t.Errorf("StatusOf(unknown) = %d, %v; want 500, false", s, ok)
	}
}

package httpx

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/s2r-project/s2r/internal/apierr"
)

func TestLimitBody(t *testing.T) {
	const mb = 1 << 20
	echoLen := apierr.HandlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		b, err := ReadBody(r)
		if err != nil {
			return err
		}
		fmt.Fprint(w, len(b))
		return nil
	})
	srv := serve(t, Correlation(LimitBody(apierr.RunPayloadTooLarge, func() int { return 1 })(echoLen)))
	tests := []struct {
		name       string
		size       int
		chunked    bool
		wantStatus int
	}{
		{"small", 100, false, 200},
		{"exactly the limit", mb, false, 200},
		{"exactly the limit chunked", mb, true, 200},
		{"content-length over", mb + 1, false, 413},
		{"chunked over", mb + 1, true, 413},
		{"chunked far over", 3 * mb, true, 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader = bytes.NewReader(make([]byte, tt.size))
			if tt.chunked {
				body = io.MultiReader(body) // hides the length: chunked encoding
			}
			req, _ := http.NewRequest("POST", srv.URL+"/publish/dev/x", body)
			resp, got := do(t, req)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %s", resp.StatusCode, tt.wantStatus, got)
			}
			if tt.wantStatus == 413 {
				if !strings.Contains(got, `"code":"S2R-RUN-0413"`) || !strings.Contains(got, `"details":{"maxPayloadMb":1}`) {
					t.Errorf("body = %s", got)
				}
				if resp.Header.Get("X-Correlation-Id") == "" || !strings.Contains(got, resp.Header.Get("X-Correlation-Id")) {
					t.Errorf("413 lacks the correlation id: %s", got)
				}
			}
		})
	}
}

func TestMaxPayloadDefault(t *testing.T) {
	for _, f := range []MaxPayloadFunc{nil, func() int { return 0 }, func() int { return -3 }} {
		if got := f.mb(); got != DefaultMaxPayloadMB {
			t.Errorf("mb() = %d, want %d", got, DefaultMaxPayloadMB)
		}
	}
}

package browser

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestTryRESTBackend: a consume service's Try tab calls its REST backend
// (a real server on 127.0.0.1) through the backend profile, and shows the
// request and the backend's JSON answer.
func TestTryRESTBackend(t *testing.T) {
	f := setup(t)
	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body any
		json.NewDecoder(r.Body).Decode(&body)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "path": r.URL.RequestURI(), "got": body})
	}))
	t.Cleanup(rest.Close)
	wsdl, err := os.ReadFile(repoFile(echoWSDL))
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ Service struct{ ServiceID string } }
	f.admin(t, devAdmin, "POST", "/wsdl/import-xml:autopilot", map[string]any{"xml": string(wsdl), "environment": "dev",
		"serviceKey": "rest-echo", "direction": "consume", "backendUrl": rest.URL + "/api"}, 201, &res)
	ctx := f.tab(t, "")
	run(t, ctx, "send a REST call from the Try tab",
		chromedp.Navigate(f.base+"/console/services/"+res.Service.ServiceID+"?tab=try"),
		chromedp.WaitVisible(chromedp.Search(byText("button", "Send to the backend"))),
		fillLabel("Method", "POST"),
		fillLabel("Path", "/orders/7?expand=items"),
		fillLabel("JSON body", `{"qty": 2}`),
		chromedp.Click(chromedp.Search(byText("button", "Send to the backend"))),
		chromedp.WaitVisible(chromedp.CSS(`.preview`)))
	got := textOf(t, ctx, ".preview")
	for _, want := range []string{"succeeded", "HTTP 200", "POST " + rest.URL + "/api/orders/7?expand=items", `"qty": 2`, `"path": "/api/orders/7?expand=items"`} {
		if !strings.Contains(got, want) {
			t.Errorf("preview lacks %q:\n%s", want, got)
		}
	}
}

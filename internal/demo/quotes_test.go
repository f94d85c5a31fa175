package demo

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestQuotes(t *testing.T) {
	srv := httptest.NewServer(Quotes())
	defer srv.Close()
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{"/quotes/ACME", 200, `{"symbol":"ACME","name":"Acme Corporation","price":123.45,"currency":"USD"}`},
		{"/quotes/initech", 200, `{"symbol":"INITECH","name":"Initech","price":8.25,"currency":"EUR"}`},
		{"/quotes/NOPE", 404, `{"error":"unknown symbol","known":["ACME","GLOBEX","INITECH"],"symbol":"NOPE"}`},
		{"/quotes", 200, `{"symbols":["ACME","GLOBEX","INITECH"]}`},
		{"/openapi.json", 200, quotesOpenAPI},
	} {
		resp, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || strings.TrimSpace(string(b)) != c.want || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("GET %s = %d %s, want %d %s", c.path, resp.StatusCode, b, c.status, c.want)
		}
	}
	var doc struct {
		Paths map[string]map[string]struct{ OperationID string }
	}
	if err := json.Unmarshal([]byte(quotesOpenAPI), &doc); err != nil || doc.Paths["/quotes/{symbol}"]["get"].OperationID != "getQuote" {
		t.Errorf("openapi.json: %v %+v", err, doc)
	}
}

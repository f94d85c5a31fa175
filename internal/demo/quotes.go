package demo

import (
	_ "embed"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
)

// QuotesWSDL is the SOAP contract s2r serves for the quote service
// (consume): GetQuote(symbol) answered by GET /quotes/{symbol}.
//
//go:embed quotes.wsdl
var QuotesWSDL string

// QuotesNS is the target namespace of the quote service's contract.
const QuotesNS = "http://s2r.dev/demo/quotes"

// Quote is one answer of the quote service.
type Quote struct {
	Symbol   string      `json:"symbol"`
	Name     string      `json:"name"`
	Price    json.Number `json:"price"`
	Currency string      `json:"currency"`
}

// quotes are the symbols the quote service knows.
var quotes = map[string]Quote{
	"ACME":    {"ACME", "Acme Corporation", "123.45", "USD"},
	"GLOBEX":  {"GLOBEX", "Globex Corporation", "57.10", "USD"},
	"INITECH": {"INITECH", "Initech", "8.25", "EUR"},
}

// Symbols lists the symbols the quote service knows, sorted.
func Symbols() []string {
	out := make([]string, 0, len(quotes))
	for s := range quotes {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// quotesOpenAPI describes the quote service, so that the console can
// propose each SOAP operation's REST call from it.
const quotesOpenAPI = `{"openapi":"3.1.0","info":{"title":"s2r demo quote service","version":"1"},"paths":{` +
	`"/quotes":{"get":{"operationId":"listQuotes","summary":"The symbols the service knows","responses":{"200":{"description":"symbols"}}}},` +
	`"/quotes/{symbol}":{"get":{"operationId":"getQuote","summary":"The quote of a symbol",` +
	`"parameters":[{"name":"symbol","in":"path","required":true,"schema":{"type":"string"},"example":"ACME"}],` +
	`"responses":{"200":{"description":"the quote"},"404":{"description":"unknown symbol"}}}}}}`

// Quotes is the JSON REST quote service: GET /quotes/{symbol} answers the
// quote of a known symbol (case-insensitive) or 404 with a JSON error;
// GET /quotes lists the symbols; GET /openapi.json describes both.
func Quotes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, quotesOpenAPI)
	})
	mux.HandleFunc("GET /quotes", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"symbols": Symbols()})
	})
	mux.HandleFunc("GET /quotes/{symbol}", func(w http.ResponseWriter, r *http.Request) {
		q, ok := quotes[strings.ToUpper(r.PathValue("symbol"))]
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]any{"error": "unknown symbol",
				"symbol": r.PathValue("symbol"), "known": Symbols()})
			return
		}
		writeJSON(w, http.StatusOK, q)
	})
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

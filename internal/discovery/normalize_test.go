package discovery

import (
	"strings"
	"testing"
)

func TestNormalizeURI(t *testing.T) {
	tests := []struct{ in, want string }{
		// Query, fragment, matrix parameters, trailing slash.
		{"/CalculatorService/Calculator.asmx?WSDL", "/calculatorservice/calculator.asmx"},
		{"/calculatorservice/calculator.asmx/", "/calculatorservice/calculator.asmx"},
		{"/ws/OrderService;jsessionid=A1B2C3D4E5F6?op=get#frag", "/ws/orderservice"},
		{"https://api.example.com:8443/soap/Billing/v2/invoices/INV-2024-000123?expand=lines", "/soap/billing/v2/invoices/{id}"},
		{"http://backend.internal", "/"},
		{"HTTP://Host/Path?x", "/path"},
		{"", "/"},
		{"/", "/"},
		{"//double//slashes///here/", "/double/slashes/here"},
		{"/a/./b/../c", "/a/c"},
		{"/../../etc/passwd", "/etc/passwd"},
		// Numeric, UUID, hex, digit-heavy, e-mail and token segments.
		{"/api/customers/48213/accounts/7", "/api/customers/{id}/accounts/{id}"},
		{"/api/orders/3f2504e0-4f89-11d3-9a0c-0305e82c3301/items", "/api/orders/{id}/items"},
		{"/api/orders/%7B3F2504E0-4F89-11D3-9A0C-0305E82C3301%7D", "/api/orders/{id}"},
		{"/api/orders/3F2504E04F8911D39A0C0305E82C3301", "/api/orders/{id}"},
		{"/objects/507f1f77bcf86cd799439011", "/objects/{id}"},
		{"/blobs/da39a3ee5e6b4b0d3255bfef95601890afd80709/raw", "/blobs/{id}/raw"},
		{"/reports/2024-01-15/summary", "/reports/{id}/summary"},
		{"/shipments/order-12345", "/shipments/{id}"},
		{"/users/John.Doe%40example.com/profile", "/users/{id}/profile"},
		{"/session/eyJhbGciOiJIUzI1NiJ9/refresh", "/session/{id}/refresh"},
		{"/files/dGhpcyBpcyBhIHRva2VuMTIz", "/files/{id}"},
		// Names stay names.
		{"/CustomerService/v1/GetCustomerDetailsV2Request", "/customerservice/v1/getcustomerdetailsv2request"},
		{"/api/v2/ipv6/routes", "/api/v2/ipv6/routes"},
		{"/reports/getOrderHistoryForYear2024", "/reports/getorderhistoryforyear2024"},
		{"/services/XMLHTTPRequestHandler", "/services/xmlhttprequesthandler"},
		{"/publish/dev/calc/add", "/publish/dev/calc/add"},
		{"/deadbeef", "/deadbeef"},
		// Percent-encoding and case.
		{"/%7Euser/%41PI", "/~user/api"},
		{"/caf%c3%a9/menu", "/caf%C3%A9/menu"},
		{"/café/menu", "/caf%C3%A9/menu"},
		{"/a%2Fb/c", "/a%2Fb/c"},
		{"/a%2fb/c", "/a%2Fb/c"},
		{"/bad%zzescape", "/bad%25zzescape"},
		{"/with space/x", "/with%20space/x"},
		{"/%2E%2E/x", "/x"},
		// Route templates of other gateways.
		{"/orders/{orderId}/lines/{lineNo}", "/orders/{id}/lines/{id}"},
		{"/orders/:orderId", "/orders/{id}"},
		{"/{id}/literal", "/{id}/literal"},
		{"/a{b}c", "/a%7Bb%7Dc"},
	}
	for _, tc := range tests {
		if got := NormalizeURI(tc.in); got != tc.want {
			t.Errorf("NormalizeURI(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNormalizeURIIsIdempotentAndBounded(t *testing.T) {
	long := "/a"
	for range 2000 {
		long += "/%C3%A9"
	}
	// Segments the bound cuts: digits whose non-ASCII tail is cut off (an
	// identifier once cut, found by FuzzNormalizeURI), a name cut to "..",
	// and a template parameter cut to "{i".
	digits := "/" + strings.Repeat("5", 1100) + "\xef\xd6\xef"
	dots := "/" + strings.Repeat("a", 1020) + "/..x"
	param := "/" + strings.Repeat("b", 1020) + "/{id}"
	for _, in := range []string{"/x/1/y", "/caf%C3%A9", "/a%2Fb", long, "/{id}", "/a b", digits, dots, param} {
		once := NormalizeURI(in)
		if twice := NormalizeURI(once); twice != once {
			t.Errorf("not idempotent: %q -> %q -> %q", in, once, twice)
		}
		if len(once) > MaxServiceURILen {
			t.Errorf("len %d over the bound", len(once))
		}
	}
}

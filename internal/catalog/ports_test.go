package catalog

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/wsdl"
)

func parseFixture(t *testing.T, path string) *wsdl.Definitions {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defs, err := wsdl.ParseFiles(t.Context(), "root.wsdl", map[string][]byte{"root.wsdl": b})
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

// choiceNames renders choices as service/port(portType, ops).
func choiceNames(cs []PortChoice) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Service+"/"+c.Port.Name+" "+c.Port.PortType.Local+" "+itoa(len(c.Port.Operations)))
	}
	return out
}

func TestSelectPortTypes(t *testing.T) {
	bank := parseFixture(t, "../wsdl/testdata/multiport/two-porttypes.wsdl")
	crm := parseFixture(t, "../wsdl/testdata/multiport/two-services.wsdl")
	tests := []struct {
		name                 string
		defs                 *wsdl.Definitions
		service, soapVersion string
		want                 []string
		wantErr              string
	}{
		{name: "two port types, SOAP 1.1 preferred", defs: bank,
			want: []string{"BankService/AccountsSoap AccountsPortType 25", "BankService/PaymentsSoap PaymentsPortType 32"}},
		{name: "SOAP 1.2 only", defs: bank, soapVersion: "1.2",
			want: []string{"BankService/PaymentsSoap12 PaymentsPortType 32"}},
		{name: "two services, port type once", defs: crm,
			want: []string{"CustomerService/CustomerSoap Customer 2", "AuditService/AuditSoap Audit 1"}},
		{name: "one service named", defs: crm, service: "AuditService",
			want: []string{"AuditService/AuditSoap Audit 1", "AuditService/CustomerMirror Customer 2"}},
		{name: "unknown service", defs: crm, service: "Nope", wantErr: `no SOAP port in service "Nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SelectPortTypes(tt.defs, tt.service, tt.soapVersion)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrNoOperations) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, choiceNames(got)); diff != "" {
				t.Errorf("choices (-want +got):\n%s", diff)
			}
		})
	}
}

func TestServiceKeys(t *testing.T) {
	long := strings.Repeat("a", 60)
	tests := []struct {
		first     string
		portTypes []string
		want      []string
	}{
		{"bank-service", []string{"AccountsPortType", "PaymentsPortType"}, []string{"bank-service", "bank-service-payments-port-type"}},
		{"calc", []string{"Calc"}, []string{"calc"}},
		{"x", []string{"A", "Same", "same", "SAME"}, []string{"x", "x-same", "x-same-2", "x-same-3"}},
		{long, []string{"A", "LongPortType", "LongPortType"}, []string{long, long + "-lo", long + "-2"}},
	}
	for _, tt := range tests {
		got := ServiceKeys(tt.first, tt.portTypes)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ServiceKeys(%q, %v) (-want +got):\n%s", tt.first, tt.portTypes, diff)
		}
		for _, k := range got {
			if len(k) > 63 {
				t.Errorf("key %q longer than 63", k)
			}
		}
	}
}

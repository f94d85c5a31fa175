package interop

import (
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Namespaces of the elements whose attributes reference other documents
// or the service address.
const (
	nsWSDL11     = "http://schemas.xmlsoap.org/wsdl/"
	nsWSDLSOAP11 = "http://schemas.xmlsoap.org/wsdl/soap/"
	nsWSDLSOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/"
	nsXSD        = "http://www.w3.org/2001/XMLSchema"
)

// wsdlCrawl is what following the references of a served WSDL found.
type wsdlCrawl struct {
	docs      []string // served documents fetched, the root first
	addresses int      // soap:address and soap12:address locations seen
	external  []string // absolute locations outside s2r, left as written
	problems  []string
}

// crawlServedWSDL fetches the WSDL that s2r serves for the service at
// service (its public URL) and, transitively, every document a
// wsdl:import location or xs:import/include/redefine schemaLocation
// names. Each must answer 200 with well-formed XML; each reference must
// name a document under service+"/wsdl/" (an absolute URL the import did
// not hold, such as a well-known schema, stays as written and is listed
// in external); each soap:address and soap12:address must be service.
func crawlServedWSDL(client *http.Client, service string) wsdlCrawl {
	var c wsdlCrawl
	queue := []string{service + "?wsdl"}
	seen := map[string]bool{queue[0]: true}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		c.docs = append(c.docs, u)
		refs, err := fetchReferences(client, u)
		if err != nil {
			c.problems = append(c.problems, err.Error())
			continue
		}
		for _, ref := range refs {
			switch {
			case ref.address:
				c.addresses++
				if ref.location != service {
					c.problems = append(c.problems, fmt.Sprintf("%s: %s location %q, want %q", u, ref.element, ref.location, service))
				}
			case ref.location == "":
			case strings.HasPrefix(ref.location, service+"/wsdl/"):
				if !seen[ref.location] {
					seen[ref.location] = true
					queue = append(queue, ref.location)
				}
			case isExternalURL(ref.location, service):
				c.external = append(c.external, ref.location)
			default:
				c.problems = append(c.problems, fmt.Sprintf("%s: %s location %q is not a document of the service", u, ref.element, ref.location))
			}
		}
	}
	return c
}

// isExternalURL tells an absolute http(s) URL of another host than the
// service's.
func isExternalURL(loc, service string) bool {
	l := strings.ToLower(loc)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
		return false
	}
	host := func(s string) string {
		_, rest, _ := strings.Cut(s, "://")
		h, _, _ := strings.Cut(rest, "/")
		return strings.ToLower(h)
	}
	return host(loc) != host(service)
}

// servedRef is one reference of a served document.
type servedRef struct {
	element  string // prefix-free element name, e.g. "xsd:import"
	location string
	address  bool
}

// fetchReferences GETs a served document, checks it is 200 and
// well-formed XML, and returns its references.
func fetchReferences(client *http.Client, u string) ([]servedRef, error) {
	resp, err := client.Get(u)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %v", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s = %d: %.300s", u, resp.StatusCode, body)
	}
	dec := xml.NewDecoder(strings.NewReader(string(body)))
	dec.CharsetReader = latin1Reader
	var refs []servedRef
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return refs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("GET %s: not well-formed XML: %v", u, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		var ref servedRef
		switch n := se.Name; {
		case n.Local == "address" && (n.Space == nsWSDLSOAP11 || n.Space == nsWSDLSOAP12):
			ref = servedRef{element: "soap:address", location: attr(se, "location"), address: true}
			if n.Space == nsWSDLSOAP12 {
				ref.element = "soap12:address"
			}
		case n.Local == "import" && n.Space == nsWSDL11:
			ref = servedRef{element: "wsdl:import", location: attr(se, "location")}
		case n.Space == nsXSD && (n.Local == "import" || n.Local == "include" || n.Local == "redefine"):
			ref = servedRef{element: "xsd:" + n.Local, location: attr(se, "schemaLocation")}
		default:
			continue
		}
		refs = append(refs, ref)
	}
}

func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// latin1Reader decodes ISO-8859-1 for encoding/xml, which reads only
// UTF-8 itself.
func latin1Reader(charset string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "iso-8859-1", "latin1", "iso_8859-1", "latin-1":
	default:
		return nil, fmt.Errorf("unsupported charset %q", charset)
	}
	b, err := io.ReadAll(in)
	if err != nil {
		return nil, err
	}
	runes := make([]rune, len(b))
	for i, c := range b {
		runes[i] = rune(c)
	}
	return strings.NewReader(string(runes)), nil
}

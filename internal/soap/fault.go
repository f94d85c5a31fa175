package soap

import (
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Version-neutral fault classes: the SOAP 1.2 code names. Client and Server
// (SOAP 1.1) map to Sender and Receiver.
const (
	Sender              = "Sender"
	Receiver            = "Receiver"
	VersionMismatch     = "VersionMismatch"
	MustUnderstand      = "MustUnderstand"
	DataEncodingUnknown = "DataEncodingUnknown"
)

// Fault is a SOAP fault of either version.
type Fault struct {
	// Code is the fault code as written: faultcode (1.1) or Code/Value
	// (1.2). For writing, a Code with an empty Space and a class name
	// (Sender, Client, Receiver, Server, …) becomes the right QName of the
	// target version.
	Code xmlstream.Name
	// Subcodes are the 1.2 Subcode values, outermost first. In 1.1 they are
	// read from and written as the dotted parts of faultcode
	// ("Client.Auth").
	Subcodes []xmlstream.Name
	Reason   string // faultstring, Reason/Text
	Lang     string // xml:lang of the reason (1.2)
	Node     string // 1.2 Node
	Role     string // 1.2 Role, 1.1 faultactor
	Detail   []byte // the children of detail/Detail as raw, self-contained XML
}

// Class is the version-neutral class of the fault code: Sender, Receiver,
// VersionMismatch, MustUnderstand, DataEncodingUnknown, or "" for a code
// outside the envelope namespaces.
func (f *Fault) Class() string {
	return codeClass(f.Code)
}

func codeClass(n xmlstream.Name) string {
	if n.Space != NS11 && n.Space != NS12 && n.Space != "" {
		return ""
	}
	switch n.Local {
	case "Client", Sender:
		return Sender
	case "Server", Receiver:
		return Receiver
	case VersionMismatch, MustUnderstand, DataEncodingUnknown:
		return n.Local
	}
	return ""
}

// CodeName is the fault code as the JSON fault shape names it: the
// version-neutral class, or the local name of a custom code.
func (f *Fault) CodeName() string {
	if c := f.Class(); c != "" {
		return c
	}
	return f.Code.Local
}

// SubcodeNames are the local names of the subcodes, outermost first: the
// 1.2 Subcode chain, or the dotted parts of a 1.1 faultcode. nil when the
// fault has none.
func (f *Fault) SubcodeNames() []string {
	if len(f.Subcodes) == 0 {
		return nil
	}
	names := make([]string, len(f.Subcodes))
	for i, s := range f.Subcodes {
		names[i] = s.Local
	}
	return names
}

// Error makes a Fault usable as an error.
func (f *Fault) Error() string {
	return "soap fault " + f.CodeName() + ": " + f.Reason
}

// WriteFault writes the fault as body content in the given version.
func WriteFault(w *xmlstream.Writer, v Version, f *Fault) {
	if v == V12 {
		writeFault12(w, f)
		return
	}
	writeFault11(w, f)
}

// codeQName returns the text of the code in version v, declaring the
// namespace of a custom code on the open element when needed.
func codeQName(w *xmlstream.Writer, v Version, n xmlstream.Name, class string, pre string) string {
	if class != "" {
		local := class
		if v == V11 {
			switch class {
			case Sender:
				local = "Client"
			case Receiver:
				local = "Server"
			}
		}
		return pre + ":" + local
	}
	if n.Space == "" {
		return n.Local
	}
	w.NSDecl("fc", n.Space)
	return "fc:" + n.Local
}

func writeFault11(w *xmlstream.Writer, f *Fault) {
	pre := V11.prefix()
	w.Start(pre, "Fault")
	w.Start("", "faultcode")
	code := codeQName(w, V11, f.Code, f.Class(), pre)
	if f.Class() == "" && f.Code.Local == "" {
		code = pre + ":Server"
	}
	var b strings.Builder
	b.WriteString(code)
	for _, s := range f.Subcodes {
		b.WriteByte('.')
		b.WriteString(s.Local)
	}
	w.Text(b.String())
	w.End("", "faultcode")
	simple(w, "", "faultstring", f.Reason)
	if f.Role != "" {
		simple(w, "", "faultactor", f.Role)
	}
	if len(f.Detail) > 0 {
		w.Start("", "detail")
		w.Raw(f.Detail)
		w.End("", "detail")
	}
	w.End(pre, "Fault")
}

func writeFault12(w *xmlstream.Writer, f *Fault) {
	pre := V12.prefix()
	class, subs := f.Class(), f.Subcodes
	if class == "" {
		// 1.2 allows only the five codes as Value: a custom code becomes
		// the first subcode of Receiver (Sender when it has no name).
		class = Receiver
		if f.Code.Local != "" {
			subs = append([]xmlstream.Name{f.Code}, subs...)
		}
	}
	w.Start(pre, "Fault")
	w.Start(pre, "Code")
	simple(w, pre, "Value", pre+":"+class)
	for i, s := range subs {
		w.Start(pre, "Subcode")
		w.Start(pre, "Value")
		if s.Space != "" {
			w.NSDecl("sc"+itoa(i), s.Space)
			w.Text("sc" + itoa(i) + ":" + s.Local)
		} else {
			w.Text(s.Local)
		}
		w.End(pre, "Value")
	}
	for range subs {
		w.End(pre, "Subcode")
	}
	w.End(pre, "Code")
	w.Start(pre, "Reason")
	w.Start(pre, "Text")
	lang := f.Lang
	if lang == "" {
		lang = "en"
	}
	w.Attr("xml", "lang", lang)
	w.Text(f.Reason)
	w.End(pre, "Text")
	w.End(pre, "Reason")
	if f.Node != "" {
		simple(w, pre, "Node", f.Node)
	}
	if f.Role != "" {
		simple(w, pre, "Role", f.Role)
	}
	if len(f.Detail) > 0 {
		w.Start(pre, "Detail")
		w.Raw(f.Detail)
		w.End(pre, "Detail")
	}
	w.End(pre, "Fault")
}

func simple(w *xmlstream.Writer, pre, local, text string) {
	w.Start(pre, local)
	w.Text(text)
	w.End(pre, local)
}

// WriteFaultEnvelope writes a whole envelope holding only the fault.
func WriteFaultEnvelope(w *xmlstream.Writer, v Version, f *Fault) error {
	return Write(w, Envelope{Version: v}, func(w *xmlstream.Writer) error {
		WriteFault(w, v, f)
		return nil
	})
}

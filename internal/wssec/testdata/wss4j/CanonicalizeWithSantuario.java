// CanonicalizeWithSantuario prints the exclusive canonical form (without
// comments) of every element of each document file, in document order,
// one line per element: base64 of the bytes.
// Usage: java CanonicalizeWithSantuario PREFIXLIST FILE...
// PREFIXLIST is the InclusiveNamespaces PrefixList ("-" for none).

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Base64;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.xml.security.c14n.Canonicalizer;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

public class CanonicalizeWithSantuario {
    public static void main(String[] args) throws Exception {
        org.apache.xml.security.Init.init();
        String prefixes = args[0].equals("-") ? null : args[0];
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setNamespaceAware(true);
        for (int f = 1; f < args.length; f++) {
            Document doc = dbf.newDocumentBuilder().parse(Files.newInputStream(Paths.get(args[f])));
            NodeList all = doc.getElementsByTagNameNS("*", "*");
            for (int i = 0; i < all.getLength(); i++) {
                Canonicalizer c = Canonicalizer.getInstance(Canonicalizer.ALGO_ID_C14N_EXCL_OMIT_COMMENTS);
                System.out.println(Base64.getEncoder().encodeToString(c.canonicalizeSubtree(all.item(i), prefixes)));
            }
        }
    }
}

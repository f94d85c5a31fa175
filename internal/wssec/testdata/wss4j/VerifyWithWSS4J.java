// VerifyWithWSS4J processes the wsse:Security header of each envelope file
// with Apache WSS4J 1.6 and prints one line per file: "OK <actions>" when
// the header verified and held a signature, "FAIL <reason>" otherwise.
// Usage: java VerifyWithWSS4J CERT.pem PASSWORD ENVELOPE...
// The certificate is the only trusted one; PASSWORD is every user's.

import java.io.FileInputStream;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.ws.security.WSConstants;
import org.apache.ws.security.WSPasswordCallback;
import org.apache.ws.security.WSSecurityEngine;
import org.apache.ws.security.WSSecurityEngineResult;
import org.apache.ws.security.components.crypto.Merlin;
import org.w3c.dom.Document;

public class VerifyWithWSS4J {
    public static void main(String[] args) throws Exception {
        org.apache.xml.security.Init.init();
        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        X509Certificate cert;
        try (FileInputStream in = new FileInputStream(args[0])) {
            cert = (X509Certificate) cf.generateCertificate(in);
        }
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        ks.setCertificateEntry("signer", cert);
        Merlin crypto = new Merlin();
        crypto.setKeyStore(ks);
        crypto.setTrustStore(ks);
        final String password = args[1];
        CallbackHandler handler = (Callback[] callbacks) -> {
            for (Callback c : callbacks) {
                if (c instanceof WSPasswordCallback) {
                    ((WSPasswordCallback) c).setPassword(password);
                }
            }
        };
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setNamespaceAware(true);
        WSSecurityEngine engine = new WSSecurityEngine();
        for (int i = 2; i < args.length; i++) {
            try {
                Document doc = dbf.newDocumentBuilder().parse(args[i]);
                List<WSSecurityEngineResult> results = engine.processSecurityHeader(doc, null, handler, crypto);
                StringBuilder actions = new StringBuilder();
                boolean signed = false;
                for (WSSecurityEngineResult r : results) {
                    int action = (Integer) r.get(WSSecurityEngineResult.TAG_ACTION);
                    signed |= action == WSConstants.SIGN;
                    actions.append(' ').append(action);
                }
                System.out.println(signed ? "OK" + actions : "FAIL no signature");
            } catch (Exception e) {
                System.out.println("FAIL " + String.valueOf(e.getMessage()).replace('\n', ' '));
            }
        }
    }
}

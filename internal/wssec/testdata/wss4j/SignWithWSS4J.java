// SignWithWSS4J signs a SOAP envelope with Apache WSS4J 1.6 in several
// ways and prints one line per result: "name<TAB>base64(envelope)".
// Usage: java SignWithWSS4J CERT.pem KEY-PKCS8.pem ENVELOPE
// Every result has a Timestamp and a signature over the Body and the
// Timestamp; the UsernameToken (svc-user, "secret") is digest or text.

import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.apache.ws.security.WSConstants;
import org.apache.ws.security.WSEncryptionPart;
import org.apache.ws.security.components.crypto.Merlin;
import org.apache.ws.security.message.WSSecHeader;
import org.apache.ws.security.message.WSSecSignature;
import org.apache.ws.security.message.WSSecTimestamp;
import org.apache.ws.security.message.WSSecUsernameToken;
import org.w3c.dom.Document;

public class SignWithWSS4J {
    public static void main(String[] args) throws Exception {
        org.apache.xml.security.Init.init();
        X509Certificate cert;
        try (FileInputStream in = new FileInputStream(args[0])) {
            cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        String pem = new String(Files.readAllBytes(Paths.get(args[1])), "US-ASCII");
        String b64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(b64)));
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        ks.setKeyEntry("signer", key, "pass".toCharArray(), new Certificate[] {cert});
        Merlin crypto = new Merlin();
        crypto.setKeyStore(ks);
        crypto.setTrustStore(ks);

        String sha256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
        String digest256 = "http://www.w3.org/2001/04/xmlenc#sha256";
        sign("bst-sha1-digest", args[2], crypto, WSConstants.BST_DIRECT_REFERENCE, WSConstants.RSA_SHA1, WSConstants.SHA1, WSConstants.PASSWORD_DIGEST);
        sign("issuer-serial-sha256-text", args[2], crypto, WSConstants.ISSUER_SERIAL, sha256, digest256, WSConstants.PASSWORD_TEXT);
        sign("ski-sha256", args[2], crypto, WSConstants.SKI_KEY_IDENTIFIER, sha256, digest256, null);
        sign("x509-key-identifier-sha1", args[2], crypto, WSConstants.X509_KEY_IDENTIFIER, WSConstants.RSA_SHA1, WSConstants.SHA1, null);
    }

    static void sign(String name, String file, Merlin crypto, int keyId, String sigAlg, String digestAlg, String pwType) throws Exception {
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setNamespaceAware(true);
        Document doc = dbf.newDocumentBuilder().parse(file);
        WSSecHeader header = new WSSecHeader();
        header.setMustUnderstand(true);
        header.insertSecurityHeader(doc);
        WSSecTimestamp ts = new WSSecTimestamp();
        ts.setTimeToLive(300);
        ts.build(doc, header);
        if (pwType != null) {
            WSSecUsernameToken ut = new WSSecUsernameToken();
            ut.setPasswordType(pwType);
            ut.setUserInfo("svc-user", "secret");
            if (WSConstants.PASSWORD_DIGEST.equals(pwType)) {
                ut.addNonce();
                ut.addCreated();
            }
            ut.build(doc, header);
        }
        WSSecSignature sig = new WSSecSignature();
        sig.setUserInfo("signer", "pass");
        sig.setKeyIdentifierType(keyId);
        sig.setSignatureAlgorithm(sigAlg);
        sig.setDigestAlgo(digestAlg);
        String soapNS = doc.getDocumentElement().getNamespaceURI();
        List<WSEncryptionPart> parts = new ArrayList<>();
        parts.add(new WSEncryptionPart("Body", soapNS, ""));
        parts.add(new WSEncryptionPart("Timestamp", WSConstants.WSU_NS, ""));
        sig.setParts(parts);
        sig.build(doc, crypto, header);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TransformerFactory.newInstance().newTransformer().transform(new DOMSource(doc), new StreamResult(out));
        System.out.println(name + "\t" + Base64.getEncoder().encodeToString(out.toByteArray()));
    }
}

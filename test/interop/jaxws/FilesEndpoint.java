import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import javax.jws.WebMethod;
import javax.jws.WebService;
import javax.xml.bind.annotation.XmlAccessType;
import javax.xml.bind.annotation.XmlAccessorType;
import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlRootElement;
import javax.xml.bind.annotation.XmlType;
import javax.xml.ws.Endpoint;
import javax.xml.ws.RequestWrapper;
import javax.xml.ws.ResponseWrapper;
import javax.xml.ws.soap.MTOM;

/**
 * FilesEndpoint is a JAX-WS RI endpoint with MTOM on: getFile(size)
 * answers size bytes, byte i being (i*7+3) mod 251, as an XOP attachment.
 * main serves it at http://127.0.0.1:PORT/files on a free loopback port
 * and prints "PORT=<n>" once it listens.
 */
@MTOM(threshold = 0)
@WebService(serviceName = "FilesService", portName = "FilesPort", targetNamespace = FilesEndpoint.NS)
public class FilesEndpoint {
    static final String NS = "urn:s2r:interop:files";

    /** getFile returns size bytes of the known pattern. */
    @WebMethod
    @RequestWrapper(localName = "getFile", targetNamespace = NS, className = "FilesEndpoint$GetFile")
    @ResponseWrapper(localName = "getFileResponse", targetNamespace = NS, className = "FilesEndpoint$GetFileResponse")
    public byte[] getFile(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) ((i * 7 + 3) % 251);
        }
        return b;
    }

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        Endpoint.create(new FilesEndpoint()).publish(server.createContext("/files"));
        server.start();
        System.out.println("PORT=" + server.getAddress().getPort());
        System.out.flush();
    }

    /**
     * GetFile is the request wrapper, written out because Debian's RI
     * cannot generate wrappers at run time (its repackaged ASM is absent).
     */
    @XmlRootElement(name = "getFile", namespace = NS)
    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlType(name = "getFile", namespace = NS)
    public static class GetFile {
        @XmlElement(name = "arg0")
        public int arg0;
    }

    /** GetFileResponse is the response wrapper. */
    @XmlRootElement(name = "getFileResponse", namespace = NS)
    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlType(name = "getFileResponse", namespace = NS)
    public static class GetFileResponse {
        @XmlElement(name = "return")
        public byte[] _return;
    }
}

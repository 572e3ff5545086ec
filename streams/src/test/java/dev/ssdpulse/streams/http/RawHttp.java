package dev.ssdpulse.streams.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A bare HTTP/1.1 client on a socket, so tests can send what java.net.http refuses to build (any method, a
 * request target that is not a valid URI). Reads the status line and headers, then the body (Content-Length,
 * or until the server closes), except for event streams, which it leaves after the headers. Every read has
 * a timeout: a server that does not answer fails the test instead of hanging it.
 */
final class RawHttp {
    static final int TIMEOUT_MS = 10_000;

    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        boolean isJson() {
            return header("content-type") != null && header("content-type").startsWith("application/json");
        }
    }

    private RawHttp() {}

    static Response send(int port, String method, String target, String... headerLines) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MS);
            socket.setSoTimeout(TIMEOUT_MS);
            StringBuilder req = new StringBuilder(method)
                    .append(' ')
                    .append(target)
                    .append(" HTTP/1.1\r\n")
                    .append("Host: 127.0.0.1:")
                    .append(port)
                    .append("\r\nConnection: close\r\n");
            for (String h : headerLines) {
                req.append(h).append("\r\n");
            }
            req.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            String head = readHead(in);
            String[] lines = head.split("\r\n");
            String[] statusLine = lines[0].split(" ", 3);
            int status = Integer.parseInt(statusLine[1]);
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.put(
                            lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            lines[i].substring(colon + 1).trim());
                }
            }
            String type = headers.getOrDefault("content-type", "");
            if (method.equals("HEAD") || type.startsWith("text/event-stream") || status == 204 || status == 304) {
                return new Response(status, headers, "");
            }
            byte[] body;
            String length = headers.get("content-length");
            if (length != null) {
                body = in.readNBytes(Integer.parseInt(length));
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                body = readChunked(in);
            } else {
                body = in.readAllBytes();
            }
            return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer within " + TIMEOUT_MS + " ms to " + method + " " + target, e);
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + target + ": " + e, e);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before the end of the response head: "
                        + buf.toString(StandardCharsets.ISO_8859_1));
            }
            buf.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String s = buf.toString(StandardCharsets.ISO_8859_1);
        return s.substring(0, s.length() - 4);
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            StringBuilder line = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0 && b != '\n') {
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            int size = Integer.parseInt(line.toString().split(";")[0].trim(), 16);
            if (size == 0) {
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            in.read();
            in.read();
        }
    }
}

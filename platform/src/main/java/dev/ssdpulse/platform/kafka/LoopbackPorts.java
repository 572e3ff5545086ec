package dev.ssdpulse.platform.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Free-port discovery and reachability probes on 127.0.0.1. */
public final class LoopbackPorts {
    private LoopbackPorts() {}

    /**
     * A port that was free a moment ago. Another process may take it before the caller binds it;
     * on a test machine that race is rare enough and shows up as a clear bind error in the broker log.
     */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
        }
    }

    /** True when nothing listens on the port and it can be bound now. */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** True when something accepts TCP connections on the port. */
    public static boolean accepts(int port, int timeoutMs) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMs);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

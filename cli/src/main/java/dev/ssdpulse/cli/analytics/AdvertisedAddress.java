package dev.ssdpulse.cli.analytics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;

/**
 * The address an analytics instance gives the others of its application (Kafka Streams' {@code application.server}),
 * so that they forward requests for the runs it owns to its HTTP API. Given by the user, else derived from the API's
 * bind address when that names one address of this host (the default 127.0.0.1: instances on one host; a LAN
 * address: instances on several), else none: an API bound to every address (0.0.0.0, ::) does not say which one the
 * others reach.
 *
 * @param hostPort  "host:port", or null when there is none
 * @param httpPort  the port the HTTP API is to bind (a free one chosen up front when 0 was asked and one is derived)
 * @param derived   true when derived from the bind address, false when the user set it
 * @param why       for no address: why none could be derived and what to set
 */
public record AdvertisedAddress(String hostPort, int httpPort, boolean derived, String why) {

    /**
     * @param configured the user's application.server, or null
     * @param bind       --http-bind
     * @param port       --http-port (0 = any free port; below 0 = no HTTP API)
     */
    public static AdvertisedAddress of(String configured, String bind, int port) {
        if (configured != null && !configured.isBlank()) {
            return new AdvertisedAddress(configured.trim(), port, false, null);
        }
        if (port < 0) {
            return new AdvertisedAddress(
                    null, port, false, "no HTTP API (--http-port -1): other instances cannot forward to this one");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            return new AdvertisedAddress(null, port, false, "--http-bind " + bind + " does not resolve");
        }
        if (address.isAnyLocalAddress()) {
            return new AdvertisedAddress(
                    null,
                    port,
                    false,
                    "the HTTP API listens on every address (--http-bind " + bind + "), which does not say which one"
                            + " other instances reach: set -X application.server=HOST:PORT so that several instances"
                            + " forward requests to each other");
        }
        int chosen = port == 0 ? freePort(address) : port;
        String host = address.getHostAddress();
        return new AdvertisedAddress((host.contains(":") ? "[" + host + "]" : host) + ":" + chosen, chosen, true, null);
    }

    private static int freePort(InetAddress address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, 0), 1);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + address.getHostAddress(), e);
        }
    }

    /** The line {@code streams} prints about it. */
    public String describe() {
        if (hostPort == null) {
            return "advertised to other instances: none; " + why;
        }
        return "advertised to other instances as " + hostPort + " (application.server"
                + (derived ? ", derived from --http-bind and --http-port" : "") + ")";
    }
}

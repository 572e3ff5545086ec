package dev.ssdpulse.streams.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** The dashboard's files, read from the jar (classpath folder dashboard/). Only flat, plain file names. */
final class StaticResources {
    private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*");
    private static final Map<String, String> TYPES = Map.of(
            "html",
            "text/html; charset=utf-8",
            "js",
            "text/javascript; charset=utf-8",
            "css",
            "text/css; charset=utf-8",
            "md",
            "text/markdown; charset=utf-8",
            "yaml",
            "application/yaml; charset=utf-8",
            "svg",
            "image/svg+xml",
            "png",
            "image/png",
            "ico",
            "image/x-icon");

    record Resource(byte[] bytes, String contentType) {}

    private StaticResources() {}

    /** "/" is index.html; anything else must be "/<safe name>.<known extension>". */
    static Optional<Resource> lookup(String path) {
        String name = path.equals("/") ? "index.html" : path.substring(1);
        int dot = name.lastIndexOf('.');
        if (!SAFE_NAME.matcher(name).matches() || dot < 0 || !TYPES.containsKey(name.substring(dot + 1))) {
            return Optional.empty();
        }
        try (InputStream in = StaticResources.class.getClassLoader().getResourceAsStream("dashboard/" + name)) {
            if (in == null) {
                return Optional.empty();
            }
            return Optional.of(new Resource(in.readAllBytes(), TYPES.get(name.substring(dot + 1))));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read dashboard/" + name + " from the classpath", e);
        }
    }
}

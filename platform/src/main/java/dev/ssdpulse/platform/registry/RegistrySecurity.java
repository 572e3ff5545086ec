package dev.ssdpulse.platform.registry;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * HTTPS and HTTP basic auth for the embedded registry: every request needs a known user (401 otherwise), and
 * requests that change the registry (register a schema, change a compatibility level, delete) need a user allowed to
 * write (403 otherwise). Reads, lookups and compatibility checks are open to every known user.
 *
 * @param keystore      PKCS12 with the server key and chain
 * @param storePassword its password (and the key's)
 * @param users         user name to password
 * @param writers       the users allowed to change the registry
 */
public record RegistrySecurity(Path keystore, String storePassword, Map<String, String> users, Set<String> writers) {
    public RegistrySecurity {
        Objects.requireNonNull(keystore, "keystore");
        users = Map.copyOf(users);
        writers = Set.copyOf(writers);
        if (!users.keySet().containsAll(writers)) {
            throw new IllegalArgumentException("writers " + writers + " must all be users " + users.keySet());
        }
    }

    /** What a request's Authorization header proves: the user it names, if the password is right. */
    Optional<String> authenticate(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        String decoded;
        try {
            decoded = new String(
                    Base64.getDecoder().decode(authorizationHeader.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        String user = decoded.substring(0, colon);
        String expected = users.get(user);
        // constant-time comparison: the answer's timing does not tell how much of a guess was right
        if (expected == null
                || !MessageDigest.isEqual(
                        expected.getBytes(StandardCharsets.UTF_8),
                        decoded.substring(colon + 1).getBytes(StandardCharsets.UTF_8))) {
            return Optional.empty();
        }
        return Optional.of(user);
    }

    /** Whether a request changes the registry: schema registration, config changes, deletions. */
    static boolean isWrite(String method, String path) {
        return switch (method) {
            case "GET", "HEAD", "OPTIONS" -> false;
            // POST /subjects/{s} (is this schema registered?) and POST /compatibility/... only read
            case "POST" -> path.matches("/subjects/[^/]+/versions/?");
            default -> true;
        };
    }

    @Override
    public String toString() {
        return "RegistrySecurity[users " + users.keySet() + ", writers " + writers + ", passwords hidden]";
    }
}

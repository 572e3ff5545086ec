package dev.ssdpulse.streams.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * The configured API token, compared in constant time: both sides are hashed with SHA-256 first, so the
 * comparison always runs over 32 bytes and its time reveals neither the token's content nor its length.
 */
final class BearerToken {
    private final byte[] expectedDigest;

    BearerToken(String token) {
        Objects.requireNonNull(token, "token");
        this.expectedDigest = sha256(token);
    }

    boolean matches(String given) {
        // a null is hashed like any other value so that a missing token costs the same as a wrong one
        byte[] digest = sha256(given == null ? "" : given);
        return MessageDigest.isEqual(digest, expectedDigest) && given != null;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}

package dev.ssdpulse.platform.registry;

import dev.ssdpulse.schemas.registry.CompatibilityLevel;
import java.util.List;
import java.util.Locale;

/**
 * An error answered to a client with Confluent Schema Registry's HTTP status and error code, so
 * clients written for Confluent's registry handle it the same way.
 */
public final class RegistryException extends RuntimeException {
    private final int httpStatus;
    private final int errorCode;

    public RegistryException(int httpStatus, int errorCode, String message) {
        super(message);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    public RegistryException(int httpStatus, int errorCode, String message, Throwable cause) {
        super(message, cause);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public int errorCode() {
        return errorCode;
    }

    static RegistryException subjectNotFound(String subject) {
        return new RegistryException(404, 40401, "Subject '" + subject + "' not found.");
    }

    static RegistryException versionNotFound(int version) {
        return new RegistryException(404, 40402, "Version " + version + " not found.");
    }

    static RegistryException schemaIdNotFound(int id) {
        return new RegistryException(404, 40403, "Schema " + id + " not found");
    }

    static RegistryException schemaNotFound() {
        return new RegistryException(404, 40403, "Schema not found");
    }

    static RegistryException subjectLevelConfigNotFound(String subject) {
        return new RegistryException(
                404, 40408, "Subject '" + subject + "' does not have subject-level compatibility configured");
    }

    static RegistryException incompatible(String subject, List<String> messages) {
        return new RegistryException(
                409,
                409,
                "Schema being registered is incompatible with an earlier schema for subject \"" + subject
                        + "\", details: " + messages);
    }

    static RegistryException invalidSchema(String detail) {
        return new RegistryException(422, 42201, "Invalid schema: " + detail);
    }

    static RegistryException invalidVersion(String version) {
        return new RegistryException(
                422,
                42202,
                "The specified version '" + version
                        + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }

    /** A level from a request or a stored record; unknown names are a 422 with error code 42203. */
    static CompatibilityLevel compatibilityLevel(String text) {
        if (text == null) {
            throw invalidCompatibilityLevel("null");
        }
        try {
            return CompatibilityLevel.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw invalidCompatibilityLevel(text);
        }
    }

    static RegistryException invalidCompatibilityLevel(String level) {
        return new RegistryException(
                422,
                42203,
                "Invalid compatibility level '" + level
                        + "'. Valid values are none, backward, forward, full, backward_transitive, forward_transitive, and full_transitive");
    }

    static RegistryException storeError(String detail, Throwable cause) {
        return new RegistryException(500, 50001, "Error in the backend data store: " + detail, cause);
    }
}

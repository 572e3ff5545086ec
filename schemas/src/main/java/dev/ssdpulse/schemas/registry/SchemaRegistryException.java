package dev.ssdpulse.schemas.registry;

import java.util.List;

/**
 * An error of a Confluent-API schema registry: its HTTP status, Confluent's error code and the registry's message.
 * The one error model of both sides: the client raises it for an error answer (or, with {@link #NO_HTTP_STATUS},
 * when no registry answered), and the embedded registry answers with it, so clients written for Confluent's
 * registry handle the embedded one's errors the same way. The factories word their messages as Confluent's
 * registry does.
 */
public class SchemaRegistryException extends RuntimeException {
    /** Bad request: the body is missing, not JSON, or not a JSON object (HTTP 400; the status as code). */
    public static final int BAD_REQUEST = 400;
    /** No user, unknown user or wrong password (HTTP 401). */
    public static final int UNAUTHORIZED = 40101;
    /** The user may not do this (HTTP 403). */
    public static final int FORBIDDEN = 40301;
    /** Subject not found (HTTP 404). */
    public static final int SUBJECT_NOT_FOUND = 40401;
    /** Version not found (HTTP 404). */
    public static final int VERSION_NOT_FOUND = 40402;
    /** Schema not found (HTTP 404). */
    public static final int SCHEMA_NOT_FOUND = 40403;
    /** Subject has no subject-level compatibility configured (HTTP 404). */
    public static final int SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED = 40408;
    /** Schema incompatible with an earlier version (HTTP 409; Confluent uses the status as code). */
    public static final int INCOMPATIBLE_SCHEMA = 409;
    /** Invalid schema (HTTP 422). */
    public static final int INVALID_SCHEMA = 42201;
    /** Invalid version (HTTP 422). */
    public static final int INVALID_VERSION = 42202;
    /** Invalid compatibility level (HTTP 422). */
    public static final int INVALID_COMPATIBILITY_LEVEL = 42203;
    /** Operation not permitted (HTTP 422). */
    public static final int OPERATION_NOT_PERMITTED = 42205;
    /** An error of the registry itself (HTTP 500; the status as code). */
    public static final int INTERNAL_SERVER_ERROR = 500;
    /** Error in the backend data store (HTTP 500). */
    public static final int BACKEND_STORE_ERROR = 50001;
    /** Operation timed out (HTTP 500). */
    public static final int OPERATION_TIMEOUT = 50002;
    /** Error forwarding the request to the leader (HTTP 500). */
    public static final int FORWARDING_ERROR = 50003;
    /** Status and error code when no registry answered (connection refused, timeout, ...). */
    public static final int NO_HTTP_STATUS = 0;
    /** Error code when the answer had no Confluent error code. */
    public static final int NO_ERROR_CODE = -1;

    private final int httpStatus;
    private final int errorCode;

    public SchemaRegistryException(int httpStatus, int errorCode, String message) {
        super(message);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    public SchemaRegistryException(int httpStatus, int errorCode, String message, Throwable cause) {
        super(message, cause);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    /** HTTP status of the answer, {@link #NO_HTTP_STATUS} when no registry answered. */
    public int httpStatus() {
        return httpStatus;
    }

    /** Confluent {@code error_code}, {@link #NO_ERROR_CODE} when absent. */
    public int errorCode() {
        return errorCode;
    }

    /** The registry's message alone (the {@code message} of its JSON answer), without status and code. */
    public String registryMessage() {
        return super.getMessage();
    }

    /** True for 404 answers (subject, version or schema not found). */
    public boolean isNotFound() {
        return httpStatus == 404;
    }

    @Override
    public String getMessage() {
        return super.getMessage() + " (HTTP " + httpStatus + ", error_code " + errorCode + ")";
    }

    public static SchemaRegistryException subjectNotFound(String subject) {
        return new SchemaRegistryException(404, SUBJECT_NOT_FOUND, "Subject '" + subject + "' not found.");
    }

    public static SchemaRegistryException versionNotFound(int version) {
        return new SchemaRegistryException(404, VERSION_NOT_FOUND, "Version " + version + " not found.");
    }

    public static SchemaRegistryException schemaIdNotFound(int id) {
        return new SchemaRegistryException(404, SCHEMA_NOT_FOUND, "Schema " + id + " not found");
    }

    /** A schema looked up under a subject that does not hold it. */
    public static SchemaRegistryException schemaNotFound() {
        return new SchemaRegistryException(404, SCHEMA_NOT_FOUND, "Schema not found");
    }

    public static SchemaRegistryException subjectLevelCompatibilityNotConfigured(String subject) {
        return new SchemaRegistryException(
                404,
                SUBJECT_LEVEL_COMPATIBILITY_NOT_CONFIGURED,
                "Subject '" + subject + "' does not have subject-level compatibility configured");
    }

    public static SchemaRegistryException incompatible(String subject, List<String> details) {
        return new SchemaRegistryException(
                409,
                INCOMPATIBLE_SCHEMA,
                "Schema being registered is incompatible with an earlier schema for subject \"" + subject
                        + "\", details: " + details);
    }

    public static SchemaRegistryException invalidSchema(String detail) {
        return new SchemaRegistryException(422, INVALID_SCHEMA, "Invalid schema: " + detail);
    }

    public static SchemaRegistryException invalidVersion(String version) {
        return new SchemaRegistryException(
                422,
                INVALID_VERSION,
                "The specified version '" + version + "' is not a valid version id. "
                        + "Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }

    public static SchemaRegistryException invalidCompatibilityLevel(String level) {
        return new SchemaRegistryException(
                422,
                INVALID_COMPATIBILITY_LEVEL,
                "Invalid compatibility level '" + level + "'. Valid values are none, backward, forward, full, "
                        + "backward_transitive, forward_transitive, and full_transitive");
    }

    public static SchemaRegistryException storeError(String detail, Throwable cause) {
        return new SchemaRegistryException(
                500, BACKEND_STORE_ERROR, "Error in the backend data store: " + detail, cause);
    }
}

package dev.ssdpulse.schemas.registry;

/**
 * An error answered by a schema registry, with Confluent's HTTP status and error code, or a failure to reach
 * any registry (status {@link #NO_HTTP_STATUS}).
 */
public class SchemaRegistryException extends RuntimeException {
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

    /** True for 404 answers (subject, version or schema not found). */
    public boolean isNotFound() {
        return httpStatus == 404;
    }

    @Override
    public String getMessage() {
        return super.getMessage() + " (HTTP " + httpStatus + ", error_code " + errorCode + ")";
    }

    static SchemaRegistryException subjectNotFound(String subject) {
        return new SchemaRegistryException(404, SUBJECT_NOT_FOUND, "Subject '" + subject + "' not found.");
    }

    static SchemaRegistryException versionNotFound(String subject, int version) {
        return new SchemaRegistryException(
                404, VERSION_NOT_FOUND, "Version " + version + " not found for subject '" + subject + "'.");
    }

    static SchemaRegistryException schemaIdNotFound(int id) {
        return new SchemaRegistryException(404, SCHEMA_NOT_FOUND, "Schema " + id + " not found");
    }

    static SchemaRegistryException schemaNotUnderSubject(String subject) {
        return new SchemaRegistryException(404, SCHEMA_NOT_FOUND, "Schema not found under subject '" + subject + "'");
    }

    static SchemaRegistryException incompatible(String subject, String details) {
        return new SchemaRegistryException(
                409,
                INCOMPATIBLE_SCHEMA,
                "Schema being registered is incompatible " + "with an earlier schema for subject \"" + subject
                        + "\", details: " + details);
    }

    static SchemaRegistryException invalidVersion(String version) {
        return new SchemaRegistryException(
                422,
                INVALID_VERSION,
                "The specified version '" + version
                        + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }
}

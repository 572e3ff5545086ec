package dev.ssdpulse.platform.registry;

/** Avro schemas used by the registry tests: v1, and evolutions of it. */
final class TestSchemas {
    private TestSchemas() {}

    static final String V1 = "{\"type\":\"record\",\"name\":\"Sample\",\"namespace\":\"t\",\"fields\":["
            + "{\"name\":\"runId\",\"type\":\"string\"}]}";
    /** V1 plus an optional field with a default: BACKWARD and FORWARD compatible with V1. */
    static final String V2_WITH_DEFAULT = "{\"type\":\"record\",\"name\":\"Sample\",\"namespace\":\"t\",\"fields\":["
            + "{\"name\":\"runId\",\"type\":\"string\"},{\"name\":\"sizeBytes\",\"type\":\"long\",\"default\":0}]}";
    /** V1 plus a field without default: new readers cannot read old data (BACKWARD-incompatible). */
    static final String V2_NO_DEFAULT = "{\"type\":\"record\",\"name\":\"Sample\",\"namespace\":\"t\",\"fields\":["
            + "{\"name\":\"runId\",\"type\":\"string\"},{\"name\":\"sizeBytes\",\"type\":\"long\"}]}";
    /** V1 without its field: old readers cannot read new data (FORWARD-incompatible), BACKWARD-compatible. */
    static final String V2_DROPPED = "{\"type\":\"record\",\"name\":\"Sample\",\"namespace\":\"t\",\"fields\":[]}";

    static final String OTHER = "{\"type\":\"record\",\"name\":\"Other\",\"namespace\":\"t\",\"fields\":["
            + "{\"name\":\"x\",\"type\":\"int\"}]}";
}

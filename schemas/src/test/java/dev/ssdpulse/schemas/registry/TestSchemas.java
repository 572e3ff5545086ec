package dev.ssdpulse.schemas.registry;

import org.apache.avro.Schema;

/** Small hand-written schemas for registry and evolution tests. */
public final class TestSchemas {
    private TestSchemas() {}

    public static final String V1_JSON = """
            {"type":"record","name":"Probe","namespace":"dev.ssdpulse.test","fields":[
              {"name":"runId","type":"string"},
              {"name":"latencyNs","type":"long"}]}""";

    /** V1 plus an optional field with a default: BACKWARD compatible with V1. */
    public static final String V2_JSON = """
            {"type":"record","name":"Probe","namespace":"dev.ssdpulse.test","fields":[
              {"name":"runId","type":"string"},
              {"name":"latencyNs","type":"long"},
              {"name":"queueDepth","type":["null","int"],"default":null}]}""";

    /** V1 plus a required field without default: not BACKWARD compatible with V1. */
    public static final String INCOMPATIBLE_JSON = """
            {"type":"record","name":"Probe","namespace":"dev.ssdpulse.test","fields":[
              {"name":"runId","type":"string"},
              {"name":"latencyNs","type":"long"},
              {"name":"sizeBytes","type":"int"}]}""";

    public static Schema v1() {
        return new Schema.Parser().parse(V1_JSON);
    }

    public static Schema v2() {
        return new Schema.Parser().parse(V2_JSON);
    }

    public static Schema incompatible() {
        return new Schema.Parser().parse(INCOMPATIBLE_JSON);
    }
}

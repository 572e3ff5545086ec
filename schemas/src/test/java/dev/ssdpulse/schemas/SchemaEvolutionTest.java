package dev.ssdpulse.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunDeleted;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import dev.ssdpulse.schemas.iobatch.IoBatchReader;
import dev.ssdpulse.schemas.iobatch.IoFlags;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.schemas.registry.AvroCompatibility;
import dev.ssdpulse.schemas.registry.CompatibilityLevel;
import dev.ssdpulse.schemas.runs.RunStartTime;
import dev.ssdpulse.schemas.serde.GeneratedSpecificData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How the record schemas changed, each change by the project's registry rules. The wall-clock fields moved to Avro's
 * timestamp logical types compatibly both ways (FULL, so old and new producers and consumers mixed on one topic);
 * the ns start of RunStarted was then retired by the registry's own rule, BACKWARD: every reader of the new schema
 * reads every record ever written, and consumers move to the new schema before producers do. The records as they
 * were before (kept in test resources) decode with the schemas as they are now.
 */
class SchemaEvolutionTest {
    private static final String HISTORY = "/schema-history/before-timestamps/";
    /** Before per-phase WA, the summary's unpublished-I/O count and fio's all-directions verdicts. */
    private static final String HISTORY_PHASE_WA = "/schema-history/before-phase-wa/";
    /** Before the REPLAY phase kind, the replay results of RunFinished and the phases' load time. */
    private static final String HISTORY_REPLAY = "/schema-history/before-replay/";
    /** Before the POWER_CUT phase kind. */
    private static final String HISTORY_POWER_CUT = "/schema-history/before-power-cut/";
    /** Before the device run's submit batch and CPU pinning were recorded in the host description. */
    private static final String HISTORY_IO_SETTINGS = "/schema-history/before-io-settings/";
    /** Before stamped writes (verify) and FUA writes had their columns in the I/O batch. */
    private static final String HISTORY_WRITE_STAMPS = "/schema-history/before-write-stamps/";
    /** RunStarted while it still wrote the ns start beside the timestamp. */
    private static final String HISTORY_RETIRED_NS = "/schema-history/before-retired-ns/";
    /** The largest integer a double (a JavaScript number) holds exactly. */
    private static final long MAX_SAFE_INTEGER = (1L << 53) - 1;
    /** Before SMART counters carried their source, unit and step, and WA its bounds. */
    private static final String HISTORY_COUNTER_RESOLUTION = "/schema-history/before-counter-resolution/";
    /**
     * Before heartbeats said how far a run is complete, runs belonged to groups, and a group's summary named its
     * members.
     */
    private static final String HISTORY_LIVE_GROUPS = "/schema-history/before-live-groups/";

    static Stream<Schema> changedRecords() {
        return Stream.of(RunFinished.SCHEMA$, RunHeartbeat.SCHEMA$, RunDeleted.SCHEMA$, ResultSetStarted.SCHEMA$);
    }

    @ParameterizedTest
    @MethodSource("changedRecords")
    void theNewSchemaIsFullyCompatibleWithTheOneBeforeIt(Schema now) throws IOException {
        Schema before = before(now, HISTORY);
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.FULL_TRANSITIVE, now, List.of(before)))
                .isEmpty();
    }

    @Test
    void runStartedWithTheTimestampWasFullyCompatibleWithTheOneBeforeIt() throws IOException {
        Schema withTimestamp = before(RunStarted.SCHEMA$, HISTORY_RETIRED_NS);
        Schema before = before(RunStarted.SCHEMA$, HISTORY);
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.FULL_TRANSITIVE, withTimestamp, List.of(before)))
                .isEmpty();
    }

    @Test
    void runStartedWithoutTheNsStartReadsEveryRecordEverWrittenButOldReadersCannotReadIt() throws IOException {
        List<Schema> earlier =
                List.of(before(RunStarted.SCHEMA$, HISTORY), before(RunStarted.SCHEMA$, HISTORY_RETIRED_NS));
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.BACKWARD_TRANSITIVE, RunStarted.SCHEMA$, earlier))
                .as("the registry's rule")
                .isEmpty();
        // the price of retiring a field without a default: a reader of the schema before cannot read a record written
        // now (its start is null there), so consumers upgrade before producers
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.FORWARD, RunStarted.SCHEMA$, List.of(earlier.get(1))))
                .isNotEmpty()
                .allSatisfy(problem -> assertThat(problem).startsWith("{FORWARD"));
    }

    @Test
    void aRunStartedWrittenNowHoldsNoIntegerBeyondWhatADoubleHoldsExactly() {
        RunStarted now = RunStartTime.stamp(
                        RunStarted.newBuilder(SampleRecords.runStarted())
                                .setWallClockStartEpochNs(1_796_137_200_123_456_789L),
                        Instant.parse("2026-12-01T15:00:00.123456789Z"))
                .build();
        assertThat(now.getWallClockStartEpochNs())
                .as("retired, also in a builder copied from an old record")
                .isNull();
        assertThat(now.getWallClockStart()).isEqualTo(Instant.parse("2026-12-01T15:00:00.123456Z"));
        assertThat(integersBeyondADouble(now, "RunStarted")).isEmpty();
    }

    @Test
    void aRunStartedWrittenWithTheNsStartBesideTheTimestampDecodesWithItsTimestamp() throws IOException {
        Schema before = before(RunStarted.SCHEMA$, HISTORY_RETIRED_NS);
        GenericRecord old = new GenericData.Record(before);
        RunStarted sample = SampleRecords.runStarted();
        for (Schema.Field f : before.getFields()) {
            if (!f.name().startsWith("wallClockStart")) {
                old.put(f.name(), GenericData.get().deepCopy(f.schema(), toGeneric(sample, f.name())));
            }
        }
        // as such a producer wrote them: the same start twice, in ns and in µs
        old.put("wallClockStartEpochNs", 1_796_137_200_123_456_789L);
        old.put("wallClockStart", 1_796_137_200_123_456L);

        RunStarted read = readAsNow(before, old);

        assertThat(read.getWallClockStartEpochNs()).isEqualTo(1_796_137_200_123_456_789L);
        assertThat(RunStartTime.of(read)).isEqualTo(Instant.parse("2026-12-01T15:00:00.123456Z"));
    }

    /** Paths of the integers in a record that a double could not hold exactly (a JavaScript reader refuses them). */
    private static List<String> integersBeyondADouble(Object value, String path) {
        List<String> found = new ArrayList<>();
        if (value instanceof IndexedRecord r) {
            for (Schema.Field f : r.getSchema().getFields()) {
                found.addAll(integersBeyondADouble(r.get(f.pos()), path + "." + f.name()));
            }
        } else if (value instanceof Collection<?> items) {
            items.forEach(item -> found.addAll(integersBeyondADouble(item, path + "[]")));
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> found.addAll(integersBeyondADouble(v, path + "." + k)));
        } else if (value instanceof Long l && Math.abs(l) > MAX_SAFE_INTEGER) {
            found.add(path);
        } else if (value instanceof Instant t && Math.abs(t.getEpochSecond()) > MAX_SAFE_INTEGER / 1_000_000L) {
            found.add(path);
        }
        return found;
    }

    private static RunStarted readAsNow(Schema writer, GenericRecord written) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        var encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new GenericDatumWriter<GenericRecord>(writer).write(written, encoder);
        encoder.flush();
        var data = new GeneratedSpecificData(RunStarted.class);
        return new SpecificDatumReader<RunStarted>(writer, RunStarted.SCHEMA$, data)
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
    }

    @Test
    void aRunStartedWrittenBeforeTheTimestampFieldDecodesWithItsStartFromTheDeprecatedField() throws IOException {
        RunStarted now = SampleRecords.runStarted();
        Schema before = before(RunStarted.SCHEMA$);
        // write the record as a producer on the old schema did: the old fields only
        GenericRecord old = new GenericData.Record(before);
        for (Schema.Field f : before.getFields()) {
            old.put(f.name(), GenericData.get().deepCopy(f.schema(), toGeneric(now, f.name())));
        }
        old.put("wallClockStartEpochNs", 1_796_010_480_123_456_789L);

        RunStarted read = readAsNow(before, old);

        assertThat(read.getWallClockStart()).isNull();
        assertThat(RunStartTime.of(read)).isEqualTo(Instant.parse("2026-11-30T03:48:00.123456789Z"));
    }

    private static Object toGeneric(SpecificRecord record, String field) {
        return record.get(record.getSchema().getField(field).pos());
    }

    /**
     * The record's schema before the change: the named types it uses come from the history where they changed
     * too (the ProducerKind enum), from the current schema where they did not.
     */
    private static Schema before(Schema now) throws IOException {
        return before(now, HISTORY);
    }

    static Stream<Schema> outputsChangedForPhaseWa() {
        return Stream.of(RunSummary.SCHEMA$, PhaseSummary.SCHEMA$, SteadyStateVerdict.SCHEMA$);
    }

    @ParameterizedTest
    @MethodSource("outputsChangedForPhaseWa")
    void theOutputsWithPhaseWaAreFullyCompatibleWithTheOnesBefore(Schema now) throws IOException {
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.FULL_TRANSITIVE, now, List.of(before(now, HISTORY_PHASE_WA))))
                .isEmpty();
    }

    @Test
    void theHostDescriptionWithTheDeviceIoSettingsIsFullyCompatibleWithTheOneBefore() throws IOException {
        // RunStarted embeds it, so RunStarted's compatibility follows from this one
        Schema now = HostDescription.SCHEMA$;
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.FULL_TRANSITIVE, now, List.of(before(now, HISTORY_IO_SETTINGS))))
                .isEmpty();
    }

    @Test
    void theIoBatchWithStampAndFlagColumnsIsFullyCompatibleWithTheOneBefore() throws IOException {
        Schema now = IoBatch.SCHEMA$;
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.FULL_TRANSITIVE, now, List.of(before(now, HISTORY_WRITE_STAMPS))))
                .isEmpty();
    }

    static Stream<Schema> changedForCounterResolution() {
        return Stream.of(SmartSample.SCHEMA$, WriteAmplification.SCHEMA$, PhaseSummary.SCHEMA$, RunSummary.SCHEMA$);
    }

    @ParameterizedTest
    @MethodSource("changedForCounterResolution")
    void theRecordsWithCounterSourcesAndWaBoundsAreFullyCompatibleWithTheOnesBefore(Schema now) throws IOException {
        // FULL_TRANSITIVE includes the registry's default, BACKWARD: new readers read every record written before
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.FULL_TRANSITIVE, now, List.of(before(now, HISTORY_COUNTER_RESOLUTION))))
                .isEmpty();
    }

    @Test
    void aBatchWrittenBeforeTheStampColumnsReadsWithoutThemAndAnOldReaderSkipsThem() throws IOException {
        Schema before = before(IoBatch.SCHEMA$, HISTORY_WRITE_STAMPS);
        var data = new GeneratedSpecificData(IoBatch.class);
        IoBatchBuilder builder = new IoBatchBuilder("run-old", 0, 2);
        builder.add(0, IoOpCode.WRITE, 4096, 4096, 10, 20, 1, 0, 41L, IoFlags.FUA);
        IoBatch stamped = builder.add(0, IoOpCode.READ, 0, 4096, 40, 20, 1, 0);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        var encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new SpecificDatumWriter<IoBatch>(IoBatch.SCHEMA$, data).write(stamped, encoder);
        encoder.flush();

        GenericRecord old = new GenericDatumReader<GenericRecord>(IoBatch.SCHEMA$, before)
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(old.getSchema().getField("writeSequence")).isNull();
        assertThat(old.get("offsetBytes").toString()).isEqualTo("[4096, 0]");

        ByteArrayOutputStream oldBytes = new ByteArrayOutputStream();
        var oldEncoder = EncoderFactory.get().binaryEncoder(oldBytes, null);
        new GenericDatumWriter<GenericRecord>(before).write(old, oldEncoder);
        oldEncoder.flush();
        IoBatch read = new SpecificDatumReader<IoBatch>(before, IoBatch.SCHEMA$, data)
                .read(null, DecoderFactory.get().binaryDecoder(oldBytes.toByteArray(), null));
        assertThat(read.getWriteSequence()).isNull();
        assertThat(read.getIoFlags()).isNull();
        IoBatchReader io = new IoBatchReader().reset(read);
        assertThat(io.next()).isTrue();
        assertThat(io.writeSequence()).isEqualTo(IoFlags.NO_SEQUENCE);
        assertThat(io.ioFlags()).isEqualTo(IoFlags.NONE);
        assertThat(stamped.getWriteSequence()).containsExactly(41L, IoFlags.NO_SEQUENCE);
        assertThat(stamped.getIoFlags()).containsExactly(IoFlags.FUA, IoFlags.NONE);
    }

    @Test
    void aSmartSampleWrittenBeforeTheCountersDecodesWithNoCountersAndNoWaBasis() throws IOException {
        Schema before = before(SmartSample.SCHEMA$, HISTORY_COUNTER_RESOLUTION);
        GenericRecord old = new GenericData.Record(before);
        SmartSample now = SampleRecords.smartSample();
        for (Schema.Field f : before.getFields()) {
            old.put(f.name(), GenericData.get().deepCopy(f.schema(), toGeneric(now, f.name())));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        var encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new GenericDatumWriter<GenericRecord>(before).write(old, encoder);
        encoder.flush();

        SmartSample read = new SpecificDatumReader<SmartSample>(
                        before, SmartSample.SCHEMA$, new GeneratedSpecificData(SmartSample.class))
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));

        assertThat(read.getNandBytesWritten()).isEqualTo(now.getNandBytesWritten());
        assertThat(read.getCounters()).isEmpty();
        assertThat(read.getWaUnit()).isNull();
        assertThat(read.getWaNote()).isNull();
    }

    static Stream<Schema> changedForLiveGroups() {
        return Stream.of(
                RunHeartbeat.SCHEMA$,
                IoStreamRecord.SCHEMA$,
                RunStarted.SCHEMA$,
                RunStatus.SCHEMA$,
                RunSummary.SCHEMA$);
    }

    @ParameterizedTest
    @MethodSource("changedForLiveGroups")
    void theRecordsWithCompletionWatermarksAndGroupsAreFullyCompatibleWithTheOnesBefore(Schema now) throws IOException {
        Schema before = now.getType() == Schema.Type.ENUM
                ? history(HISTORY_LIVE_GROUPS, now.getName(), new Schema.Parser())
                : before(now, HISTORY_LIVE_GROUPS);
        assertThat(AvroCompatibility.incompatibilities(CompatibilityLevel.FULL_TRANSITIVE, now, List.of(before)))
                .isEmpty();
    }

    @Test
    void aHeartbeatWrittenBeforeTheWatermarkDecodesWithoutOneAndAnOldReaderReadsPartialAsIncomplete()
            throws IOException {
        Schema before = before(RunHeartbeat.SCHEMA$, HISTORY_LIVE_GROUPS);
        GenericRecord old = new GenericData.Record(before);
        old.put("runId", "r1");
        old.put("timeNs", 5L);
        old.put("wallClockEpochMs", 1_796_010_480_123L);
        old.put("ioCompleted", 7L);
        old.put("ioPublished", 7L);
        old.put("ioNotPublished", 0L);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        var encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new GenericDatumWriter<GenericRecord>(before).write(old, encoder);
        encoder.flush();
        RunHeartbeat read = new SpecificDatumReader<RunHeartbeat>(
                        before, RunHeartbeat.SCHEMA$, new GeneratedSpecificData(RunHeartbeat.class))
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(read.getCompleteUpToNs()).isNull();
        assertThat(read.getMembership()).isNull();

        Schema oldStatus = history(HISTORY_LIVE_GROUPS, "RunStatus", new Schema.Parser());
        ByteArrayOutputStream status = new ByteArrayOutputStream();
        var statusEncoder = EncoderFactory.get().binaryEncoder(status, null);
        new GenericDatumWriter<Object>(RunStatus.SCHEMA$)
                .write(new GenericData.EnumSymbol(RunStatus.SCHEMA$, "PARTIAL"), statusEncoder);
        statusEncoder.flush();
        Object oldRead = new GenericDatumReader<Object>(RunStatus.SCHEMA$, oldStatus)
                .read(null, DecoderFactory.get().binaryDecoder(status.toByteArray(), null));
        assertThat(oldRead).hasToString("INCOMPLETE");
    }

    private static Schema before(Schema now, String historyDir) throws IOException {
        Schema.Parser parser = new Schema.Parser();
        List<Schema> unchanged = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        for (Schema named : namedTypesOf(now).toList()) {
            if (named.getFullName().equals(now.getFullName())) {
                continue;
            }
            if (SchemaEvolutionTest.class.getResource(historyDir + named.getName() + ".avsc") != null) {
                // a changed enum before the changed records, which refer to it by name
                changed.add(named.getType() == Schema.Type.ENUM ? 0 : changed.size(), named.getName());
            } else {
                unchanged.add(named);
            }
        }
        // the unchanged types first: the old versions of the changed ones refer to them by name
        parser.addTypes(unchanged);
        for (String name : changed) {
            history(historyDir, name, parser);
        }
        Schema before = history(historyDir, now.getName(), parser);
        assertThat(before).as("history of " + now.getName()).isNotNull();
        return before;
    }

    private static Schema history(String name, Schema.Parser parser) throws IOException {
        return history(HISTORY, name, parser);
    }

    private static Schema history(String historyDir, String name, Schema.Parser parser) throws IOException {
        try (InputStream in = SchemaEvolutionTest.class.getResourceAsStream(historyDir + name + ".avsc")) {
            return in == null ? null : parser.parse(in);
        }
    }

    @Test
    void anOldReaderReadsTheNewImportProducerKindAsItsDefault() throws IOException {
        Schema before = history("ProducerKind", new Schema.Parser());
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.FULL_TRANSITIVE, ProducerKind.SCHEMA$, List.of(before)))
                .isEmpty();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        var encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new GenericDatumWriter<Object>(ProducerKind.SCHEMA$)
                .write(new GenericData.EnumSymbol(ProducerKind.SCHEMA$, "IMPORT"), encoder);
        encoder.flush();
        Object read = new GenericDatumReader<Object>(ProducerKind.SCHEMA$, before)
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(read).hasToString("UNKNOWN");
    }

    static Stream<Schema> recordsWithReplay() {
        return Stream.of(
                PhaseKind.SCHEMA$,
                PhaseSummary.SCHEMA$,
                RunSummary.SCHEMA$,
                RunFinished.SCHEMA$,
                PhaseChanged.SCHEMA$,
                PhaseSpec.SCHEMA$);
    }

    @ParameterizedTest
    @MethodSource("recordsWithReplay")
    void theRecordsWithReplayAreFullyCompatibleWithTheOnesBefore(Schema now) throws IOException {
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.FULL_TRANSITIVE, now, List.of(before(now, HISTORY_REPLAY))))
                .isEmpty();
    }

    @Test
    void anOldConsumerReadsAReplayPhaseChangeAsOtherAndAnOldRunFinishedDecodesWithNoReplayPhases() throws IOException {
        Schema oldChange = before(PhaseChanged.SCHEMA$, HISTORY_REPLAY);
        PhaseChanged now = new PhaseChanged("r", 2, "boot", PhaseKind.REPLAY, 5L);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        var encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new SpecificDatumWriter<PhaseChanged>(PhaseChanged.SCHEMA$).write(now, encoder);
        encoder.flush();
        GenericRecord read = new GenericDatumReader<GenericRecord>(PhaseChanged.SCHEMA$, oldChange)
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(read.get("phaseKind")).hasToString("OTHER");

        // a producer on the old schema: its fields are the new ones' leading fields
        Schema oldFinished = before(RunFinished.SCHEMA$, HISTORY_REPLAY);
        RunFinished sample = SampleRecords.runFinished();
        bytes.reset();
        encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new SpecificDatumWriter<RunFinished>(oldFinished).write(sample, encoder);
        encoder.flush();
        RunFinished decoded = new SpecificDatumReader<RunFinished>(oldFinished, RunFinished.SCHEMA$)
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(decoded.getReplayPhases()).isEmpty();
        assertThat(decoded.getIoCount()).isEqualTo(sample.getIoCount());
    }

    @Test
    void thePowerCutPhaseKindIsFullyCompatibleAndAnOldConsumerReadsItAsOther() throws IOException {
        assertThat(AvroCompatibility.incompatibilities(
                        CompatibilityLevel.FULL_TRANSITIVE,
                        PhaseKind.SCHEMA$,
                        List.of(before(PhaseKind.SCHEMA$, HISTORY_POWER_CUT))))
                .isEmpty();
        Schema oldChange = before(PhaseChanged.SCHEMA$, HISTORY_POWER_CUT);
        assertThat(oldChange.getField("phaseKind").schema().getEnumSymbols()).doesNotContain("POWER_CUT");
        PhaseChanged now = new PhaseChanged("r", 3, "cut", PhaseKind.POWER_CUT, 5L);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        var encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new SpecificDatumWriter<PhaseChanged>(PhaseChanged.SCHEMA$).write(now, encoder);
        encoder.flush();
        GenericRecord read = new GenericDatumReader<GenericRecord>(PhaseChanged.SCHEMA$, oldChange)
                .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(read.get("phaseKind")).hasToString("OTHER");
    }

    private static Stream<Schema> namedTypesOf(Schema schema) {
        Map<String, Schema> seen = new LinkedHashMap<>();
        collect(schema, seen);
        return seen.values().stream();
    }

    private static void collect(Schema schema, Map<String, Schema> seen) {
        switch (schema.getType()) {
            case RECORD -> {
                if (seen.putIfAbsent(schema.getFullName(), schema) == null) {
                    schema.getFields().forEach(f -> collect(f.schema(), seen));
                }
            }
            case ENUM, FIXED -> seen.putIfAbsent(schema.getFullName(), schema);
            case UNION -> schema.getTypes().forEach(t -> collect(t, seen));
            case ARRAY -> collect(schema.getElementType(), seen);
            case MAP -> collect(schema.getValueType(), seen);
            default -> {}
        }
    }
}

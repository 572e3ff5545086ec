package dev.ssdpulse.streams.analysis;

import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * A REPLAY phase's result in the analysis state: the record's own Avro binary encoding (its schema is the
 * state's version: a field added to the record needs a new state version).
 */
final class ReplayResultCodec {
    private static final SpecificDatumWriter<ReplayPhaseResult> WRITER =
            new SpecificDatumWriter<>(ReplayPhaseResult.class);
    private static final SpecificDatumReader<ReplayPhaseResult> READER =
            new SpecificDatumReader<>(ReplayPhaseResult.class);

    private ReplayResultCodec() {}

    static byte[] encode(ReplayPhaseResult r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(96);
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        try {
            WRITER.write(r, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static ReplayPhaseResult decode(byte[] bytes) {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, null);
        try {
            return READER.read(null, decoder);
        } catch (IOException e) {
            throw new IllegalArgumentException("run analysis state: a replay phase result does not decode: " + e, e);
        }
    }
}

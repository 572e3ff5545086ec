package dev.ssdpulse.streams.app;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The outputs of a replayed run, as read back from the replay's output topics, in emission order per topic.
 * Values are the Avro binary datums WITHOUT the 5-byte Confluent header (magic byte + schema id): the replay
 * writes to its own topics whose subjects may get other schema ids, so only the datums are comparable
 * byte for byte with the live topics' values (strip the header there too: {@link #datum(byte[])}).
 *
 * @param replayApplicationId the application id the replay ran under
 * @param datumsByTopic       catalogue output topic name (e.g. ssdpulse.metrics-1s.v1) -> datums
 * @param summaryDatum        the latest RunSummary datum, or null when the run never finished in the replay
 */
public record ReplayResult(String replayApplicationId, Map<String, List<byte[]>> datumsByTopic, byte[] summaryDatum) {

    public static byte[] datum(byte[] confluentValue) {
        if (confluentValue == null || confluentValue.length < 5 || confluentValue[0] != 0) {
            throw new IllegalArgumentException("not a Confluent wire-format value (magic byte 0 + 4-byte id)");
        }
        return Arrays.copyOfRange(confluentValue, 5, confluentValue.length);
    }

    public List<byte[]> datums(String catalogueTopic) {
        return datumsByTopic.getOrDefault(catalogueTopic, List.of());
    }
}

package dev.ssdpulse.producer.smart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * A directory holding stand-in {@code nvme} and {@code smartctl} executables (the script
 * {@code src/test/resources/smart/standin/nvme}) and the output sequences they serve: a drive whose counters advance
 * from poll to poll as a real one's do. Put {@link #toolDir()} first on a process's PATH, or hand the tools to a
 * poller.
 */
public final class StandInDrive {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dir;

    private StandInDrive(Path dir) {
        this.dir = dir;
    }

    /** Installs the stand-ins in {@code dir} (both names run the one script). */
    public static StandInDrive in(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("data"));
        byte[] script;
        try (InputStream in = StandInDrive.class.getResourceAsStream("/smart/standin/nvme")) {
            script = in.readAllBytes();
        }
        for (String tool : List.of("nvme", "smartctl")) {
            Path p = dir.resolve(tool);
            Files.write(p, script);
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return new StandInDrive(dir);
    }

    public Path toolDir() {
        return dir;
    }

    public Path nvme() {
        return dir.resolve("nvme");
    }

    public Path smartctl() {
        return dir.resolve("smartctl");
    }

    /**
     * Serves {@code outputs} in turn for a command: {@code tool} "nvme" or "smartctl", {@code key} the command's
     * words joined by '_' ("smart-log", "ocp_smart-add-log"; "" for smartctl).
     */
    public StandInDrive serve(String tool, String key, List<String> outputs) throws IOException {
        Path d = dir.resolve("data").resolve(tool);
        if (!key.isEmpty()) {
            d = d.resolve(key);
        }
        Files.createDirectories(d);
        for (int i = 0; i < outputs.size(); i++) {
            Files.writeString(d.resolve(String.format("%03d.json", i)), outputs.get(i));
        }
        return this;
    }

    /** Serves one fixture of {@code src/test/resources/smart} for a command, every time. */
    public StandInDrive serveFixture(String tool, String key, String fixture) throws IOException {
        return serve(tool, key, List.of(Fixtures.fixture(fixture)));
    }

    /** Starts the sequences again from their first step, as a new drive (and forgets the calls so far). */
    public StandInDrive restart() throws IOException {
        Files.deleteIfExists(dir.resolve("data").resolve("step"));
        Files.deleteIfExists(dir.resolve("calls.log"));
        return this;
    }

    /** Every command the stand-ins ran, in order ("nvme smart-log /dev/nvme0n1 -o json"). */
    public List<String> calls() throws IOException {
        Path log = dir.resolve("calls.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /**
     * {@code steps} copies of a smartctl fixture whose ATA attributes' raw values are set per step (attribute id ->
     * raw value), as a drive's counters advance.
     */
    public static List<String> ataSequence(String fixture, int steps, IntFunction<Map<Integer, Long>> rawAtStep) {
        return IntStream.range(0, steps)
                .mapToObj(k -> {
                    ObjectNode doc = parse(fixture);
                    Map<Integer, Long> values = rawAtStep.apply(k);
                    for (JsonNode a : doc.path("ata_smart_attributes").path("table")) {
                        Long v = values.get(a.path("id").asInt());
                        if (v != null) {
                            ((ObjectNode) a.get("raw")).put("value", v).put("string", Long.toString(v));
                        }
                    }
                    return doc.toString();
                })
                .toList();
    }

    /**
     * {@code steps} copies of an nvme-cli fixture with fields set per step, by JSON pointer to the field's parent
     * object and name ("/Device stats/nand_bytes_written" + "raw" is given as "/Device stats/nand_bytes_written/raw").
     */
    public static List<String> fieldSequence(String fixture, int steps, IntFunction<Map<String, Long>> valuesAtStep) {
        return IntStream.range(0, steps)
                .mapToObj(k -> {
                    ObjectNode doc = parse(fixture);
                    valuesAtStep.apply(k).forEach((pointer, value) -> {
                        int slash = pointer.lastIndexOf('/');
                        JsonNode parent = slash == 0 ? doc : doc.at(pointer.substring(0, slash));
                        if (!(parent instanceof ObjectNode o)) {
                            throw new IllegalArgumentException(fixture + " has no object at " + pointer);
                        }
                        o.put(pointer.substring(slash + 1), value);
                    });
                    return doc.toString();
                })
                .toList();
    }

    private static ObjectNode parse(String fixture) {
        try {
            return (ObjectNode) JSON.readTree(Fixtures.fixture(fixture));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

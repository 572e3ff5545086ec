package dev.ssdpulse.producer.sim.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.producer.naming.NearestName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads drive presets from editable JSON files: the built-in ones on the classpath under
 * {@code ssd-presets/<name>.json}, or any file. Every field is required; unknown fields are rejected so a
 * typo does not silently fall back to a default.
 */
public final class SsdPresets {
    public static final List<String> BUILT_IN = List.of(
            "sata-mlc-120gb-2012",
            "sata-mlc-120gb-2012-plp",
            "sata-mlc-128gb-2012-marvell",
            "sata-240gb",
            "nvme-tlc-1tb",
            "tiny-test");
    private static final String RESOURCE_DIR = "ssd-presets/";

    private final ObjectMapper mapper = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    /** A built-in preset by name, e.g. {@code "sata-mlc-120gb-2012"}. */
    public SsdConfig builtIn(String name) {
        try (InputStream in = SsdPresets.class.getClassLoader().getResourceAsStream(RESOURCE_DIR + name + ".json")) {
            if (in == null) {
                throw new SsdConfigException("unknown preset '" + name + "'"
                        + NearestName.among(name, BUILT_IN)
                                .map(n -> " (did you mean " + n + "?)")
                                .orElse("")
                        + "; built-in presets: " + String.join(", ", BUILT_IN));
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "preset " + name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A preset file. */
    public SsdConfig load(Path file) {
        String json;
        try {
            json = Files.readString(file);
        } catch (IOException e) {
            throw new SsdConfigException("cannot read preset file " + file + ": " + e.getMessage(), e);
        }
        return parse(json, file.toString());
    }

    /**
     * Preset files written before the model had them lack the {@code metadata} and {@code power} blocks,
     * {@code ftl.idleGcIntervalNs}, {@code ftl.backgroundGcStopFreeBlocks}, {@code ftl.idleGcUrgentIntervalNs} and
     * {@code ftl.idleGcMaxCopyRatio}; they keep meaning what they meant then: no parity or map write-back
     * ({@link MetadataSpec#NONE}), no power-cut model ({@link PowerSpec#UNMODELLED}), idle GC at full speed (0),
     * background GC that stops where it starts (no hysteresis), no urgent idle-GC mode (-1) and no victim cost limit
     * for idle GC (0). Every other field stays required.
     */
    private static void withEarlierPresetDefaults(JsonNode tree) {
        if (!(tree instanceof ObjectNode root)) {
            return;
        }
        if (!root.has("metadata")) {
            root.putObject("metadata")
                    .put("parityStripeDataPages", MetadataSpec.NONE.parityStripeDataPages())
                    .put("mapSegmentBytes", MetadataSpec.NONE.mapSegmentBytes())
                    .put("mapCacheBytes", MetadataSpec.NONE.mapCacheBytes());
        }
        if (!root.has("power")) {
            root.putObject("power")
                    .put("powerLossProtection", PowerSpec.UNMODELLED.powerLossProtection())
                    .put("mapCheckpointIntervalNs", PowerSpec.UNMODELLED.mapCheckpointIntervalNs());
        }
        if (root.get("ftl") instanceof ObjectNode ftl) {
            if (!ftl.has("idleGcIntervalNs")) {
                ftl.put("idleGcIntervalNs", 0L);
            }
            if (!ftl.has("idleGcUrgentIntervalNs")) {
                ftl.put("idleGcUrgentIntervalNs", -1L);
            }
            if (!ftl.has("idleGcMaxCopyRatio")) {
                ftl.put("idleGcMaxCopyRatio", 0.0);
            }
            if (!ftl.has("backgroundGcStopFreeBlocks") && ftl.has("backgroundGcFreeBlocks")) {
                ftl.set("backgroundGcStopFreeBlocks", ftl.get("backgroundGcFreeBlocks"));
            }
        }
    }

    /** A built-in name, or else a file path. */
    public SsdConfig resolve(String nameOrPath) {
        if (BUILT_IN.contains(nameOrPath)) {
            return builtIn(nameOrPath);
        }
        Path file = Path.of(nameOrPath);
        if (!Files.exists(file)) {
            throw new SsdConfigException("--ssd " + nameOrPath + ": no preset of that name, and no such file"
                    + NearestName.among(nameOrPath, BUILT_IN)
                            .map(n -> "; did you mean " + n + "?")
                            .orElse("")
                    + " Presets: " + String.join(", ", BUILT_IN) + " (a drive file is a JSON preset)");
        }
        return load(file);
    }

    public SsdConfig parse(String json, String source) {
        SsdConfig config;
        try {
            JsonNode tree = mapper.readTree(json);
            withEarlierPresetDefaults(tree);
            config = mapper.readValue(mapper.treeAsTokens(tree), SsdConfig.class);
        } catch (UnrecognizedPropertyException e) {
            throw new SsdConfigException(
                    source + ": unknown field '" + e.getPropertyName() + "' at " + path(e) + "; known fields: "
                            + e.getKnownPropertyIds(),
                    e);
        } catch (InvalidFormatException e) {
            throw new SsdConfigException(
                    source + ": bad value " + e.getValue() + " for " + path(e) + " (expected "
                            + e.getTargetType().getSimpleName() + ")",
                    e);
        } catch (MismatchedInputException e) {
            throw new SsdConfigException(source + ": " + e.getOriginalMessage() + " at " + path(e), e);
        } catch (JsonProcessingException e) {
            throw new SsdConfigException(
                    source + ": " + e.getOriginalMessage() + " (line "
                            + e.getLocation().getLineNr() + ")",
                    e);
        } catch (IOException e) {
            // reading from an in-memory tree: no I/O happens, but the parser API declares it
            throw new SsdConfigException(source + ": " + e.getMessage(), e);
        }
        try {
            return config.validate();
        } catch (SsdConfigException e) {
            throw new SsdConfigException(source + ": " + e.getMessage(), e);
        }
    }

    public String toJson(SsdConfig config) {
        try {
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(config);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String path(MismatchedInputException e) {
        StringBuilder sb = new StringBuilder();
        for (var ref : e.getPath()) {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]");
        }
        return sb.length() == 0 ? "top level" : sb.toString();
    }
}

package dev.ssdpulse.producer.workload;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.ssdpulse.producer.trace.TraceSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Loads workload files (YAML, or JSON when the name ends in .json), substitutes {@code ${var:default}}
 * placeholders, and validates. Every problem is reported at once as "file: field path: why".
 */
public final class WorkloadLoader {
    // Duplicate keys are errors: with "last one wins" a repeated field would be silently ignored.
    private final ObjectMapper json = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private final ObjectMapper yaml = new YAMLMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    public WorkloadSpec load(Path file) {
        return load(file, Map.of());
    }

    public WorkloadSpec load(Path file, Map<String, String> variables) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read workload file " + file + ": " + e.getMessage(), e);
        }
        Path dir = file.toAbsolutePath().getParent();
        return parse(text, file.getFileName().toString(), variables, t -> TraceSource.of(t, dir));
    }

    public WorkloadSpec parse(String text, String sourceName) {
        return parse(text, sourceName, Map.of());
    }

    /**
     * @param variables values for the text's placeholders (the CLI's {@code --set name=value}); a name the
     *                  text does not use is an error, so typos do not pass silently
     */
    public WorkloadSpec parse(String text, String sourceName, Map<String, String> variables) {
        return parse(text, sourceName, variables, t -> TraceSource.of(t, null));
    }

    /**
     * @param traces resolves a REPLAY phase's {@code trace} as written (relative to the workload file's directory
     *               for a file, to the classpath for a preset; absolute paths and {@code classpath:} names as they
     *               are)
     */
    public WorkloadSpec parse(
            String text, String sourceName, Map<String, String> variables, Function<String, TraceSource> traces) {
        String resolved = Placeholders.substitute(text, variables, sourceName);
        JsonNode root;
        try {
            ObjectMapper mapper = sourceName.toLowerCase(Locale.ROOT).endsWith(".json") ? json : yaml;
            root = mapper.readTree(resolved);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String where = loc == null ? "" : " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
            throw new WorkloadValidationException(List.of(sourceName + ": syntax: " + e.getOriginalMessage() + where));
        }
        SpecReader reader = new SpecReader(sourceName, traces);
        WorkloadSpec spec = reader.read(root);
        if (!reader.problems().isEmpty()) {
            throw new WorkloadValidationException(reader.problems());
        }
        WorkloadValidator.validate(spec, sourceName);
        return spec;
    }
}

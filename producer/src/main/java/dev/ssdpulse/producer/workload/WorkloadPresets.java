package dev.ssdpulse.producer.workload;

import dev.ssdpulse.producer.trace.TraceSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The built-in workloads, one per test of the seed documents, stored as classpath resources
 * {@code workloads/<name>.yaml} and listed in {@code workloads/presets.txt}. Presets declare parameters as
 * {@code ${var:default}} placeholders; {@link #load(String, Map)} sets them (the CLI's {@code --set}).
 */
public final class WorkloadPresets {
    private static final String DIR = "workloads/";
    private final ClassLoader classLoader;
    private final WorkloadLoader loader = new WorkloadLoader();

    public WorkloadPresets() {
        this(WorkloadPresets.class.getClassLoader());
    }

    public WorkloadPresets(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    /** Preset names in catalogue order. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (String line : read("presets.txt").split("\n")) {
            String s = line.trim();
            if (!s.isEmpty() && !s.startsWith("#")) {
                names.add(s);
            }
        }
        return names;
    }

    /** Every preset with its description and variables (each preset is loaded with its defaults). */
    public List<PresetInfo> list() {
        List<PresetInfo> out = new ArrayList<>();
        for (String name : names()) {
            WorkloadSpec spec = load(name);
            out.add(new PresetInfo(name, spec.description(), Placeholders.variables(text(name))));
        }
        return out;
    }

    public boolean exists(String name) {
        return names().contains(name);
    }

    public WorkloadSpec load(String name) {
        return load(name, Map.of());
    }

    /** Loads and validates a preset with variables set; unknown names and variables are errors. */
    public WorkloadSpec load(String name, Map<String, String> variables) {
        // a preset's trace is shipped beside it on the classpath
        return loader.parse(
                text(name),
                name + ".yaml",
                variables,
                t -> TraceSource.of(
                        t.startsWith(TraceSource.CLASSPATH_PREFIX) ? t : TraceSource.CLASSPATH_PREFIX + DIR + t, null));
    }

    /** The preset's source text (placeholders unresolved), e.g. to print or to copy and edit. */
    public String text(String name) {
        if (!exists(name)) {
            throw new IllegalArgumentException(
                    "unknown workload preset '" + name + "', known: " + String.join(", ", names()));
        }
        return read(name + ".yaml");
    }

    private String read(String resource) {
        try (InputStream in = classLoader.getResourceAsStream(DIR + resource)) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + DIR + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DIR + resource, e);
        }
    }
}

package dev.ssdpulse.streams.http.metrics;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Merges Prometheus text expositions (format 0.0.4) of several analytics instances into one, for
 * {@code /metrics?scope=cluster}: this instance's families as they are, plus the samples of the selected families
 * (the per-run gauges) from the others, each family's samples kept together under one HELP and TYPE as the format
 * requires. A series (name and labels) this instance already has is not taken again.
 */
public final class PrometheusTextMerge {
    private PrometheusTextMerge() {}

    /**
     * @param local             this instance's exposition, kept whole
     * @param others            the other instances' expositions
     * @param takeFromOthers    which families (by name) to take from the others
     */
    public static String merge(String local, List<String> others, Predicate<String> takeFromOthers) {
        Map<String, Family> families = new LinkedHashMap<>();
        parse(local, families, name -> true);
        for (String other : others) {
            parse(other, families, takeFromOthers);
        }
        StringBuilder out = new StringBuilder(local.length() * (others.size() + 1));
        for (Family f : families.values()) {
            f.header.forEach(line -> out.append(line).append('\n'));
            f.samples.forEach(line -> out.append(line).append('\n'));
        }
        return out.toString();
    }

    private static void parse(String text, Map<String, Family> families, Predicate<String> take) {
        Family current = null;
        Set<String> newHere = new HashSet<>(); // families first seen in this text take its HELP/TYPE
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
                String name = line.substring(7).split(" ", 2)[0];
                if (!take.test(name)) {
                    current = null;
                    continue;
                }
                current = families.get(name);
                if (current == null) {
                    current = new Family();
                    families.put(name, current);
                    newHere.add(name);
                }
                if (newHere.contains(name)) {
                    current.header.add(line);
                }
                continue;
            }
            if (line.startsWith("#")) {
                continue;
            }
            if (current == null) {
                continue; // a sample of a family not taken (or without a header: not in this format)
            }
            current.add(line);
        }
    }

    private static final class Family {
        final List<String> header = new ArrayList<>(2);
        final List<String> samples = new ArrayList<>();
        final Set<String> series = new HashSet<>();

        void add(String sample) {
            if (series.add(seriesKey(sample))) {
                samples.add(sample);
            }
        }

        /** Name and labels: everything before the value (label values may hold spaces, but not unescaped '}'). */
        private static String seriesKey(String sample) {
            int close = sample.lastIndexOf('}');
            int end = close >= 0 ? close + 1 : sample.indexOf(' ');
            return end > 0 ? sample.substring(0, end) : sample;
        }
    }
}

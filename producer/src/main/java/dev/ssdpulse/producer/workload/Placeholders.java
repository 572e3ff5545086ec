package dev.ssdpulse.producer.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${name:default}} / {@code ${name}} placeholders in workload files, substituted in the text before
 * parsing, so any field of a preset can be parameterised and set from the CLI ({@code --set freeFlashGB=8}).
 * Values are restricted to a safe character set so a value cannot change the file's structure.
 */
public final class Placeholders {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z][A-Za-z0-9_]*)(?::([^}]*))?}");
    private static final Pattern SAFE_VALUE = Pattern.compile("[A-Za-z0-9._%+\\-]*");

    private Placeholders() {}

    /** Variables of a text and their defaults (null when a variable has none), in order of appearance. */
    public static Map<String, String> variables(String text) {
        Map<String, String> vars = new LinkedHashMap<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            String def = m.group(2);
            if (!vars.containsKey(m.group(1)) || (vars.get(m.group(1)) == null && def != null)) {
                vars.put(m.group(1), def);
            }
        }
        return vars;
    }

    /** Substitutes placeholders; throws listing unknown or missing variables and unsafe values. */
    public static String substitute(String text, Map<String, String> values, String source) {
        Map<String, String> known = variables(text);
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (!known.containsKey(e.getKey())) {
                problems.add(source + ": --set " + e.getKey() + ": unknown variable, known: "
                        + (known.isEmpty() ? "(none)" : String.join(", ", new TreeSet<>(known.keySet()))));
            } else if (!SAFE_VALUE.matcher(e.getValue()).matches()) {
                problems.add(source + ": --set " + e.getKey() + ": value '" + e.getValue()
                        + "' may only contain letters, digits and . _ % + -");
            }
        }
        StringBuilder out = new StringBuilder(text.length());
        Matcher m = PLACEHOLDER.matcher(text);
        TreeSet<String> missing = new TreeSet<>();
        while (m.find()) {
            String value = values.containsKey(m.group(1)) ? values.get(m.group(1)) : m.group(2);
            if (value == null) {
                missing.add(m.group(1));
                value = "";
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        for (String name : missing) {
            problems.add(source + ": variable '" + name + "' has no value and no default (set it with --set " + name
                    + "=VALUE)");
        }
        if (!problems.isEmpty()) {
            throw new WorkloadValidationException(problems);
        }
        return out.toString();
    }
}

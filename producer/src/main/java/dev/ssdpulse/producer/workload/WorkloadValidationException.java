package dev.ssdpulse.producer.workload;

import java.util.List;

/** A workload file or spec is invalid; {@link #problems()} lists every problem as "file: field path: why". */
public final class WorkloadValidationException extends RuntimeException {
    private final List<String> problems;

    public WorkloadValidationException(List<String> problems) {
        super(
                problems.size() == 1
                        ? problems.get(0)
                        : problems.size() + " problems:\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}

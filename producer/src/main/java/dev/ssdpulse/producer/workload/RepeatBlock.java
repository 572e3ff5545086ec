package dev.ssdpulse.producer.workload;

import java.util.List;

/**
 * A group of steps run {@code repeat} times in a row, e.g. a SNIA PTS round (56 one-minute tests) repeated
 * up to 25 times, or host-idle-recovery's 360 access/idle pairs. Written in files as an item with
 * {@code phases}: {@code {name: round, repeat: 25, phases: [...]}}.
 */
public record RepeatBlock(String name, int repeat, List<WorkloadStep> steps) implements WorkloadStep {
    public RepeatBlock {
        steps = List.copyOf(steps);
    }
}

package dev.ssdpulse.producer.device.engine;

import java.util.BitSet;

/**
 * The CPUs a run's I/O threads may run on, in fio's {@code cpus_allowed} syntax: ids and inclusive ranges separated
 * by commas ({@code 1}, {@code 0-3}, {@code 0,2,4-7}). Immutable.
 *
 * <p>Why a benchmark pins: on a machine with few CPUs the completion interrupt of a disk arrives on one CPU; a
 * submitting thread that the scheduler left on another is woken by an inter-processor interrupt on every
 * completion. On the 2-core reference VM that cost 51 us of CPU per 4 KiB QD1 read on the far CPU against 31-33 us
 * on the interrupt's CPU. fio pins with {@code cpus_allowed}; comparing two tools fairly needs both
 * pinned alike.
 */
public final class CpuList {
    /** Larger ids are refused: beyond any machine this runs on, and the mask handed to the kernel stays small. */
    public static final int MAX_CPU_ID = 4095;

    private final BitSet cpus;
    private final String text;

    private CpuList(BitSet cpus) {
        this.cpus = cpus;
        this.text = format(cpus);
    }

    /** Parses fio's syntax; throws {@link IllegalArgumentException} naming the part that is wrong. */
    public static CpuList parse(String list) {
        if (list == null || list.isBlank()) {
            throw new IllegalArgumentException("a CPU list must name at least one CPU (e.g. 1, 0-3 or 0,2,4-7)");
        }
        BitSet cpus = new BitSet();
        for (String part : list.split(",", -1)) {
            String p = part.strip();
            if (p.isEmpty()) {
                throw new IllegalArgumentException("empty entry in CPU list '" + list + "'");
            }
            int dash = p.indexOf('-');
            int first = id(dash < 0 ? p : p.substring(0, dash), list);
            int last = dash < 0 ? first : id(p.substring(dash + 1), list);
            if (last < first) {
                throw new IllegalArgumentException("CPU range " + p + " in '" + list + "' runs backwards");
            }
            cpus.set(first, last + 1);
        }
        return new CpuList(cpus);
    }

    private static int id(String s, String list) {
        String t = s.strip();
        if (t.isEmpty() || !t.chars().allMatch(Character::isDigit) || t.length() > 4) {
            throw new IllegalArgumentException(
                    "'" + s + "' in CPU list '" + list + "' is not a CPU id (0-" + MAX_CPU_ID + ")");
        }
        int id = Integer.parseInt(t);
        if (id > MAX_CPU_ID) {
            throw new IllegalArgumentException("CPU id " + id + " in '" + list + "' is above " + MAX_CPU_ID);
        }
        return id;
    }

    /** A copy of the set. */
    public BitSet toBitSet() {
        return (BitSet) cpus.clone();
    }

    /** The CPUs of this list that are not in {@code available}, formatted as a list ("" when none). */
    public String missingFrom(BitSet available) {
        BitSet missing = toBitSet();
        missing.andNot(available);
        return format(missing);
    }

    /** Canonical form: ascending, runs of three or more as ranges ("0-3,5"). */
    public static String format(BitSet cpus) {
        StringBuilder b = new StringBuilder();
        for (int i = cpus.nextSetBit(0); i >= 0; ) {
            int end = cpus.nextClearBit(i) - 1;
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(i);
            if (end == i + 1) {
                b.append(',').append(end);
            } else if (end > i + 1) {
                b.append('-').append(end);
            }
            i = cpus.nextSetBit(end + 1);
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CpuList other && cpus.equals(other.cpus);
    }

    @Override
    public int hashCode() {
        return cpus.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}

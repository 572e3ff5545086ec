package dev.ssdpulse.producer.io;

/**
 * Operation codes of the producer's hot path. Plain bytes rather than an enum so the simulator and the
 * device engine record an I/O without allocation; the values equal the ordinals of the Avro
 * {@code IoOp} enum, so publishing maps them by index.
 */
public final class IoOpCode {
    public static final byte READ = 0;
    public static final byte WRITE = 1;
    public static final byte TRIM = 2;
    public static final byte FLUSH = 3;

    private IoOpCode() {
    }

    public static String name(byte op) {
        switch (op) {
            case READ: return "READ";
            case WRITE: return "WRITE";
            case TRIM: return "TRIM";
            case FLUSH: return "FLUSH";
            default: throw new IllegalArgumentException("unknown op code " + op);
        }
    }
}

package dev.ssdpulse.schemas.iobatch;

/**
 * The I/O op as a number on the hot paths (producers record an I/O without allocation; the accumulators index
 * arrays by it): the ordinals of the Avro {@code IoOp} enum, which is the op everywhere else.
 */
public final class IoOpCode {
    public static final byte READ = 0;
    public static final byte WRITE = 1;
    public static final byte TRIM = 2;
    public static final byte FLUSH = 3;
    /** Number of op codes; arrays indexed by op have this length. */
    public static final int COUNT = 4;

    private static final String[] NAMES = {"READ", "WRITE", "TRIM", "FLUSH"};

    private IoOpCode() {}

    public static String name(int op) {
        return NAMES[check(op)];
    }

    /** @throws IllegalArgumentException for codes outside 0..3 */
    public static int check(int op) {
        if (op < 0 || op >= COUNT) {
            throw new IllegalArgumentException("op code must be 0..3 (READ, WRITE, TRIM, FLUSH), was " + op);
        }
        return op;
    }
}

package dev.ssdpulse.streams.window;

/**
 * Op codes used by the accumulators: the ordinals of the Avro {@code IoOp} enum and the values of the
 * producer's {@code IoOpCode} (READ 0, WRITE 1, TRIM 2, FLUSH 3), kept as ints so the hot path never
 * allocates or maps an enum.
 */
public final class IoOps {
    public static final int READ = 0;
    public static final int WRITE = 1;
    public static final int TRIM = 2;
    public static final int FLUSH = 3;
    /** Number of op codes; arrays indexed by op have this length. */
    public static final int COUNT = 4;

    private static final String[] NAMES = {"READ", "WRITE", "TRIM", "FLUSH"};

    private IoOps() {
    }

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

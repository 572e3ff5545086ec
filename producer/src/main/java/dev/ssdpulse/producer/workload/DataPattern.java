package dev.ssdpulse.producer.workload;

/**
 * The data written: INCOMPRESSIBLE (pseudo-random, seed 000's "incompressible"), COMPRESSIBLE to a ratio
 * (uncompressed/compressed &gt;= 1, e.g. 2.0 halves the flash used by a compressing controller), or ZEROS.
 * The device engine fills its buffers accordingly; the simulator applies the ratio to NAND writes.
 */
public record DataPattern(Kind kind, double compressionRatio) {
    public enum Kind {
        INCOMPRESSIBLE,
        COMPRESSIBLE,
        ZEROS
    }

    public static DataPattern incompressible() {
        return new DataPattern(Kind.INCOMPRESSIBLE, 1.0);
    }

    public static DataPattern compressible(double ratio) {
        return new DataPattern(Kind.COMPRESSIBLE, ratio);
    }

    public static DataPattern zeros() {
        return new DataPattern(Kind.ZEROS, 0);
    }
}

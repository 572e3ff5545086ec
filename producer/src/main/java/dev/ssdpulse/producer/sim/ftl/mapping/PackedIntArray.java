package dev.ssdpulse.producer.sim.ftl.mapping;

/**
 * A fixed-length array of unsigned integers of {@code bitsPerEntry} bits (1..32) packed back to back in a
 * long[], entries straddling word boundaries. Why: the forward map of a 1 TB drive has 244 M entries that
 * need 29 bits each; as an int[] it alone takes 977 MB, packed 885 MB. Reads are branch-free (the array has
 * one word of padding, so the second word of an entry always exists). New entries are 0.
 *
 * <p>At 32 bits per entry the values sit in a plain int[]: a packed write must load the words it changes,
 * which for random indices is a cache miss per write, while an int store is absorbed by the store buffer
 * (measured on the 2012 preset, where every GC copy writes a random forward-map entry: 0.58 against 0.68 M
 * host I/Os per CPU second packed and as ints). Callers that can afford 4 bytes per entry ask for 32 bits.
 */
public final class PackedIntArray {
    private final long[] words;
    /** The entries when bitsPerEntry is 32, else null. */
    private final int[] ints;
    private final int length;
    private final int bitsPerEntry;
    private final long mask;

    public PackedIntArray(int length, int bitsPerEntry) {
        if (length < 0 || bitsPerEntry < 1 || bitsPerEntry > 32) {
            throw new IllegalArgumentException("length " + length + ", bits per entry " + bitsPerEntry + " (1..32)");
        }
        long wordCount = wordsFor(length, bitsPerEntry);
        if (wordCount > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(length + " entries of " + bitsPerEntry + " bits exceed one long[]");
        }
        this.ints = bitsPerEntry == 32 ? new int[length] : null;
        this.words = ints != null ? new long[0] : new long[(int) wordCount];
        this.length = length;
        this.bitsPerEntry = bitsPerEntry;
        this.mask = (1L << bitsPerEntry) - 1;
    }

    /** Heap bytes of an array of {@code length} entries of {@code bitsPerEntry} bits (header excluded). */
    public static long bytesFor(long length, int bitsPerEntry) {
        return bitsPerEntry == 32 ? 4 * length : 8 * wordsFor(length, bitsPerEntry);
    }

    /** Bits needed to store every value in 0..maxValue. */
    public static int bitsFor(long maxValue) {
        return Math.max(1, 64 - Long.numberOfLeadingZeros(maxValue));
    }

    private static long wordsFor(long length, int bitsPerEntry) {
        return (length * bitsPerEntry + 63) / 64 + 1;
    }

    public int length() {
        return length;
    }

    public int get(int index) {
        if (ints != null) {
            return ints[index];
        }
        long bit = (long) index * bitsPerEntry;
        int w = (int) (bit >>> 6);
        int shift = (int) bit & 63;
        // the high part: (x << 1) << (63 - shift) is x << (64 - shift), and 0 when shift is 0
        long v = (words[w] >>> shift) | ((words[w + 1] << 1) << (63 - shift));
        return (int) (v & mask);
    }

    /** @param value in 0 .. 2^bitsPerEntry - 1 (higher bits are dropped) */
    public void set(int index, int value) {
        if (ints != null) {
            ints[index] = value;
            return;
        }
        long bit = (long) index * bitsPerEntry;
        int w = (int) (bit >>> 6);
        int shift = (int) bit & 63;
        long v = value & mask;
        words[w] = (words[w] & ~(mask << shift)) | (v << shift);
        // the part past the first word: x >>> (64 - shift), written as two shifts so that shift 0 gives 0
        words[w + 1] = (words[w + 1] & ~((mask >>> 1) >>> (63 - shift))) | ((v >>> 1) >>> (63 - shift));
    }
}

package dev.ssdpulse.producer.sim.ftl.mapping;

/**
 * A fixed-length array of unsigned integers of {@code bitsPerEntry} bits (1..32) packed back to back in
 * long words, entries straddling word boundaries. Why: the forward map of a 1 TB drive has 244 M entries that
 * need 29 bits each; as an int[] it alone takes 977 MB, packed 885 MB. Reads are branch-free (each page has
 * one word of padding, so the second word of an entry always exists). New entries are 0.
 *
 * <p>Stored in pages of {@value PagedIntArray#PAGE_LENGTH} entries (at most 16 KiB each), for the reason
 * {@link PagedIntArray} gives; a page starts on a word boundary at every width, as its entry count is a
 * multiple of 64.
 *
 * <p>At 32 bits per entry the values sit in ints ({@link PagedIntArray}): a packed write must load the words it
 * changes, which for random indices is a cache miss per write, while an int store is absorbed by the store buffer
 * (measured on the 2012 preset, where every GC copy writes a random forward-map entry: 0.58 against 0.68 M
 * host I/Os per CPU second packed and as ints). Callers that can afford 4 bytes per entry ask for 32 bits.
 */
public final class PackedIntArray {
    private static final int PAGE_SHIFT = PagedIntArray.PAGE_SHIFT;
    private static final int PAGE_MASK = PagedIntArray.PAGE_LENGTH - 1;
    private static final long HEADER_BYTES = PagedIntArray.HEADER_BYTES;

    /** The packed words, one padding word per page; null when bitsPerEntry is 32. */
    private final long[][] words;
    /** The entries when bitsPerEntry is 32, else null. */
    private final PagedIntArray ints;

    private final int length;
    private final int bitsPerEntry;
    private final long mask;

    public PackedIntArray(int length, int bitsPerEntry) {
        if (length < 0 || bitsPerEntry < 1 || bitsPerEntry > 32) {
            throw new IllegalArgumentException("length " + length + ", bits per entry " + bitsPerEntry + " (1..32)");
        }
        this.ints = bitsPerEntry == 32 ? new PagedIntArray(length) : null;
        if (ints == null) {
            this.words = new long[PagedIntArray.pagesFor(length)][];
            for (int c = 0; c < words.length; c++) {
                words[c] = new long
                        [wordsFor(Math.min(PagedIntArray.PAGE_LENGTH, length - (c << PAGE_SHIFT)), bitsPerEntry)];
            }
        } else {
            this.words = null;
        }
        this.length = length;
        this.bitsPerEntry = bitsPerEntry;
        this.mask = (1L << bitsPerEntry) - 1;
    }

    /** Heap bytes of an array of {@code length} entries of {@code bitsPerEntry} bits, pages' headers included. */
    public static long bytesFor(long length, int bitsPerEntry) {
        if (bitsPerEntry == 32) {
            return PagedIntArray.bytesFor(length);
        }
        long fullPages = length >>> PAGE_SHIFT;
        int rest = (int) (length & PAGE_MASK);
        long bytes = fullPages * (8L * wordsFor(PagedIntArray.PAGE_LENGTH, bitsPerEntry) + HEADER_BYTES);
        if (rest > 0) {
            bytes += 8L * wordsFor(rest, bitsPerEntry) + HEADER_BYTES;
        }
        return bytes + 4L * PagedIntArray.pagesFor(length) + HEADER_BYTES; // compressed references
    }

    /** Bits needed to store every value in 0..maxValue. */
    public static int bitsFor(long maxValue) {
        return Math.max(1, 64 - Long.numberOfLeadingZeros(maxValue));
    }

    private static int wordsFor(int entries, int bitsPerEntry) {
        return (int) (((long) entries * bitsPerEntry + 63) / 64 + 1);
    }

    public int length() {
        return length;
    }

    public int get(int index) {
        if (ints != null) {
            return ints.get(index);
        }
        long[] page = words[index >>> PAGE_SHIFT];
        int bit = (index & PAGE_MASK) * bitsPerEntry;
        int w = bit >>> 6;
        int shift = bit & 63;
        // the high part: (x << 1) << (63 - shift) is x << (64 - shift), and 0 when shift is 0
        long v = (page[w] >>> shift) | ((page[w + 1] << 1) << (63 - shift));
        return (int) (v & mask);
    }

    /** @param value in 0 .. 2^bitsPerEntry - 1 (higher bits are dropped) */
    public void set(int index, int value) {
        if (ints != null) {
            ints.set(index, value);
            return;
        }
        long[] page = words[index >>> PAGE_SHIFT];
        int bit = (index & PAGE_MASK) * bitsPerEntry;
        int w = bit >>> 6;
        int shift = bit & 63;
        long v = value & mask;
        page[w] = (page[w] & ~(mask << shift)) | (v << shift);
        // the part past the first word: x >>> (64 - shift), written as two shifts so that shift 0 gives 0
        page[w + 1] = (page[w + 1] & ~((mask >>> 1) >>> (63 - shift))) | ((v >>> 1) >>> (63 - shift));
    }
}

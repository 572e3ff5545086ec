package dev.ssdpulse.producer.sim.ftl.mapping;

import java.util.Arrays;

/**
 * An int array stored in pages of {@value #PAGE_LENGTH} ints (16 KiB), for the simulator's maps of hundreds
 * of MB. Why pages: under G1 an array of half a region or more is a humongous object. It needs that many
 * contiguous free regions, and G1 (JDK 17) never moves it. The demo's drive (2012 preset) in a 512 MiB heap
 * that already runs Kafka clients and analytics needs a 277 MB reverse map beside a 99 MB forward map; as one
 * int[] each, that allocation failed in CI with the free heap in pieces. A page is an ordinary object under
 * every collector and region size, which the collector can place in any free space and compact.
 *
 * <p>Why 16 KiB: a 1 MiB region holds 63 of them with 15 KiB left for other objects (pages of 256 KiB plus
 * their 16-byte header fit 3 to a region, leaving a quarter of each region unused by them: the 1 TB preset
 * then no longer ran in 1 GiB). The page table stays small enough for the cache (64 KiB of references for the
 * 2012 preset's reverse map). Cost, measured side by side with one-array maps: the same CPU per
 * host I/O within the noise on the 2012 preset, ~6 % more on the 1 TB preset, and about a second of young
 * collections copying the pages once when a drive is built.
 */
final class PagedIntArray {
    static final int PAGE_SHIFT = 12;
    static final int PAGE_LENGTH = 1 << PAGE_SHIFT;
    private static final int PAGE_MASK = PAGE_LENGTH - 1;
    /** Bytes of an array header, as in a 64-bit JVM with compressed class pointers (counted in the budget). */
    static final long HEADER_BYTES = 16;

    private final int[][] pages;
    private final int length;

    PagedIntArray(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("length " + length);
        }
        this.length = length;
        this.pages = new int[pagesFor(length)][];
        for (int c = 0; c < pages.length; c++) {
            pages[c] = new int[Math.min(PAGE_LENGTH, length - (c << PAGE_SHIFT))];
        }
    }

    /** Heap bytes of an array of {@code length} entries: the ints, the pages' headers and their table. */
    static long bytesFor(long length) {
        long pageCount = (length + PAGE_LENGTH - 1) >>> PAGE_SHIFT;
        return 4 * length + pageCount * (HEADER_BYTES + 4) + HEADER_BYTES;
    }

    static int pagesFor(long length) {
        return (int) ((length + PAGE_LENGTH - 1) >>> PAGE_SHIFT);
    }

    int length() {
        return length;
    }

    int get(int index) {
        return pages[index >>> PAGE_SHIFT][index & PAGE_MASK];
    }

    void set(int index, int value) {
        pages[index >>> PAGE_SHIFT][index & PAGE_MASK] = value;
    }

    void fill(int value) {
        for (int[] page : pages) {
            Arrays.fill(page, value);
        }
    }
}

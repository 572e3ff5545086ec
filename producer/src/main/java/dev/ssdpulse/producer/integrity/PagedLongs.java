package dev.ssdpulse.producer.integrity;

/**
 * A long per index over a large index range, in pages of 32 Ki entries allocated on first write: a sparse range
 * (a span written in a few places) costs only its written pages. Unwritten entries read 0. Not thread-safe.
 *
 * <p>A page is 256 KiB: under half of G1's smallest region (1 MiB, a heap up to 2 GiB), so pages are ordinary
 * objects; a page of half a region or more would be humongous and take a whole region, doubling the footprint.
 */
final class PagedLongs {
    static final int PAGE_SHIFT = 15;
    static final int PAGE_SIZE = 1 << PAGE_SHIFT;
    private static final int PAGE_MASK = PAGE_SIZE - 1;
    private final long[][] pages;
    private final long size;

    PagedLongs(long size) {
        this.size = size;
        this.pages = new long[Math.toIntExact((size + PAGE_SIZE - 1) >>> PAGE_SHIFT)][];
    }

    long size() {
        return size;
    }

    long get(long i) {
        long[] page = pages[(int) (i >>> PAGE_SHIFT)];
        return page == null ? 0 : page[(int) (i & PAGE_MASK)];
    }

    void set(long i, long value) {
        int p = (int) (i >>> PAGE_SHIFT);
        long[] page = pages[p];
        if (page == null) {
            if (value == 0) {
                return;
            }
            page = pages[p] = new long[PAGE_SIZE];
        }
        page[(int) (i & PAGE_MASK)] = value;
    }

    /** Whether any entry of index {@code i}'s page was ever written (a whole page can be skipped otherwise). */
    boolean pageAllocated(long i) {
        return pages[(int) (i >>> PAGE_SHIFT)] != null;
    }

    /** Bytes held by the allocated pages. */
    long allocatedBytes() {
        long n = 0;
        for (long[] page : pages) {
            n += page == null ? 0 : 8L * PAGE_SIZE;
        }
        return n;
    }
}

package dev.ssdpulse.producer.integrity;

/**
 * A bit per index (a run's write sequence numbers), in pages of 2 Mi bits (256 KiB, see {@link PagedLongs}) allocated
 * on first set.
 */
final class PagedBits {
    private static final int PAGE_SHIFT = 21;
    private static final int PAGE_BITS = 1 << PAGE_SHIFT;
    private final long[][] pages;

    PagedBits(long size) {
        this.pages = new long[Math.toIntExact((size + PAGE_BITS - 1) >>> PAGE_SHIFT)][];
    }

    boolean get(long i) {
        if (i < 0 || (i >>> PAGE_SHIFT) >= pages.length) {
            return false;
        }
        long[] page = pages[(int) (i >>> PAGE_SHIFT)];
        int bit = (int) (i & (PAGE_BITS - 1));
        return page != null && (page[bit >>> 6] & (1L << bit)) != 0;
    }

    void set(long i) {
        int p = (int) (i >>> PAGE_SHIFT);
        long[] page = pages[p];
        if (page == null) {
            page = pages[p] = new long[PAGE_BITS >>> 6];
        }
        int bit = (int) (i & (PAGE_BITS - 1));
        page[bit >>> 6] |= 1L << bit;
    }

    long allocatedBytes() {
        long n = 0;
        for (long[] page : pages) {
            n += page == null ? 0 : 8L * page.length;
        }
        return n;
    }
}

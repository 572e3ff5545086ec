package dev.ssdpulse.producer.integrity;

/** As {@link PagedLongs}, an int per index. */
final class PagedInts {
    private static final int PAGE_SHIFT = PagedLongs.PAGE_SHIFT;
    private static final int PAGE_SIZE = 1 << PAGE_SHIFT;
    private static final int PAGE_MASK = PAGE_SIZE - 1;
    private final int[][] pages;

    PagedInts(long size) {
        this.pages = new int[Math.toIntExact((size + PAGE_SIZE - 1) >>> PAGE_SHIFT)][];
    }

    int get(long i) {
        int[] page = pages[(int) (i >>> PAGE_SHIFT)];
        return page == null ? 0 : page[(int) (i & PAGE_MASK)];
    }

    void set(long i, int value) {
        int p = (int) (i >>> PAGE_SHIFT);
        int[] page = pages[p];
        if (page == null) {
            if (value == 0) {
                return;
            }
            page = pages[p] = new int[PAGE_SIZE];
        }
        page[(int) (i & PAGE_MASK)] = value;
    }

    long allocatedBytes() {
        long n = 0;
        for (int[] page : pages) {
            n += page == null ? 0 : 4L * PAGE_SIZE;
        }
        return n;
    }
}

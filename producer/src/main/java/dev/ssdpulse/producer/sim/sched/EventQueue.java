package dev.ssdpulse.producer.sim.sched;

import java.util.Arrays;

/**
 * Min-heap of events ordered by (time, insertion sequence), in primitive arrays. Equal times pop in
 * insertion order, which makes the simulation's event sequence deterministic.
 */
public final class EventQueue {
    private long[] timeNs = new long[64];
    private long[] seq = new long[64];
    private int[] type = new int[64];
    private int[] arg = new int[64];
    private long[] arg2 = new long[64];
    private int size;
    private long nextSeq;

    private long headTime;
    private int headType;
    private int headArg;
    private long headArg2;

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    public long peekTimeNs() {
        return timeNs[0];
    }

    public void push(long atNs, int eventType, int argument, long argument2) {
        if (size == timeNs.length) {
            grow();
        }
        int i = size++;
        long s = nextSeq++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(atNs, s, timeNs[parent], seq[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, atNs, s, eventType, argument, argument2);
    }

    /** Removes the earliest event; read it with {@link #headTime()}, {@link #headType()}, {@link #headArg()}. */
    public void pop() {
        headTime = timeNs[0];
        headType = type[0];
        headArg = arg[0];
        headArg2 = arg2[0];
        int last = --size;
        if (last == 0) {
            return;
        }
        long t = timeNs[last];
        long s = seq[last];
        int ty = type[last];
        int a = arg[last];
        long a2 = arg2[last];
        int i = 0;
        int half = last >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < last && less(timeNs[right], seq[right], timeNs[child], seq[child])) {
                child = right;
            }
            if (!less(timeNs[child], seq[child], t, s)) {
                break;
            }
            move(child, i);
            i = child;
        }
        set(i, t, s, ty, a, a2);
    }

    public long headTime() {
        return headTime;
    }

    public int headType() {
        return headType;
    }

    public int headArg() {
        return headArg;
    }

    public long headArg2() {
        return headArg2;
    }

    private static boolean less(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }

    private void move(int from, int to) {
        timeNs[to] = timeNs[from];
        seq[to] = seq[from];
        type[to] = type[from];
        arg[to] = arg[from];
        arg2[to] = arg2[from];
    }

    private void set(int i, long t, long s, int ty, int a, long a2) {
        timeNs[i] = t;
        seq[i] = s;
        type[i] = ty;
        arg[i] = a;
        arg2[i] = a2;
    }

    private void grow() {
        int n = timeNs.length * 2;
        timeNs = Arrays.copyOf(timeNs, n);
        seq = Arrays.copyOf(seq, n);
        type = Arrays.copyOf(type, n);
        arg = Arrays.copyOf(arg, n);
        arg2 = Arrays.copyOf(arg2, n);
    }
}

package dev.ssdpulse.producer.device.bench;

import dev.ssdpulse.producer.device.engine.IoSlot;
import dev.ssdpulse.producer.device.engine.PatternFiller;
import dev.ssdpulse.producer.workload.DataPattern;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The cost of filling a write buffer with fresh incompressible data, side by side in one JVM: {@link PatternFiller}
 * (four interleaved xorshift64* generators) against one xorshift64* stream, the filler before 2026-12-03, kept here
 * only as the baseline. Each round fills 256 rotating 4 KiB direct buffers, as the device engine's slots at QD256.
 * Usage (after {@code ./mvnw -o -pl producer -am test-compile}):
 * {@code taskset -c 1 java -cp producer/target/classes:producer/target/test-classes
 * dev.ssdpulse.producer.device.bench.PatternFillBench [ROUNDS=6] [FILLS=2000000]}
 */
public final class PatternFillBench {
    private PatternFillBench() {}

    private static long singleStreamState = 0x9E3779B97F4A7C15L;

    /** The baseline: each word waits on the previous one's shifts and xors. */
    private static void fillSingleStream(ByteBuffer b, int sizeBytes) {
        long s = singleStreamState;
        for (int i = 0; i + 8 <= sizeBytes; i += 8) {
            s ^= s >>> 12;
            s ^= s << 25;
            s ^= s >>> 27;
            b.putLong(i, s * 0x2545F4914F6CDD1DL);
        }
        singleStreamState = s;
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int fills = args.length > 1 ? Integer.parseInt(args[1]) : 2_000_000;
        int sizeBytes = 4096;
        IoSlot[] slots = new IoSlot[256];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = IoSlot.allocate(sizeBytes, 4096);
        }
        PatternFiller filler = new PatternFiller(DataPattern.incompressible(), 1);
        long checksum = 0;
        for (int round = 1; round <= rounds; round++) {
            long t0 = System.nanoTime();
            for (int j = 0; j < fills; j++) {
                fillSingleStream(slots[j & 255].buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN), sizeBytes);
            }
            long singleNs = System.nanoTime() - t0;
            t0 = System.nanoTime();
            for (int j = 0; j < fills; j++) {
                filler.fill(slots[j & 255], sizeBytes);
            }
            long fourNs = System.nanoTime() - t0;
            checksum += slots[round & 255].buffer.getLong(0);
            System.out.printf(
                    "round %d: one stream %.3f us per 4 KiB, PatternFiller (four) %.3f us, ratio %.2f%n",
                    round, singleNs / 1000.0 / fills, fourNs / 1000.0 / fills, (double) fourNs / singleNs);
        }
        System.out.println("(checksum " + Long.toHexString(checksum) + ")");
    }
}

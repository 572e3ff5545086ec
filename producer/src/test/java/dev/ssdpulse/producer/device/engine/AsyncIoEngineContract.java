package dev.ssdpulse.producer.device.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ssdpulse.producer.device.testing.LoopDevice;
import dev.ssdpulse.producer.workload.DataPattern;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every kernel-queue engine must do, on files and loop devices; one subclass per engine. */
abstract class AsyncIoEngineContract {
    private static final int SIZE = 1 << 20;

    @TempDir
    Path dir;

    /** Null when the engine works on this kernel, else why not (the tests are then skipped, not failed). */
    abstract String unavailableReason();

    abstract AsyncIoEngineBase newEngine(int maxQueueDepth);

    abstract String expectedName();

    @BeforeEach
    void engineAvailable() {
        String why = unavailableReason();
        assumeTrue(why == null, expectedName() + " unavailable here: " + why);
    }

    Path file() throws IOException {
        Path f = dir.resolve("target.dat");
        Files.write(f, new byte[SIZE]);
        return f;
    }

    static void request(IoSlot s, byte op, long offset, int size) {
        s.op = op;
        s.offsetBytes = offset;
        s.sizeBytes = size;
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    /**
     * Runs {@code body} on a new thread, as the device runner runs each phase, waits for it and rethrows what it
     * threw; returns the thread.
     */
    static Thread inThread(ThrowingRunnable body) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable x) {
                failure.set(x);
            }
        });
        t.start();
        t.join();
        if (failure.get() instanceof Exception x) {
            throw x;
        } else if (failure.get() instanceof Error x) {
            throw x;
        }
        return t;
    }

    /** Submits every slot (queued), then reaps until all are back; returns them in completion order. */
    static List<IoSlot> submitAllAndReap(IoEngine e, List<IoSlot> slots) throws InterruptedException {
        for (IoSlot s : slots) {
            assertThat(e.submit(s))
                    .as("an asynchronous engine queues reads and writes")
                    .isFalse();
        }
        List<IoSlot> done = new ArrayList<>();
        IoSlot[] out = new IoSlot[slots.size()];
        while (done.size() < slots.size()) {
            int n = e.reap(out, 1, out.length, 5_000_000_000L);
            assertThat(n).as("completions within 5 s").isPositive();
            done.addAll(Arrays.asList(out).subList(0, n));
        }
        return done;
    }

    @Test
    void queueOf32WritesThenReadsBackTheSameBytes() throws Exception {
        Path f = file();
        int n = 32;
        byte[][] written = new byte[n][4096];
        try (AsyncIoEngineBase e = newEngine(64)) {
            e.open(f, SIZE, true, true);
            assertThat(e.name()).isEqualTo(expectedName());
            assertThat(e.asynchronous()).isTrue();
            assertThat(e.alignmentBytes()).isPositive();
            List<IoSlot> slots = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                IoSlot s = e.allocateSlot(4096);
                new PatternFiller(DataPattern.incompressible(), i + 1).fill(s, 4096);
                s.buffer.duplicate().clear().get(written[i]);
                request(s, IoOpCode.WRITE, (long) (n - 1 - i) * 8192, 4096); // every other 4 KiB block, backwards
                slots.add(s);
            }
            for (IoSlot s : submitAllAndReap(e, slots)) {
                assertThat(s.status).as(String.valueOf(e.lastError())).isZero();
                assertThat(s.completeNanos).isGreaterThanOrEqualTo(s.submitNanos);
            }
            for (int i = 0; i < n; i++) {
                slots.get(i).buffer.duplicate().clear().put(new byte[4096]);
                request(slots.get(i), IoOpCode.READ, (long) (n - 1 - i) * 8192, 4096);
            }
            submitAllAndReap(e, slots).forEach(s -> assertThat(s.status).isZero());
            for (int i = 0; i < n; i++) {
                byte[] read = new byte[4096];
                slots.get(i).buffer.duplicate().clear().get(read);
                assertThat(read).as("slot %d", i).isEqualTo(written[i]);
            }
        }
        byte[] onDisk = Files.readAllBytes(f);
        assertThat(onDisk).hasSize(SIZE);
        byte[] block = new byte[4096];
        System.arraycopy(onDisk, (n - 1) * 8192, block, 0, 4096);
        assertThat(block).isEqualTo(written[0]);
    }

    @Test
    void refusedRequestsCompleteInsideSubmitAndTheQueueIsBounded() throws Exception {
        try (AsyncIoEngineBase e = newEngine(2)) {
            e.open(file(), SIZE, true, true);
            IoSlot s = e.allocateSlot(8192);
            request(s, IoOpCode.READ, SIZE - 4096, 8192);
            assertThat(e.submit(s)).isTrue();
            assertThat(s.status).isEqualTo(IoStatus.EINVAL);
            assertThat(e.lastError()).contains("outside the target");
            request(s, IoOpCode.READ, 100, 4096);
            assertThat(e.submit(s)).isTrue();
            assertThat(s.status).isEqualTo(IoStatus.EINVAL);
            assertThat(e.lastError()).contains("O_DIRECT needs offsets");
            request(s, IoOpCode.FLUSH, 0, 0);
            assertThat(e.submit(s)).as("FLUSH is fdatasync, done in submit").isTrue();
            assertThat(s.status).isZero();

            IoSlot a = e.allocateSlot(4096);
            IoSlot b = e.allocateSlot(4096);
            IoSlot c = e.allocateSlot(4096);
            request(a, IoOpCode.READ, 0, 4096);
            request(b, IoOpCode.READ, 4096, 4096);
            request(c, IoOpCode.READ, 8192, 4096);
            assertThat(e.submit(a)).isFalse();
            assertThat(e.submit(b)).isFalse();
            assertThatThrownBy(() -> e.submit(c))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("more than 2 I/Os outstanding");
            IoSlot[] out = new IoSlot[2];
            int got = 0;
            while (got < 2) {
                got += e.reap(out, 2 - got, 2 - got, 5_000_000_000L);
            }
            assertThat(e.reap(out, 1, 2, 0))
                    .as("nothing outstanding: returns at once")
                    .isZero();
        }
    }

    @Test
    void aReapOfAtMostZeroSubmitsAndReturnsNothing() throws Exception {
        try (AsyncIoEngineBase e = newEngine(8)) {
            e.open(file(), SIZE, true, false);
            List<IoSlot> slots = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                IoSlot s = e.allocateSlot(4096);
                request(s, IoOpCode.READ, 4096L * i, 4096);
                assertThat(e.submit(s)).isFalse();
                slots.add(s);
            }
            IoSlot[] out = new IoSlot[8];
            assertThat(e.reap(out, 0, 0, 0)).isZero();
            assertThat(out).containsOnlyNulls();
            for (IoSlot s : slots) {
                assertThat(s.submitNanos)
                        .as("stamped when handed to the kernel")
                        .isPositive();
            }
            int got = 0;
            while (got < 8) {
                int n = e.reap(out, 1, 8 - got, 5_000_000_000L);
                assertThat(n).as("completions within 5 s").isPositive();
                for (int i = 0; i < n; i++) {
                    assertThat(out[i].status).as(String.valueOf(e.lastError())).isZero();
                }
                got += n;
            }
        }
    }

    @Test
    void eachPhaseMayUseTheEngineFromItsOwnThread() throws Exception {
        // the device runner opens the engine on one thread and starts a submitting thread per phase
        try (AsyncIoEngineBase e = newEngine(4)) {
            e.open(file(), SIZE, true, false);
            IoSlot s = e.allocateSlot(4096);
            for (int phase = 0; phase < 3; phase++) {
                long offset = 4096L * phase;
                inThread(() -> {
                    request(s, IoOpCode.READ, offset, 4096);
                    submitAllAndReap(e, List.of(s));
                });
                assertThat(s.status).as(String.valueOf(e.lastError())).isZero();
            }
        }
    }

    @Test
    void queueDepthOneWorks() throws Exception {
        for (int i = 0; i < 20; i++) { // a fresh engine each time: the native allocations land at other addresses
            try (AsyncIoEngineBase e = newEngine(1)) {
                e.open(file(), SIZE, true, false);
                IoSlot s = e.allocateSlot(4096);
                request(s, IoOpCode.READ, 4096L * i, 4096);
                submitAllAndReap(e, List.of(s));
                assertThat(s.status).isZero();
            }
        }
    }

    @Test
    void trimPunchesAHoleSynchronously() throws Exception {
        Path f = dir.resolve("ones.dat");
        byte[] ones = new byte[SIZE];
        Arrays.fill(ones, (byte) 1);
        Files.write(f, ones);
        try (AsyncIoEngineBase e = newEngine(4)) {
            e.open(f, SIZE, true, true);
            IoSlot s = e.allocateSlot(4096);
            request(s, IoOpCode.TRIM, 65536, 65536);
            assertThat(e.submit(s)).isTrue();
            assertThat(s.status).as(String.valueOf(e.lastError())).isZero();
        }
        byte[] after = Files.readAllBytes(f);
        assertThat(after[65536]).isZero();
        assertThat(after[65535]).isEqualTo((byte) 1);
        assertThat(after[131072]).isEqualTo((byte) 1);
    }

    @Test
    void siblingOpensTheSameTargetWithItsOwnQueue() throws Exception {
        try (AsyncIoEngineBase e = newEngine(4)) {
            e.open(file(), SIZE, true, false);
            try (IoEngine sibling = e.openSibling()) {
                assertThat(sibling.name()).isEqualTo(expectedName());
                assertThat(sibling.maxQueueDepth()).isEqualTo(4);
                IoSlot s = sibling.allocateSlot(4096);
                request(s, IoOpCode.READ, 0, 4096);
                submitAllAndReap(sibling, List.of(s));
                assertThat(s.status).isZero();
            }
        }
    }

    /**
     * As fio decides by the target's type: a block device is opened without access-time updates (O_NOATIME, which
     * spares each read the kernel's atime check), a regular file with them. Where the kernel refuses O_NOATIME
     * (EPERM: the caller neither owns the device node nor holds CAP_FOWNER, e.g. a user in group disk), the device
     * opens without it and the I/O runs all the same. The refusal is provoked on a private node for the same device,
     * made in the test's directory and given to another user, so the system's /dev node is never changed.
     */
    @Test
    void aBlockDeviceIsOpenedWithoutAccessTimeUpdatesWhereTheKernelAllows() throws Exception {
        try (AsyncIoEngineBase e = newEngine(1)) {
            e.open(file(), SIZE, true, false);
            assertThat(opensWithoutAccessTime(e))
                    .as("a regular file keeps its access time, as with fio")
                    .isFalse();
        }
        assumeTrue("root".equals(System.getProperty("user.name")), "the owner checks below assume root");
        try (LoopDevice loop = LoopDevice.attach(dir.resolve("disk.img"), new byte[SIZE], false)) {
            try (AsyncIoEngineBase e = newEngine(1)) {
                e.open(loop.path(), SIZE, true, false);
                assertThat(opensWithoutAccessTime(e))
                        .as(loop.path() + " opened with O_NOATIME")
                        .isTrue();
            }
            // another user's node: O_NOATIME then needs CAP_FOWNER
            Path node = loop.nodeOwnedBy(dir.resolve("other-users-node"), 65534);
            ThreadCapabilities.inThreadWithout(ThreadCapabilities.CAP_FOWNER, () -> {
                try (AsyncIoEngineBase e = newEngine(1)) {
                    e.open(node, SIZE, true, false);
                    assertThat(opensWithoutAccessTime(e))
                            .as("refused O_NOATIME: opened without it")
                            .isFalse();
                    IoSlot s = e.allocateSlot(4096);
                    request(s, IoOpCode.READ, 4096, 4096);
                    submitAllAndReap(e, List.of(s));
                    assertThat(s.status).as(String.valueOf(e.lastError())).isZero();
                }
            });
        }
    }

    /** Whether the engine's descriptor has O_NOATIME, from the flags the kernel lists in /proc/self/fdinfo (octal). */
    private static boolean opensWithoutAccessTime(AsyncIoEngineBase e) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo", String.valueOf(e.fd)))) {
            if (line.startsWith("flags:")) {
                return (Integer.parseInt(line.substring("flags:".length()).trim(), 8) & LinuxNative.O_NOATIME) != 0;
            }
        }
        throw new IllegalStateException("no flags line in /proc/self/fdinfo/" + e.fd);
    }

    @Test
    void onALoopDeviceWritesReachTheBackingImage() throws Exception {
        int size = 4 << 20;
        Path image = dir.resolve("disk.img");
        byte[] written = new byte[4096];
        try (LoopDevice loop = LoopDevice.attach(image, new byte[size], false);
                AsyncIoEngineBase e = newEngine(8)) {
            e.open(loop.path(), size, true, true);
            List<IoSlot> slots = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                IoSlot s = e.allocateSlot(4096);
                new PatternFiller(DataPattern.incompressible(), 7).fill(s, 4096);
                request(s, IoOpCode.WRITE, (long) i * 4096 * 16, 4096);
                slots.add(s);
            }
            slots.get(0).buffer.duplicate().clear().get(written);
            submitAllAndReap(e, slots)
                    .forEach(s -> assertThat(s.status)
                            .as(String.valueOf(e.lastError()))
                            .isZero());
        }
        byte[] onDisk = Files.readAllBytes(image);
        byte[] block = new byte[4096];
        System.arraycopy(onDisk, 0, block, 0, 4096);
        assertThat(block).isEqualTo(written);
    }
}

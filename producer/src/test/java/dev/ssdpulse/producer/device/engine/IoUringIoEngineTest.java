package dev.ssdpulse.producer.device.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.workload.DataPattern;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class IoUringIoEngineTest extends AsyncIoEngineContract {
    @Override
    String unavailableReason() {
        return IoUringIoEngine.unavailableReason();
    }

    @Override
    AsyncIoEngineBase newEngine(int maxQueueDepth) {
        return new IoUringIoEngine(maxQueueDepth);
    }

    @Override
    String expectedName() {
        return "io_uring";
    }

    /**
     * The runner calls bindSubmitter at the start of each phase's thread: the ring must then belong to that
     * thread before its first submit, so the submit path never meets a new thread (see IoEngine#bindSubmitter).
     */
    @Test
    void bindSubmitterHandsTheRingToTheCallingThreadBeforeItsFirstSubmit() throws Exception {
        try (IoUringIoEngine e = new IoUringIoEngine(2)) {
            e.open(file(), 1 << 20, true, false);
            IoSlot s = e.allocateSlot(4096);
            request(s, IoOpCode.READ, 0, 4096);
            submitAllAndReap(e, List.of(s));
            assertThat(e.issuer()).isSameAs(Thread.currentThread());

            AtomicReference<Thread> boundTo = new AtomicReference<>();
            Thread phase = inThread(() -> {
                e.bindSubmitter();
                boundTo.set(e.issuer());
                request(s, IoOpCode.READ, 4096, 4096);
                submitAllAndReap(e, List.of(s));
            });
            assertThat(boundTo.get())
                    .as("bound by bindSubmitter, before any submit")
                    .isSameAs(phase);
            assertThat(s.status).as(String.valueOf(e.lastError())).isZero();
        }
    }

    /**
     * Requests name the registered file and each slot's registered buffer by index (READ_FIXED / WRITE_FIXED): a
     * wrong index would move another slot's bytes, so every block is checked on the file and read back.
     */
    @Test
    void requestsUseTheRegisteredFileAndEachSlotsRegisteredBuffer() throws Exception {
        Path f = file();
        int n = 8;
        byte[][] written = new byte[n][4096];
        try (IoUringIoEngine e = new IoUringIoEngine(n)) {
            e.open(f, 1 << 20, true, true);
            List<IoSlot> slots = slotsWritingOnePatternBlockEach(e, 4096, 100, written);
            e.bindSubmitter();
            assertThat(e.registrationRefusal()).isNull();
            assertThat(e.fileRegistered()).isTrue();
            assertThat(e.registeredBufferCount()).isEqualTo(n);
            assertThat(slots).extracting(s -> s.fixedBufferIndex).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
            writeThenReadBackInReverseSlotOrder(e, slots, written);
        }
        assertBlocksOnFile(f, written);
    }

    /**
     * A new phase registers its own slots; a slot of the phase before is no longer in the registration, and its
     * old index now names another slot's buffer, so it must go as a plain WRITE with its own address.
     */
    @Test
    void aSlotFromAnEarlierRegistrationIsWrittenFromItsOwnBuffer() throws Exception {
        Path f = file();
        byte[] oldBytes = new byte[4096];
        try (IoUringIoEngine e = new IoUringIoEngine(4)) {
            e.open(f, 1 << 20, true, true);
            IoSlot old = e.allocateSlot(4096);
            inThread(() -> {
                e.bindSubmitter();
                assertThat(e.registeredBufferCount()).isEqualTo(1);
                request(old, IoOpCode.READ, 0, 4096);
                submitAllAndReap(e, List.of(old));
            });
            IoSlot next = e.allocateSlot(4096);
            IoSlot other = e.allocateSlot(4096);
            new PatternFiller(DataPattern.incompressible(), 1).fill(old, 4096);
            new PatternFiller(DataPattern.incompressible(), 2).fill(next, 4096);
            old.buffer.duplicate().clear().get(oldBytes);
            inThread(() -> {
                e.bindSubmitter();
                assertThat(e.registeredBufferCount())
                        .as("the new phase's slots")
                        .isEqualTo(2);
                assertThat(next.fixedBufferIndex).isEqualTo(old.fixedBufferIndex);
                request(old, IoOpCode.WRITE, 65536, 4096);
                request(next, IoOpCode.WRITE, 131072, 4096);
                submitAllAndReap(e, List.of(old, next))
                        .forEach(s -> assertThat(s.status)
                                .as(String.valueOf(e.lastError()))
                                .isZero());
            });
            assertThat(other.fixedBufferIndex).isEqualTo(1);
        }
        byte[] onDisk = Files.readAllBytes(f);
        assertThat(Arrays.copyOfRange(onDisk, 65536, 65536 + 4096)).isEqualTo(oldBytes);
    }

    /**
     * Registered buffers are locked memory: where the kernel refuses them (a user without CAP_IPC_LOCK whose
     * RLIMIT_MEMLOCK is below the slots' size), the engine says why and its requests go as plain READ / WRITE from
     * each slot's own buffer, with the same bytes. The test runs on a new thread without CAP_IPC_LOCK in its
     * effective set (capabilities are per thread; the kernel checks the ring creator's) and registers more than the
     * limit.
     */
    @Test
    void refusedBufferRegistrationIsReportedAndRequestsGoUnregistered() throws Exception {
        int slotBytes = 1 << 20;
        int n = LockedMemory.buffersOverTheLimit(slotBytes);
        long memlockBytes = LockedMemory.memlockLimitBytes();
        Path f = file();
        byte[][] written = new byte[n][4096];
        ThreadCapabilities.inThreadWithout(ThreadCapabilities.CAP_IPC_LOCK, () -> {
            try (IoUringIoEngine e = new IoUringIoEngine(n)) {
                e.open(f, 1 << 20, true, true);
                List<IoSlot> slots = slotsWritingOnePatternBlockEach(e, slotBytes, 300, written);
                e.bindSubmitter();
                assertThat(e.registrationRefusal())
                        .as(n + " MiB of buffers against RLIMIT_MEMLOCK " + memlockBytes + " bytes")
                        .contains("registering " + n + " buffers: errno 12 (ENOMEM")
                        .contains("RLIMIT_MEMLOCK is too low");
                assertThat(e.registeredBufferCount()).isZero();
                assertThat(e.fileRegistered())
                        .as("a registered file locks no memory")
                        .isTrue();
                writeThenReadBackInReverseSlotOrder(e, slots, written);
            }
        });
        assertBlocksOnFile(f, written);
    }

    /**
     * One slot of {@code slotBytes} per row of {@code written}, each filled with its own pattern (seeded from
     * {@code seed}) and set to write its first 4 KiB to block i; the bytes go to {@code written[i]}.
     */
    private static List<IoSlot> slotsWritingOnePatternBlockEach(
            IoUringIoEngine e, int slotBytes, long seed, byte[][] written) {
        List<IoSlot> slots = new ArrayList<>();
        for (int i = 0; i < written.length; i++) {
            IoSlot s = e.allocateSlot(slotBytes);
            new PatternFiller(DataPattern.incompressible(), seed + i).fill(s, 4096);
            s.buffer.duplicate().clear().limit(4096).get(written[i]);
            request(s, IoOpCode.WRITE, (long) i * 4096, 4096);
            slots.add(s);
        }
        return slots;
    }

    /**
     * Submits the slots' writes, then has slot i read block n-1-i into its cleared buffer and checks the bytes: a
     * request that used another slot's buffer (a wrong registered index) reads or writes the wrong block.
     */
    private static void writeThenReadBackInReverseSlotOrder(IoUringIoEngine e, List<IoSlot> slots, byte[][] written)
            throws InterruptedException {
        int n = slots.size();
        submitAllAndReap(e, slots)
                .forEach(s ->
                        assertThat(s.status).as(String.valueOf(e.lastError())).isZero());
        for (int i = 0; i < n; i++) {
            slots.get(i).buffer.duplicate().clear().limit(4096).put(new byte[4096]);
            request(slots.get(i), IoOpCode.READ, (long) (n - 1 - i) * 4096, 4096);
        }
        submitAllAndReap(e, slots).forEach(s -> assertThat(s.status).isZero());
        for (int i = 0; i < n; i++) {
            byte[] read = new byte[4096];
            slots.get(i).buffer.duplicate().clear().limit(4096).get(read);
            assertThat(read).as("slot %d read block %d", i, n - 1 - i).isEqualTo(written[n - 1 - i]);
        }
    }

    private static void assertBlocksOnFile(Path f, byte[][] written) throws IOException {
        byte[] onDisk = Files.readAllBytes(f);
        for (int i = 0; i < written.length; i++) {
            assertThat(Arrays.copyOfRange(onDisk, i * 4096, (i + 1) * 4096))
                    .as("block %d", i)
                    .isEqualTo(written[i]);
        }
    }
}

package dev.ssdpulse.producer.device.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ThreadAffinityTest {
    @Test
    void pinsTheCallingThreadOnlyAndTheKernelReportsIt() throws Exception {
        assumeTrue(ThreadAffinity.unavailableReason() == null, () -> ThreadAffinity.unavailableReason());
        BitSet before = ThreadAffinity.allowedCpus();
        assertThat(before.cardinality()).isGreaterThan(0);
        int last = before.length() - 1;
        AtomicReference<Object> inThread = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                ThreadAffinity.pinCurrentThread(CpuList.parse(Integer.toString(last)));
                inThread.set(ThreadAffinity.allowedCpus());
            } catch (Exception e) {
                inThread.set(e);
            }
        });
        t.start();
        t.join();
        BitSet only = new BitSet();
        only.set(last);
        assertThat(inThread.get()).isEqualTo(only);
        assertThat(ThreadAffinity.allowedCpus())
                .as("the test's own thread is untouched")
                .isEqualTo(before);
    }

    @Test
    void aCpuThatIsNotThereIsRefusedWithTheReason() throws Exception {
        assumeTrue(ThreadAffinity.unavailableReason() == null, () -> ThreadAffinity.unavailableReason());
        assumeTrue(!ThreadAffinity.allowedCpus().get(CpuList.MAX_CPU_ID));
        AtomicReference<Exception> refused = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                ThreadAffinity.pinCurrentThread(CpuList.parse(Integer.toString(CpuList.MAX_CPU_ID)));
            } catch (Exception e) {
                refused.set(e);
            }
        });
        t.start();
        t.join();
        assertThat(refused.get())
                .hasMessageContaining("cannot pin the I/O thread to CPUs 4095: errno 22 (EINVAL)")
                .hasMessageContaining("none of them is online");
    }
}

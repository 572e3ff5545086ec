package dev.ssdpulse.producer.naming;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestNameTest {
    private static final List<String> DRIVES =
            List.of("nvme-tlc-1tb", "sata-240gb", "sata-mlc-120gb-2012", "sata-mlc-128gb-2012-marvell", "tiny-test");

    @Test
    void aTruncatedOrMistypedNameFindsItsPreset() {
        assertThat(NearestName.among("sata-240", DRIVES)).contains("sata-240gb");
        assertThat(NearestName.among("nvme-tlc-1TB", DRIVES)).contains("nvme-tlc-1tb");
        assertThat(NearestName.among("tinytest", DRIVES)).contains("tiny-test");
        assertThat(NearestName.among("snia-pts-iosp", List.of("snia-pts-iops", "snia-pts-wsat", "snia-pts-hir")))
                .contains("snia-pts-iops");
        assertThat(NearestName.among("seed001-tweakers", List.of("seed001-tweakers-continuous", "seed003-mixed-80-20")))
                .contains("seed001-tweakers-continuous");
    }

    @Test
    void anUnrelatedWordGetsNoSuggestion() {
        assertThat(NearestName.among("banana", DRIVES)).isEmpty();
        assertThat(NearestName.among("", DRIVES)).isEmpty();
    }

    @Test
    void distanceCountsATranspositionAsOneEdit() {
        assertThat(NearestName.distance("iosp", "iops")).isEqualTo(1);
        assertThat(NearestName.distance("kitten", "sitting")).isEqualTo(3);
    }
}

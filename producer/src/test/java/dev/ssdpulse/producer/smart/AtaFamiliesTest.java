package dev.ssdpulse.producer.smart;

import static dev.ssdpulse.producer.smart.Fixtures.sataReading;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** ATA drives through smartctl: each drive-database family's write counters, their units and the WA they give. */
class AtaFamiliesTest {
    static final long MIB32 = 32L << 20;
    static final long GIB = 1L << 30;

    @Test
    void sandForce233IsNandAnd241IsHostInGiB() throws Exception {
        SmartReading r = sataReading("smartctl-ata-sandforce.json");
        assertThat(r.source()).isEqualTo(SmartReading.Source.SMARTCTL);
        assertThat(r.drive()).isEqualTo("KINGSTON SV300S37A120G (SandForce Driven SSDs)");
        assertThat(r.wa())
                .isEqualTo(new WaBasis(
                        "B",
                        4400 * GIB,
                        GIB,
                        6144 * GIB,
                        GIB,
                        List.of("smartctl: 241 Lifetime_Writes_GiB"),
                        List.of("smartctl: 233 SandForce_Internal")));
        assertThat(r.hostBytesRead()).isEqualTo(3100 * GIB);
        assertThat((double) r.wa().nandWrites() / r.wa().hostWrites()).isCloseTo(1.396, Offset.offset(0.001));
        assertThat(r.waAvailability().available()).isTrue();
    }

    @Test
    void intel520Counts32MiBOfHostWritesAnd1GiBOfNandWrites() throws Exception {
        SmartReading r = sataReading("smartctl-ata-intel-520.json");
        assertThat(r.wa().hostWrites()).isEqualTo(140_800 * MIB32);
        assertThat(r.wa().hostResolution()).isEqualTo(MIB32);
        assertThat(r.wa().nandWrites()).isEqualTo(6160 * GIB);
        assertThat(r.wa().nandResolution()).isEqualTo(GIB);
        assertThat(r.nandBytesWritten()).isEqualTo(6160 * GIB);
        assertThat(r.counters())
                .extracting(SmartCounter::source)
                .contains("smartctl: 225 Host_Writes_32MiB", "smartctl: 241 Host_Writes_32MiB")
                .doesNotContain("smartctl: 233 Media_Wearout_Indicator");
    }

    @Test
    void intelDataCentreDrivesCountNandIn32MiB() throws Exception {
        SmartReading r = sataReading("smartctl-ata-intel-s3520.json");
        assertThat(r.wa().nandWrites()).isEqualTo(1_830_000 * MIB32);
        assertThat(r.wa().nandResolution()).isEqualTo(MIB32);
        assertThat(r.wa().nandSources()).containsExactly("smartctl: 243 NAND_Writes_32MiB");
    }

    @Test
    void samsungHostWritesAreLbasAndTheNandCounterDependsOnTheModel() throws Exception {
        SmartReading evo = sataReading("smartctl-ata-samsung-860.json");
        assertThat(evo.hostBytesWritten()).isEqualTo(98_765_432_100L * 512);
        assertThat(evo.eraseCount()).isEqualTo(42);
        assertThat(evo.wa()).isNull();
        assertThat(evo.waAvailability().reason()).isEqualTo("WA unavailable: no NAND-writes counter");

        SmartReading pm871 = sataReading("smartctl-ata-samsung-pm871.json");
        assertThat(pm871.wa().hostWrites()).isEqualTo(7_047_938_048L * 512);
        assertThat(pm871.wa().hostResolution()).isEqualTo(512);
        assertThat(pm871.wa().nandWrites()).isEqualTo(5040 * GIB);

        SmartReading pm863 = sataReading("smartctl-ata-samsung-pm863.json");
        assertThat(pm863.wa()).isNull();
        assertThat(pm863.counters())
                .filteredOn(c -> c.role() == CounterRole.NAND_WRITES)
                .singleElement()
                .satisfies(c -> assertThat(c.unit()).isEqualTo(CounterUnit.UNKNOWN));
        assertThat(pm863.waNote())
                .isEqualTo("smartctl: 251 NAND_Writes counts NAND writes in a unit nothing published gives, so WA is"
                        + " not computed from it");
    }

    @Test
    void crucialAndMicronCountNandPagesAndWaIsHostPagesPlusBackgroundPagesOverHostPages() throws Exception {
        SmartReading mx500 = sataReading("smartctl-ata-crucial-mx500.json");
        assertThat(mx500.wa())
                .isEqualTo(new WaBasis(
                        "NAND page",
                        330_000_000L,
                        1,
                        330_000_000L + 495_000_000L,
                        2,
                        List.of("smartctl: 247 Host_Program_Page_Count"),
                        List.of("smartctl: 247 Host_Program_Page_Count", "smartctl: 248 FTL_Program_Page_Count")));
        assertThat((double) mx500.wa().nandWrites() / mx500.wa().hostWrites()).isEqualTo(2.5);
        // the host's own counter stays in bytes for the record; the NAND side has no byte size
        assertThat(mx500.hostBytesWritten()).isEqualTo(21_474_836_480L * 512);
        assertThat(mx500.nandBytesWritten()).isNull();

        SmartReading m5300 = sataReading("smartctl-ata-micron-5300.json");
        assertThat(m5300.wa().unit()).isEqualTo("NAND page");
        assertThat((double) m5300.wa().nandWrites() / m5300.wa().hostWrites()).isEqualTo(1.5);
        assertThat(m5300.wa().nandSources()).contains("smartctl: 248 Bckgnd_Program_Page_Cnt");
    }

    @Test
    void sanDiskNandTotalIsUsedNotItsTlcPart() throws Exception {
        SmartReading r = sataReading("smartctl-ata-sandisk.json");
        assertThat(r.wa().nandWrites()).isEqualTo(9200 * GIB);
        assertThat(r.wa().hostWrites()).isEqualTo(8000 * GIB);
        assertThat(r.counters())
                .filteredOn(c -> c.role() == CounterRole.NAND_WRITES_PART)
                .extracting(SmartCounter::source)
                .containsExactly("smartctl: 249 TLC_NAND_GB_Writes");
    }

    @Test
    void cloudSpeedsOwnWafIsRecordedAndItsNandCounterHasNoUnit() throws Exception {
        SmartReading r = sataReading("smartctl-ata-sandisk-cloudspeed.json");
        assertThat(r.counters())
                .filteredOn(c -> c.role() == CounterRole.DRIVE_WAF)
                .extracting(SmartCounter::source, SmartCounter::value)
                .containsExactly(
                        tuple("smartctl: 32 Lifetime_Write_AmpFctr", BigInteger.valueOf(185)),
                        tuple("smartctl: 33 Write_AmpFctr", BigInteger.valueOf(210)));
        assertThat(r.wa()).isNull();
        assertThat(r.waNote()).startsWith("smartctl: 233 Lifetime_Nand_Writes counts NAND writes in a unit");
    }

    @Test
    void siliconMotionNandWritesAreItsTlcAndSlcWrites() throws Exception {
        SmartReading r = sataReading("smartctl-ata-siliconmotion.json");
        assertThat(r.wa().nandWrites()).isEqualTo((60_000 + 110_000) * MIB32);
        assertThat(r.wa().nandResolution()).isEqualTo(2 * MIB32);
        assertThat(r.wa().hostWrites()).isEqualTo(100_000 * MIB32);
    }

    @Test
    void aDriveTheDatabaseDoesNotKnowGetsUnknownUnitNotAGuess() throws Exception {
        SmartReading r = sataReading("smartctl-ata-unknown-nand.json");
        assertThat(r.drive()).isEqualTo("Generic SSD 256GB (not in smartctl's drive database)");
        assertThat(r.wa()).isNull();
        assertThat(r.waNote()).startsWith("smartctl: 249 Unknown_Attribute counts NAND writes in a unit nothing");
        assertThat(r.toAvro("run").getWaUnit()).isNull();
        assertThat(r.toAvro("run").getWaNote()).isEqualTo(r.waNote());

        SmartReading unitless = sataReading("smartctl-ata-unknown-unit.json");
        assertThat(unitless.hostBytesWritten())
                .as("a host counter without a unit is not guessed")
                .isNull();
        assertThat(unitless.counters()).singleElement().satisfies(c -> {
            assertThat(c.role()).isEqualTo(CounterRole.HOST_WRITES);
            assertThat(c.unit()).isEqualTo(CounterUnit.UNKNOWN);
        });
    }

    @Test
    void smartctlOnNvmeHasHostWritesOnlyAndSaysWhereTheNandCounterWouldComeFrom() throws Exception {
        Fixtures.Runner runner = new Fixtures.Runner().answer("smartctl -j -a", "smartctl-nvme.json");
        SmartPlan plan =
                SmartPlan.probe(Path.of("/dev/nvme0n1"), Optional.empty(), Optional.of(Fixtures.SMARTCTL), runner);
        SmartReading r = plan.poll(7, runner);
        assertThat(r.hostBytesWritten()).isEqualTo(30_123_456L * 512_000L);
        assertThat(r.hostBytesRead()).isEqualTo(21_346_127L * 512_000L);
        assertThat(r.wa()).isNull();
        assertThat(r.waNote()).startsWith("nvme-cli (nvme) is not on the PATH");
        assertThat(r.rawAttributes()).containsEntry("percentage_used", "1");
    }

    @Test
    void theAvroSampleCarriesEveryCounterWithItsSourceAndUnitAndTheWaCounts() throws Exception {
        var sample = sataReading("smartctl-ata-intel-520.json").toAvro("run-1");
        assertThat(sample.getRunId()).isEqualTo("run-1");
        assertThat(sample.getSource().name()).isEqualTo("SMARTCTL");
        assertThat(sample.getCounters()).anySatisfy(c -> {
            assertThat(c.getRole()).isEqualTo("NAND_WRITES");
            assertThat(c.getSource()).isEqualTo("smartctl: 249 NAND_Writes_1GiB");
            assertThat(c.getValue()).isEqualTo("6160");
            assertThat(c.getUnit()).isEqualTo("GiB");
            assertThat(c.getUnitBytes()).isEqualTo(GIB);
        });
        assertThat(sample.getWaUnit()).isEqualTo("B");
        assertThat(sample.getWaHostWrites()).isEqualTo(140_800 * MIB32);
        assertThat(sample.getWaHostResolution()).isEqualTo(MIB32);
        assertThat(sample.getWaNandWrites()).isEqualTo(6160 * GIB);
        assertThat(sample.getWaNandResolution()).isEqualTo(GIB);
        assertThat(sample.getWaNote()).isNull();
        assertThat(sample.getRawAttributes()).containsEntry("249 NAND_Writes_1GiB", "6160");
    }
}

package dev.ssdpulse.producer.sim.ftl.power;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.integrity.UnitStamp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnitVersionsTest {
    private static final long MS = 1_000_000L;
    /** A map checkpoint every 100 ms. */
    private static final long CHECKPOINT_NS = 100 * MS;

    private static List<String> read(PowerCut cut, long first, long count) {
        List<String> out = new ArrayList<>();
        cut.forRun(7)
                .read(
                        new long[] {first, count},
                        (lba, o) -> out.add(
                                o.state == UnitStamp.State.STAMPED
                                        ? lba + ":" + o.sequence + (o.runHash == 7 ? "" : "?")
                                        : lba + ":0"));
        return out;
    }

    @Test
    void withProtectionEveryBufferedUnitHoldsItsLatestVersionProgrammedOrNot() {
        UnitVersions v = new UnitVersions(1 << 20, 2, CHECKPOINT_NS);
        v.buffered(10, 1, 5 * MS, 0);
        v.buffered(11, 1, 5 * MS, 0);
        v.programmed(0, 2, 7 * MS);
        v.buffered(10, 2, 150 * MS, 1); // in the buffer at the cut, after a checkpoint
        v.buffered(12, 3, 160 * MS, 1);
        PowerCut cut = v.cut(170 * MS, true);
        assertThat(read(cut, 10, 3)).containsExactly("10:2", "11:1", "12:3");
        assertThat(cut.account()).isEqualTo(new PowerCut.Account(3, 2, 3, 0, 0));
    }

    @Test
    void withoutProtectionTheBufferIsLostAndTheMapRollsBackToTheLastCheckpoint() {
        UnitVersions v = new UnitVersions(1 << 20, 2, CHECKPOINT_NS);
        // interval 0: three units written, two programmed
        v.buffered(10, 1, 5 * MS, 0);
        v.buffered(11, 1, 5 * MS, 0);
        v.buffered(12, 2, 6 * MS, 1);
        v.programmed(0, 2, 8 * MS);
        // interval 1 (the cut's): unit 10 rewritten and programmed, unit 13 first written and programmed
        v.buffered(10, 3, 120 * MS, 0);
        v.buffered(13, 3, 120 * MS, 0);
        v.programmed(0, 2, 125 * MS);
        PowerCut cut = v.cut(130 * MS, false);
        // 10: rolled back to write 1; 11: intact; 12: never programmed, so no checkpoint persisted its mapping; 13:
        // first written since the checkpoint, rolled back to nothing
        assertThat(read(cut, 10, 4)).containsExactly("10:1", "11:1", "12:0", "13:0");
        assertThat(cut.account()).isEqualTo(new PowerCut.Account(4, 1, 1, 1, 2));
        // a checkpoint later (the cut in interval 2) the same writes survive as written, but for the buffer's
        assertThat(read(v.cut(230 * MS, false), 10, 4)).containsExactly("10:3", "11:1", "12:0", "13:3");
        assertThat(v.cut(230 * MS, false).account()).isEqualTo(new PowerCut.Account(4, 1, 3, 0, 1));
    }

    @Test
    void aFlushWritesTheOpenPageOutSoItsUnitsSurviveBeforeTheirPageIsProgrammed() {
        UnitVersions v = new UnitVersions(1 << 20, 2, CHECKPOINT_NS);
        v.buffered(20, 1, 5 * MS, 1);
        v.buffered(21, 1, 5 * MS, 1);
        v.padded(1, 9 * MS);
        assertThat(v.hasPending(1)).isTrue();
        assertThat(read(v.cut(150 * MS, false), 20, 2)).containsExactly("20:1", "21:1");
        // the page program later leaves them durable at the earlier time
        v.buffered(22, 2, 10 * MS, 1);
        v.programmed(1, 3, 150 * MS);
        assertThat(v.hasPending(1)).isFalse();
        assertThat(read(v.cut(120 * MS, false), 20, 3)).containsExactly("20:1", "21:1", "22:0");
    }

    @Test
    void aFlushCheckpointsTheMapSoWhatCameBeforeItDoesNotRollBack() {
        UnitVersions v = new UnitVersions(1 << 20, 1, CHECKPOINT_NS);
        v.buffered(30, 1, 110 * MS, 0);
        v.buffered(31, 1, 110 * MS, 0);
        v.padded(0, 112 * MS);
        v.checkpointed(112 * MS);
        v.buffered(32, 2, 115 * MS, 0);
        v.programmed(0, 3, 118 * MS);
        // the cut in the same interval: the FLUSH kept 30 and 31, 32 (after it) rolls back to nothing
        assertThat(read(v.cut(120 * MS, false), 30, 3)).containsExactly("30:1", "31:1", "32:0");
        assertThat(v.cut(120 * MS, false).account()).isEqualTo(new PowerCut.Account(3, 0, 2, 0, 1));
    }

    @Test
    void aTrimmedUnitHoldsNothingAndAnUnwrittenOneNeither() {
        UnitVersions v = new UnitVersions(1 << 20, 1, CHECKPOINT_NS);
        v.buffered(5, 1, 5 * MS, 0);
        v.programmed(0, 1, 6 * MS);
        v.trimmed(5, 150 * MS);
        assertThat(v.latestSequence(5)).isEqualTo(UnitVersions.TRIMMED);
        assertThat(read(v.cut(160 * MS, true), 4, 2)).containsExactly("4:0", "5:0");
        // without protection the TRIM rolls back with the map: the write is there again
        assertThat(read(v.cut(160 * MS, false), 5, 1)).containsExactly("5:1");
    }

    @Test
    void theOpenPagesKeepTheirUnitsInOrderAcrossManyPages() {
        UnitVersions v = new UnitVersions(1 << 20, 1, CHECKPOINT_NS);
        for (int page = 0; page < 100; page++) {
            for (int u = 0; u < 4; u++) {
                v.buffered(page * 4L + u, page, MS, 0);
            }
            if (page < 99) {
                v.programmed(0, 4, 2 * MS);
            }
        }
        // everything but the last page reached flash
        PowerCut cut = v.cut(150 * MS, false);
        assertThat(cut.account()).isEqualTo(new PowerCut.Account(400, 4, 396, 0, 4));
        assertThat(read(cut, 392, 8))
                .containsExactly("392:98", "393:98", "394:98", "395:98", "396:0", "397:0", "398:0", "399:0");
    }
}

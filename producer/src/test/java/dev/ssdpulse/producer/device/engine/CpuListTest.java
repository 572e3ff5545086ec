package dev.ssdpulse.producer.device.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

class CpuListTest {
    @Test
    void parsesFiosSyntaxIntoTheSetOfCpus() {
        assertThat(CpuList.parse("1").toBitSet()).isEqualTo(bits(1));
        assertThat(CpuList.parse("0-3").toBitSet()).isEqualTo(bits(0, 1, 2, 3));
        assertThat(CpuList.parse(" 0, 2 ,4-5,5").toBitSet()).isEqualTo(bits(0, 2, 4, 5));
        assertThat(CpuList.parse("4095").toBitSet()).isEqualTo(bits(4095));
    }

    @Test
    void printsTheCanonicalForm() {
        assertThat(CpuList.parse("7,0-3,5,6").toString()).isEqualTo("0-3,5-7");
        assertThat(CpuList.parse("1,2").toString()).isEqualTo("1,2");
        assertThat(CpuList.parse("3,1").toString()).isEqualTo("1,3");
        assertThat(CpuList.parse("0-1,0-1")).isEqualTo(CpuList.parse("0,1"));
    }

    @Test
    void namesWhatIsMissingFromTheAvailableCpus() {
        assertThat(CpuList.parse("0-5").missingFrom(bits(0, 1))).isEqualTo("2-5");
        assertThat(CpuList.parse("1").missingFrom(bits(0, 1))).isEmpty();
    }

    @Test
    void refusesWhatIsNotAListOfCpuIdsSayingWhichPart() {
        assertThatThrownBy(() -> CpuList.parse("")).hasMessageContaining("at least one CPU");
        assertThatThrownBy(() -> CpuList.parse("1,,2")).hasMessageContaining("empty entry in CPU list '1,,2'");
        assertThatThrownBy(() -> CpuList.parse("a")).hasMessageContaining("'a' in CPU list 'a' is not a CPU id");
        assertThatThrownBy(() -> CpuList.parse("-1")).hasMessageContaining("is not a CPU id");
        assertThatThrownBy(() -> CpuList.parse("3-1")).hasMessageContaining("CPU range 3-1 in '3-1' runs backwards");
        assertThatThrownBy(() -> CpuList.parse("4096")).hasMessageContaining("CPU id 4096 in '4096' is above 4095");
        assertThatThrownBy(() -> CpuList.parse("99999999999")).hasMessageContaining("is not a CPU id");
    }

    private static BitSet bits(int... ids) {
        BitSet b = new BitSet();
        for (int id : ids) {
            b.set(id);
        }
        return b;
    }
}

package dev.ssdpulse.streams.resultsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.streams.topology.StoreKeys;
import org.junit.jupiter.api.Test;

class ResultSetNamesTest {
    @Test
    void aliasesRoundTripAndSortApartFromTheRunsKeys() {
        String alias = ResultSetNames.alias("sim-1", "w10s");
        assertThat(alias).isEqualTo("sim-1@w10s");
        assertThat(ResultSetNames.isAlias(alias)).isTrue();
        assertThat(ResultSetNames.isAlias("sim-1")).isFalse();
        assertThat(ResultSetNames.runIdOf(alias)).isEqualTo("sim-1");
        // every alias of a run lies in [aliasesFrom, aliasesTo], none of the run's own keys does
        assertThat(alias).isBetween(ResultSetNames.aliasesFrom("sim-1"), ResultSetNames.aliasesTo("sim-1"));
        assertThat(ResultSetNames.alias("sim-1", "Z.z_9-"))
                .isBetween(ResultSetNames.aliasesFrom("sim-1"), ResultSetNames.aliasesTo("sim-1"));
        String own = StoreKeys.window("sim-1", 0, 0);
        assertThat(own.compareTo(ResultSetNames.aliasesFrom("sim-1")) < 0
                        || own.compareTo(ResultSetNames.aliasesTo("sim-1")) > 0)
                .isTrue();
        String aliased = StoreKeys.window(alias, 0, 0);
        assertThat(aliased.compareTo(StoreKeys.runPrefix("sim-1")) < 0
                        || aliased.compareTo(StoreKeys.runEnd("sim-1")) > 0)
                .isTrue();
    }

    @Test
    void namesAreValidated() {
        assertThat(ResultSetNames.validate("w10s-snia.60_s")).isEqualTo("w10s-snia.60_s");
        assertThatThrownBy(() -> ResultSetNames.validate("live")).hasMessageContaining("reserved");
        assertThatThrownBy(() -> ResultSetNames.validate("a@b")).hasMessageContaining("letters, digits");
        assertThatThrownBy(() -> ResultSetNames.validate("-x")).hasMessageContaining("starting with");
        assertThatThrownBy(() -> ResultSetNames.validate("x".repeat(65))).hasMessageContaining("1-64");
        assertThatThrownBy(() -> ResultSetNames.validate(null)).hasMessageContaining("result set name");
    }
}

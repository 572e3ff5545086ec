package dev.ssdpulse.cli.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The address a streams instance gives the others: the user's, else its API's bind address when it names one. */
class AdvertisedAddressTest {
    @Test
    void theUsersSettingWins() {
        AdvertisedAddress a = AdvertisedAddress.of("analytics-2.lab:8080", "127.0.0.1", 9000);
        assertThat(a.hostPort()).isEqualTo("analytics-2.lab:8080");
        assertThat(a.derived()).isFalse();
        assertThat(a.httpPort()).isEqualTo(9000);
        assertThat(a.describe())
                .isEqualTo("advertised to other instances as analytics-2.lab:8080 (application.server)");
    }

    @Test
    void aLoopbackBindGivesItsAddressAndPortAndAFreePortIsChosenUpFront() {
        AdvertisedAddress fixed = AdvertisedAddress.of(null, "127.0.0.1", 8080);
        assertThat(fixed.hostPort()).isEqualTo("127.0.0.1:8080");
        assertThat(fixed.derived()).isTrue();
        assertThat(fixed.describe()).contains("derived from --http-bind and --http-port");
        AdvertisedAddress any = AdvertisedAddress.of(" ", "127.0.0.1", 0);
        assertThat(any.httpPort()).isPositive();
        assertThat(any.hostPort()).isEqualTo("127.0.0.1:" + any.httpPort());
    }

    @Test
    void everyAddressOrNoApiGivesNoneAndSaysWhatToSet() {
        AdvertisedAddress all = AdvertisedAddress.of(null, "0.0.0.0", 8080);
        assertThat(all.hostPort()).isNull();
        assertThat(all.describe())
                .startsWith("advertised to other instances: none; the HTTP API listens on every address")
                .contains("-X application.server=HOST:PORT");
        assertThat(AdvertisedAddress.of(null, "::", 8080).hostPort()).isNull();
        assertThat(AdvertisedAddress.of(null, "127.0.0.1", -1).describe()).contains("no HTTP API");
    }
}

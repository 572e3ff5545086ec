package dev.ssdpulse.streams.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BearerTokenTest {
    private final BearerToken token = new BearerToken("s3cret-\u00e9");

    @Test
    void onlyTheExactTokenMatches() {
        assertThat(token.matches("s3cret-\u00e9")).isTrue();
        assertThat(token.matches(null)).isFalse();
        assertThat(token.matches("")).isFalse();
        assertThat(token.matches("s3cret-e")).isFalse();
        assertThat(token.matches("s3cret-\u00e9 ")).isFalse();
        assertThat(token.matches("S3cret-\u00e9")).isFalse();
        assertThat(token.matches("s3cret")).isFalse();
    }

    @Test
    void anEmptyConfiguredTokenStillRefusesAMissingOne() {
        // HttpApiConfig refuses blank tokens; this guards the null-as-empty hashing if that ever changes
        assertThat(new BearerToken("").matches(null)).isFalse();
        assertThat(new BearerToken("").matches("")).isTrue();
    }
}

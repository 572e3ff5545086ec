package dev.ssdpulse.streams.topology;

import org.apache.kafka.streams.errors.StreamsException;

/**
 * The schema registry did not answer (or refused us) while a record was decoded, after retries: the record may be
 * valid, so it is neither dead-lettered nor skipped. The analytics replace the stream thread, which resumes from
 * the last commit, so processing continues by itself once the registry is back.
 */
public final class RegistryUnavailableException extends StreamsException {
    public RegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

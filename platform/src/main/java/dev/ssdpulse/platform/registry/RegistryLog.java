package dev.ssdpulse.platform.registry;

import java.util.List;

/** Where the registry's changes are kept; the registry's state is the replay of this log. */
public interface RegistryLog extends AutoCloseable {

    /** Every record written so far, in write order. */
    List<RegistryRecord> readAll();

    /** Writes one record durably before returning; on failure the registry leaves its state unchanged. */
    void append(RegistryRecord record);

    @Override
    void close();
}

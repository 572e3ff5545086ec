package dev.ssdpulse.platform.registry;

import java.util.ArrayList;
import java.util.List;

/**
 * A registry log that lives only in this process: schemas and ids are lost when it is dropped. For
 * unit tests of serializers and clients that need a real registry but no broker.
 */
public final class InMemoryRegistryLog implements RegistryLog {
    private final List<RegistryRecord> records = new ArrayList<>();

    @Override
    public synchronized List<RegistryRecord> readAll() {
        return List.copyOf(records);
    }

    @Override
    public synchronized void append(RegistryRecord record) {
        records.add(record);
    }

    @Override
    public void close() {
        // nothing held
    }
}

package dev.ssdpulse.platform.kafka;

import java.nio.file.Path;

/**
 * A parent JVM for {@link BrokerOrphanIT}: starts a broker, prints its pid, and waits to be killed.
 * Args: data directory.
 */
public final class BrokerOwnerMain {
    private BrokerOwnerMain() {}

    public static void main(String[] args) throws Exception {
        EmbeddedKafkaBroker broker =
                new EmbeddedKafkaBroker(BrokerSettings.defaults().withDataDir(Path.of(args[0])));
        broker.start();
        System.out.println("BROKER_PID " + broker.processHandle().orElseThrow().pid());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}

package dev.ssdpulse.platform.kafka;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * What a data directory remembers between runs: the cluster id it was formatted with and the ports
 * last used, so a restarted broker comes back at the same address when it can.
 */
record BrokerState(String clusterId, int brokerPort, int controllerPort) {
    static final String FILE_NAME = "ssdpulse-broker.properties";

    /** A state file of a data directory (this one or the cluster's), empty when there is none yet. */
    static Optional<Properties> load(Path file) {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return Optional.of(p);
    }

    static void store(Path file, Properties p, String comment) {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, comment);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    static Optional<BrokerState> read(Path dataDir) {
        Path file = dataDir.resolve(FILE_NAME);
        Optional<Properties> loaded = load(file);
        if (loaded.isEmpty()) {
            return Optional.empty();
        }
        Properties p = loaded.get();
        String clusterId = p.getProperty("cluster.id");
        String broker = p.getProperty("broker.port");
        String controller = p.getProperty("controller.port");
        if (clusterId == null || broker == null || controller == null) {
            throw new IllegalStateException(file + " must hold cluster.id, broker.port and controller.port; found keys "
                    + p.stringPropertyNames() + " (delete the data directory to start afresh)");
        }
        try {
            return Optional.of(new BrokerState(clusterId, Integer.parseInt(broker), Integer.parseInt(controller)));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    file + ": broker.port/controller.port are not numbers: " + broker + ", " + controller, e);
        }
    }

    void write(Path dataDir) {
        Properties p = new Properties();
        p.setProperty("cluster.id", clusterId);
        p.setProperty("broker.port", Integer.toString(brokerPort));
        p.setProperty("controller.port", Integer.toString(controllerPort));
        store(dataDir.resolve(FILE_NAME), p, "ssdpulse embedded broker state");
    }
}

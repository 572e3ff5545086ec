package dev.ssdpulse.cli;

import java.io.IOException;
import java.util.Properties;
import picocli.CommandLine;

/** Version from the jar manifest (Maven fills it in), so {@code --version} never lies. */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {
            "ssdpulse " + (version == null ? "development build" : version),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")",
            "Apache Kafka clients " + kafkaVersion()
        };
    }

    private static String kafkaVersion() {
        try (var in = VersionProvider.class.getResourceAsStream("/kafka/kafka-version.properties")) {
            if (in == null) {
                return "unknown";
            }
            var props = new Properties();
            props.load(in);
            return props.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}

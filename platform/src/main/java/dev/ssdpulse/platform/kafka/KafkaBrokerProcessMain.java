package dev.ssdpulse.platform.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import kafka.Kafka;
import kafka.tools.StorageTool;

/**
 * Entry point of the broker child JVM. It exists so the broker dies with its parent: the parent
 * holds the write end of this process's stdin, and when the parent dies for any reason (kill -9
 * included) the pipe closes, the read below returns EOF, and System.exit runs Kafka's own shutdown
 * hook (a clean shutdown). It also polls the parent pid, in case stdin was redirected elsewhere.
 *
 * <p>Arguments: {@code <server.properties> <parent pid> [--format <cluster id>]}. With --format,
 * the storage is formatted first (the caller passes it only when meta.properties is absent, since a
 * second format of the same directory fails).
 *
 * <p>Named so that its command line matches {@code pgrep -af kafka.Kafka}, the usual check for a
 * leftover broker.
 */
public final class KafkaBrokerProcessMain {
    private static final long PARENT_POLL_MS = 1000;
    /** Storage-format SCRAM credentials, one {@code --add-scram} argument per line; deleted once formatted. */
    static final String SCRAM_FILE = "format-scram.txt";

    private KafkaBrokerProcessMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2 && args.length != 4 && args.length != 6) {
            System.err.println("usage: KafkaBrokerProcessMain <server.properties> <parent pid> [--format <cluster id>"
                    + " [--add-scram-file FILE]]");
            System.exit(2);
        }
        String propertiesFile = args[0];
        long parentPid = Long.parseLong(args[1]);
        watchParent(parentPid);
        if (args.length >= 4) {
            if (!"--format".equals(args[2]) || args.length == 6 && !"--add-scram-file".equals(args[4])) {
                System.err.println("unknown options "
                        + String.join(" ", Arrays.asList(args).subList(2, args.length))
                        + ", expected --format <cluster id> [--add-scram-file FILE]");
                System.exit(2);
            }
            List<String> format = new ArrayList<>(List.of("format", "-t", args[3], "-c", propertiesFile));
            Path scramFile = args.length == 6 ? Path.of(args[5]) : null;
            if (scramFile != null) {
                for (String credential : Files.readAllLines(scramFile)) {
                    if (!credential.isBlank()) {
                        format.add("--add-scram");
                        format.add(credential.trim());
                    }
                }
            }
            int rc = StorageTool.execute(format.toArray(String[]::new), System.out);
            if (scramFile != null) {
                Files.deleteIfExists(scramFile);
            }
            if (rc != 0) {
                System.err.println("kafka storage format failed with exit code " + rc);
                System.exit(rc);
            }
        }
        System.out.println("ssdpulse: starting kafka.Kafka " + propertiesFile);
        Kafka.main(new String[] {propertiesFile});
    }

    private static void watchParent(long parentPid) {
        Thread stdinWatch = new Thread(
                () -> {
                    InputStream in = System.in;
                    byte[] buffer = new byte[256];
                    try {
                        while (in.read(buffer) >= 0) {
                            // The parent never writes; anything read is ignored.
                        }
                    } catch (IOException e) {
                        // A broken pipe means the parent is gone, same as EOF.
                    }
                    exitBecause("stdin closed (parent process gone)");
                },
                "ssdpulse-parent-stdin-watch");
        stdinWatch.setDaemon(true);
        stdinWatch.start();

        Thread pidWatch = new Thread(
                () -> {
                    Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
                    while (parent.isPresent() && parent.get().isAlive()) {
                        try {
                            Thread.sleep(PARENT_POLL_MS);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    exitBecause("parent pid " + parentPid + " is not alive");
                },
                "ssdpulse-parent-pid-watch");
        pidWatch.setDaemon(true);
        pidWatch.start();
    }

    private static void exitBecause(String reason) {
        System.out.println("ssdpulse: broker exiting: " + reason);
        System.out.flush();
        System.exit(0);
    }
}

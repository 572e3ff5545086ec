package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.cli.options.AnalyticsOptions;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.platform.security.StackUser;
import dev.ssdpulse.producer.workload.Units;
import dev.ssdpulse.schemas.topics.TopicSpec;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsApp;
import java.io.InputStream;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code stack --secure} in its own JVM, used by the ssdpulse commands with the client files it writes: the producer
 * user streams a simulated run, a real Kafka Streams instance logged in as the analytics user computes its summary,
 * the reader user reads the report; the producer plays the run back, the analytics user replays it. After a restart
 * the same files still work; the secured data directory is refused to a stack without {@code --secure}. Refused, with a
 * one-line error, a non-zero exit and nothing written to any topic: a client without TLS and credentials, a wrong
 * password, the reader producing a run, the producer reading
 * the derived topics, the registry without basic auth.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SecureStackIT {
    @TempDir
    Path dataDir;

    @TempDir
    Path stateDir;

    @Command(name = "analytics-probe")
    static final class AnalyticsProbe {
        @Mixin
        KafkaOptions kafka;

        @Mixin
        AnalyticsOptions analytics;
    }

    @Test
    void eachUserDoesItsPartAndIsRefusedTheRestWithoutWritingAnything() throws Exception {
        long t0 = System.nanoTime();
        String runId = "it-secure-" + UUID.randomUUID().toString().substring(0, 8);
        Object readerLogin;
        String certificate;
        try (StackCommandIT.RunningStack stack =
                StackCommandIT.RunningStack.start(dataDir, "--secure", "--partitions", "2")) {
            long startedNs = System.nanoTime();
            Path secure = dataDir.resolve("secure");
            Path producer = secure.resolve(StackUser.PRODUCER.propertiesFileName());
            Path analytics = secure.resolve(StackUser.ANALYTICS.propertiesFileName());
            Path reader = secure.resolve(StackUser.READER.propertiesFileName());
            Map<String, Object> admin = load(secure.resolve(StackUser.ADMIN.propertiesFileName()));
            assertThat(String.join("\n", stack.output))
                    .contains("client files      : " + secure)
                    .contains("producer.properties");
            assertThat(stack.registry).startsWith("https://");
            Map<TopicPartition, Long> before = endOffsets(admin);

            // no TLS, no credentials: the brokers never answer such a client
            CliRun plain = CliRun.of(simulate(
                    runId,
                    "--bootstrap-servers",
                    stack.bootstrap,
                    "--schema-registry-url",
                    stack.registry,
                    "-X",
                    "default.api.timeout.ms=4000",
                    "-X",
                    "request.timeout.ms=3000"));
            assertThat(plain.exit()).as(plain.err()).isNotZero();
            assertThat(plain.err())
                    .contains("cannot reach Kafka at " + stack.bootstrap)
                    .contains("--kafka-config");
            assertOneLine(plain);

            CliRun wrongPassword = CliRun.of(simulate(
                    runId,
                    "--kafka-config",
                    producer.toString(),
                    "-X",
                    "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
                            + "username=\"producer\" password=\"guessed\";"));
            assertThat(wrongPassword.exit()).isEqualTo(Main.EXIT_REFUSED);
            assertThat(wrongPassword.err())
                    .contains("Kafka refused the login of user 'producer'")
                    .contains("invalid credentials");
            assertOneLine(wrongPassword);

            CliRun readerProduces = CliRun.of(simulate(runId, "--kafka-config", reader.toString()));
            assertThat(readerProduces.exit()).as(readerProduces.err()).isEqualTo(Main.EXIT_REFUSED);
            assertThat(readerProduces.err()).contains("refused").contains("reader");
            assertOneLine(readerProduces);

            CliRun analyticsProduces = CliRun.of(simulate(runId, "--kafka-config", analytics.toString()));
            assertThat(analyticsProduces.exit()).as(analyticsProduces.err()).isEqualTo(Main.EXIT_REFUSED);
            assertThat(analyticsProduces.err())
                    .contains("Kafka refused user 'analytics' access to topic")
                    .contains(Topics.RUNS.name());
            assertOneLine(analyticsProduces);

            HttpResponse<String> anonymous = HttpClient.newBuilder()
                    .sslContext(trusting(admin))
                    .build()
                    .send(
                            HttpRequest.newBuilder(URI.create(stack.registry + "/subjects"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(anonymous.body()).contains("\"error_code\":40101").contains("requires HTTP basic auth");

            assertThat(endOffsets(admin))
                    .as("nothing written by the refused clients")
                    .isEqualTo(before);

            CliRun run = CliRun.of(simulate(runId, "--kafka-config", producer.toString()));
            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(endOffsets(admin).get(new TopicPartition(Topics.IO.name(), 0))
                            + endOffsets(admin).get(new TopicPartition(Topics.IO.name(), 1)))
                    .isGreaterThan(before.get(new TopicPartition(Topics.IO.name(), 0))
                            + before.get(new TopicPartition(Topics.IO.name(), 1)));

            AnalyticsProbe probe = new AnalyticsProbe();
            // the CLI's converters ("1s" durations), as Main registers them
            new CommandLine(probe)
                    .registerConverter(Duration.class, text -> Duration.ofNanos(Units.parseDurationNs(text)))
                    .parseArgs("--kafka-config", analytics.toString(), "--state-dir", stateDir.toString());
            try (AnalyticsApp app = new AnalyticsApp(probe.analytics.toConfig(probe.kafka))) {
                app.start();
                app.awaitRunning(Duration.ofSeconds(60));
                CliRun[] report = new CliRun[1];
                await("the run's summary, read by the reader")
                        .atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofSeconds(1))
                        .until(() -> (report[0] = CliRun.of(
                                                "report",
                                                "--run",
                                                runId,
                                                "--format",
                                                "json",
                                                "--timeout",
                                                "10s",
                                                "--kafka-config",
                                                reader.toString()))
                                        .exit()
                                == 0);
                assertThat(report[0].out())
                        .contains("\"runId\"")
                        .contains(runId)
                        .contains("COMPLETED");
            }

            // the producer's other command and the analytics' other application, on the same ACLs
            CliRun play = CliRun.of(
                    "play",
                    "--run",
                    runId,
                    "--speed",
                    "1000x",
                    "--new-run-id",
                    runId + "-played",
                    "--kafka-config",
                    producer.toString());
            assertThat(play.exit()).as(play.err()).isZero();
            CliRun replay = CliRun.of(
                    "replay",
                    "--run",
                    runId,
                    "--format",
                    "json",
                    "--timeout",
                    "90s",
                    "--kafka-config",
                    analytics.toString());
            assertThat(replay.exit()).as(replay.err()).isZero();
            assertThat(replay.out()).contains(runId).contains("COMPLETED");

            Map<TopicPartition, Long> afterRun = endOffsets(admin);
            CliRun producerReads =
                    CliRun.of("report", "--run", runId, "--timeout", "10s", "--kafka-config", producer.toString());
            assertThat(producerReads.exit()).as(producerReads.err()).isEqualTo(Main.EXIT_REFUSED);
            assertThat(producerReads.err())
                    .contains("Kafka refused user 'producer' access to topic " + Topics.RUN_SUMMARY.name());
            assertOneLine(producerReads);
            assertThat(endOffsets(admin)).isEqualTo(afterRun);
            System.out.printf(
                    "SecureStackIT: stack up in %.1f s, the rest in %.1f s%n",
                    (startedNs - t0) / 1e9, (System.nanoTime() - startedNs) / 1e9);
            readerLogin = load(reader).get("sasl.jaas.config");
            certificate = Files.readString(secure.resolve("ca.crt"));
            stack.interruptAndAwaitNoDescendants();
        }

        // a secured directory is never served unsecured
        CliRun unsecured = CliRun.of(
                "stack",
                "--data-dir",
                dataDir.toString(),
                "--kafka-port",
                "0",
                "--registry-port",
                "0",
                "--exit-after",
                "1s");
        assertThat(unsecured.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(unsecured.err()).contains("holds a stack created with --secure: add --secure");

        // a restart keeps users, passwords, CA and ACLs: the reader's file still reads the summary
        try (StackCommandIT.RunningStack again = StackCommandIT.RunningStack.start(dataDir, "--secure")) {
            Path reader = dataDir.resolve("secure").resolve(StackUser.READER.propertiesFileName());
            assertThat(load(reader).get("sasl.jaas.config")).isEqualTo(readerLogin);
            assertThat(Files.readString(dataDir.resolve("secure").resolve("ca.crt")))
                    .isEqualTo(certificate);
            CliRun report =
                    CliRun.of("report", "--run", runId, "--timeout", "20s", "--kafka-config", reader.toString());
            assertThat(report.exit()).as(report.err()).isZero();
            assertThat(report.out()).contains(runId);
            again.interruptAndAwaitNoDescendants();
        }
    }

    private static String[] simulate(String runId, String... args) {
        List<String> all = new ArrayList<>(List.of(
                "simulate",
                "--ssd",
                "tiny-test",
                "--workload",
                "seed001-tweakers-continuous",
                "--duration",
                "10s",
                "--set",
                "targetSize=100MB",
                "--run-id",
                runId,
                "--batch-ios",
                "100",
                "--quiet"));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    /** A refusal is one line of error, not a stack trace. */
    private static void assertOneLine(CliRun r) {
        System.out.println(
                "SecureStackIT refusal (exit " + r.exit() + "): " + r.err().strip());
        assertThat(r.err().strip().lines().filter(l -> l.startsWith("error:")).count())
                .as(r.err())
                .isEqualTo(1);
        assertThat(r.err()).as(r.err()).doesNotContain("\tat ");
    }

    /** Every partition's end offset of every catalogue topic, read as the admin. */
    private static Map<TopicPartition, Long> endOffsets(Map<String, Object> admin) throws Exception {
        try (Admin client = Admin.create(admin)) {
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            var described = client.describeTopics(
                            Topics.all().stream().map(TopicSpec::name).toList())
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS);
            described.forEach((name, d) -> d.partitions()
                    .forEach(p -> request.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
            Map<TopicPartition, Long> offsets = new HashMap<>();
            client.listOffsets(request)
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .forEach((tp, info) -> offsets.put(tp, info.offset()));
            return offsets;
        }
    }

    private static SSLContext trusting(Map<String, Object> clientProperties) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(
                Path.of(clientProperties.get("ssl.truststore.location").toString()))) {
            trust.load(
                    in,
                    clientProperties.get("ssl.truststore.password").toString().toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }

    private static Map<String, Object> load(Path file) throws Exception {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        Map<String, Object> m = new HashMap<>();
        p.forEach((k, v) -> m.put((String) k, v));
        return m;
    }
}

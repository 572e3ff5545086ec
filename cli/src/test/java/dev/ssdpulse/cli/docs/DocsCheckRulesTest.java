package dev.ssdpulse.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules of {@link DocsCheck} on a small repository of their own: what is reported (with its file and line) and
 * what is deliberately not (placeholders, build output, other projects' classes, prose).
 */
class DocsCheckRulesTest {

    @TempDir
    static Path root;

    private static DocsCheck check;
    private static SourceTree tree;

    @BeforeAll
    static void aSmallRepository() throws IOException {
        write("mvnw", "");
        write("pom.xml", "<project/>");
        write("producer/src/main/resources/workloads/presets.txt", "# presets\nseed003-qd32-random-write-5000s\n");
        write("producer/src/main/resources/ssd-presets/sata-mlc-120gb-2012.json", "{}");
        write("producer/src/main/resources/ssd-presets/tiny-test.json", "{}");
        write("streams/src/main/java/dev/ssdpulse/streams/http/HttpApiServer.java", """
                package dev.ssdpulse.streams.http;

                /** Not a record Quuxle, and no stop(): comments declare nothing. */
                public final class HttpApiServer {
                    static final int DEFAULT_PORT = 8080;
                    void start() {}
                    static final class Route {}
                }
                """);
        write(
                "streams/src/main/java/dev/ssdpulse/streams/window/RunWindowAggregator.java",
                "package dev.ssdpulse.streams.window;\npublic final class RunWindowAggregator {}\n");
        write("schemas/src/main/avro/RunStarted.avsc", """
                {"type": "record", "name": "RunStarted", "namespace": "dev.ssdpulse.schemas.avro",
                 "fields": [{"name": "runId", "type": "string"}, {"name": "wallClockStart", "type": "long"}]}
                """);
        write(
                "producer/src/main/java/dev/ssdpulse/producer/workload/Units.java",
                "package dev.ssdpulse.producer.workload;\npublic final class Units {}\n");
        write("streams/ANALYTICS.md", "# analytics\n");
        write("streams/src/main/resources/dashboard/API.md", "# API\n");
        tree = SourceTree.scan(root);
        check = new DocsCheck(tree, new ClasspathNames(tree.root()));
    }

    @Test
    void aClassNoSourceDeclaresIsReportedWithFileAndLine() throws IOException {
        List<String> problems = problemsOf("docs/a.md", """
                # A
                `RunWindowAggregator` and `WindowedWriteAmplification` (removed) and `IoOps.READ` 0.
                """);

        assertThat(problems)
                .containsExactly(
                        "docs/a.md:2: `WindowedWriteAmplification` not found: no class WindowedWriteAmplification in"
                                + " the repository's sources or Avro schemas, nor on the class path",
                        "docs/a.md:2: `IoOps.READ` not found: no class IoOps in the repository's sources or Avro"
                                + " schemas, nor on the class path");
    }

    @Test
    void membersNestedTypesPackagesAndSchemaFieldsAreCheckedOnTheDeclaringFile() throws IOException {
        List<String> problems = problemsOf("docs/b.md", """
                `HttpApiServer.start()`, `HttpApiServer.DEFAULT_PORT`, `HttpApiServer.Route`, `http.HttpApiServer`,
                `dev.ssdpulse.streams.http.HttpApiServer`, `RunStarted.wallClockStart`, `RunStarted(ABORTED)`,
                `dev.ssdpulse.schemas.avro`, `dev.ssdpulse.streams.http`
                `HttpApiServer.stop()`
                `HttpApiServer.Handler`
                `window.HttpApiServer`
                `RunStarted.wallClockStartEpochNs`
                `dev.ssdpulse.streams.gone`
                `Quuxle`
                """);

        assertThat(problems)
                .containsExactly(
                        "docs/b.md:4: `HttpApiServer.stop` not found: HttpApiServer"
                                + " (streams/src/main/java/dev/ssdpulse/streams/http/HttpApiServer.java) has no member"
                                + " stop",
                        "docs/b.md:5: `HttpApiServer.Handler` not found: HttpApiServer"
                                + " (streams/src/main/java/dev/ssdpulse/streams/http/HttpApiServer.java) has no nested"
                                + " type Handler",
                        "docs/b.md:6: `window.HttpApiServer` not found: HttpApiServer is not in a package window"
                                + " (declared in streams/src/main/java/dev/ssdpulse/streams/http/HttpApiServer.java)",
                        "docs/b.md:7: `RunStarted.wallClockStartEpochNs` not found: RunStarted"
                                + " (schemas/src/main/avro/RunStarted.avsc) has no member wallClockStartEpochNs",
                        "docs/b.md:8: `dev.ssdpulse.streams.gone` not found: no such package or Avro namespace in"
                                + " the repository",
                        "docs/b.md:9: `Quuxle` not found: no class Quuxle in the repository's sources or Avro"
                                + " schemas, nor on the class path");
    }

    @Test
    void otherProjectsClassesAndWordsThatAreNoClassNamesPass() throws IOException {
        assertThat(problemsOf("docs/c.md", """
                        `KafkaContainer`, `FileChannel`, `org.apache.avro.SchemaCompatibility`, `picocli.CommandLine`,
                        `README`, `SASL_SSL`, `O_DIRECT`, `io_uring`, `Ns`, `exactly_once_v2`, `schema.registry.url`,
                        `ssdpulse.io.v1`, `X-Ssdpulse-Served-From`, `Ctrl-C`, `RUN@NAME`, `MB/s`, `pread/pwrite`,
                        `Host_Writes_32MiB`, `Bckgnd_Program_Page_Cnt`
                        """)).isEmpty();
    }

    @Test
    void filesMustExistButPlaceholdersBuildOutputAndGeneratedFilesAreNotFileNames() throws IOException {
        List<String> problems = problemsOf("docs/d.md", """
                `streams/ANALYTICS.md`, `dashboard/API.md`, `API.md`, `../streams/`, `streams/`, `./mvnw`
                `DIR/secure/`, `/dev/loop0`, `/api/runs/{id}`, `~/.ssdpulse/stack`, `dist/target/x.tar.gz`,
                `ssdpulse-<version>.tar.gz`, `ca.crt`, `admin.properties`, `*-window-lags.csv`, `http://x/y.md`
                `streams/ACCUMULATORS.md`
                `docs/missing.md`
                `NOTES.md`
                """);

        assertThat(problems)
                .containsExactly(
                        "docs/d.md:4: `streams/ACCUMULATORS.md` not found: no such file or directory in the"
                                + " repository",
                        "docs/d.md:5: `docs/missing.md` not found: no such file or directory in the repository",
                        "docs/d.md:6: `NOTES.md` not found: no such file or directory in the repository");
    }

    @Test
    void presetNamesMustBePresets() throws IOException {
        List<String> problems = problemsOf("docs/e.md", """
                `seed003-qd32-random-write-5000s` on `sata-mlc-120gb-2012`; `nvme-cli` is a tool
                `seed009-nothing` on `nvme-tlc-2tb`
                """);

        assertThat(problems)
                .containsExactly(
                        "docs/e.md:2: `seed009-nothing` not found: no workload preset of that name",
                        "docs/e.md:2: `nvme-tlc-2tb` not found: no simulated-drive preset of that name");
    }

    @Test
    void commandsAreCheckedAgainstTheRealCommandsWithoutRunningThem() throws IOException {
        List<String> problems = problemsOf("docs/f.md", """
                Synopses: `./ssdpulse stack [--data-dir DIR \\| --ephemeral] [--brokers 1\\|3]`, `ssdpulse runs delete ID`,
                `ssdpulse ... --format json`, `./ssdpulse --version`.
                `./ssdpulse demo [--port P] [--colour]`
                `ssdpulse launch`

                ```
                ./ssdpulse stack &                  # a comment
                SSDPULSE_JAVA_OPTS=-Xmx3g ./ssdpulse simulate --ssd tiny-test -w seed003-qd32-random-write-5000s \\
                    -d 60s --offline | tee out.txt
                ./ssdpulse stack --brokers three
                ./ssdpulse simulate --workload seed003-qd32-random-write-5000s --ssd huge-drive
                ./ssdpulse report --format text
                ```

                ```java
                ./ssdpulse is not a command in a Java block
                ```

                ```text
                bin/ssdpulse                 the launcher, in a listing
                ```
                """);

        assertThat(problems)
                .containsExactly(
                        "docs/f.md:3: `./ssdpulse demo [--port P] [--colour]`: ssdpulse demo --help knows no option"
                                + " --colour",
                        "docs/f.md:4: `ssdpulse launch`: ssdpulse has no command launch",
                        "docs/f.md:10: `ssdpulse stack --brokers three` does not parse: Invalid value for option"
                                + " '--brokers': 'three' is not an int",
                        "docs/f.md:11: `ssdpulse simulate --workload seed003-qd32-random-write-5000s --ssd"
                                + " huge-drive`: no simulated-drive preset huge-drive (known: sata-mlc-120gb-2012,"
                                + " tiny-test)");
    }

    @Test
    void linksMustReachAFileAndHeading() throws IOException {
        List<String> problems = problemsOf("docs/g.md", """
                # Deployment and containers
                [here](#deployment-and-containers), [analytics](../streams/ANALYTICS.md#analytics), [web](https://x.y/z)
                [gone](nope.md)
                [heading](../streams/ANALYTICS.md#stored-runs)
                """);

        assertThat(problems)
                .containsExactly(
                        "docs/g.md:3: link (nope.md) not found: no file docs/nope.md",
                        "docs/g.md:4: link (../streams/ANALYTICS.md#stored-runs) not found: streams/ANALYTICS.md has"
                                + " no heading #stored-runs");
    }

    @Test
    void readmeLayoutMustNameEveryPackageOfEveryModule() throws IOException {
        List<String> problems = problemsOf("README.md", """
                # x

                ## Layout

                | module | packages |
                |---|---|
                | `streams/` | `http` and prose about windows |

                ## Next
                `producer/` is not in the Layout section
                """);

        assertThat(problems)
                .containsExactly(
                        "README.md:4: Layout does not list the module `producer/`",
                        "README.md:7: Layout: `streams/` does not name its packages `window`");
    }

    private static List<String> problemsOf(String relative, String markdown) throws IOException {
        Path doc = write(relative, markdown);
        return check.check(doc);
    }

    private static Path write(String relative, String text) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }
}

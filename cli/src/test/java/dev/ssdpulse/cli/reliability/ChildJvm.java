package dev.ssdpulse.cli.reliability;

import static org.awaitility.Awaitility.await;

import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.testing.TestJvmOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;

/**
 * An {@code ssdpulse} command (cli Main) in a child JVM with this JVM's classpath, so a test can kill it with
 * SIGKILL ({@link #kill()}) exactly as {@code kill -9} would: no shutdown hook, no flush, no clean close.
 * Output (stdout and stderr) goes to a log file that tests search and print on failure.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final Path log;

    private ChildJvm(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static ChildJvm start(Path log, List<String> args) {
        return start(log, "dev.ssdpulse.cli.Main", 256, args);
    }

    /**
     * {@code ssdpulse streams} on the stack with its HTTP API on {@code httpPort}, advertised to the other
     * instances of the application ({@code application.server}); it stops by itself after {@code exitAfter}
     * (e.g. "8m"), so it never outlives the test by much even if this JVM dies before it can kill the child;
     * {@code extraArgs} add settings.
     */
    static ChildJvm streams(
            Path log,
            LocalStack stack,
            String applicationId,
            Path stateDir,
            int httpPort,
            String exitAfter,
            List<String> extraArgs) {
        List<String> args = new ArrayList<>(List.of(
                "streams",
                "--bootstrap-servers",
                stack.bootstrapServers(),
                "--schema-registry-url",
                stack.schemaRegistryUrl(),
                "--application-id",
                applicationId,
                "--state-dir",
                stateDir.toString(),
                "--http-port",
                Integer.toString(httpPort),
                "-X",
                "application.server=127.0.0.1:" + httpPort,
                "--exit-after",
                exitAfter));
        args.addAll(extraArgs);
        return start(log, args);
    }

    /** Any main class of this JVM's classpath (e.g. a test-source driver) with {@code heapMb} of heap. */
    static ChildJvm start(Path log, String mainClass, int heapMb, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heapMb + "m");
        command.addAll(TestJvmOptions.forChildJvms());
        command.add("-Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.ssdpulse.schemas.avro");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new ChildJvm(p, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a child JVM: " + command, e);
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String output() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** The first group of the first match of {@code pattern} in the output, once it appears. */
    String awaitOutput(Pattern pattern, Duration timeout) {
        Matcher found;
        try {
            found = await("child JVM printing " + pattern)
                    .atMost(timeout)
                    .until(
                            () -> {
                                Matcher m = pattern.matcher(output());
                                if (m.find()) {
                                    return m;
                                }
                                if (!process.isAlive()) {
                                    throw new AssertionError("child JVM exited (" + process.exitValue()
                                            + ") before printing " + pattern + "; its output:\n" + tail());
                                }
                                return null;
                            },
                            Objects::nonNull);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "child JVM did not print " + pattern + " within " + timeout + "; its output:\n" + tail(), e);
        }
        return found.groupCount() > 0 ? found.group(1) : found.group();
    }

    /** SIGKILL, then waits for the process to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("child JVM " + process.pid() + " still alive 30 s after SIGKILL");
        }
    }

    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("child JVM did not exit within " + timeout + "; its output:\n" + tail());
        }
        return process.exitValue();
    }

    String tail() {
        String all = output();
        return all.length() <= 6000 ? all : "..." + all.substring(all.length() - 6000);
    }

    /** SIGKILL to each, then waits for each to be gone. */
    static void killAll(List<ChildJvm> children) throws InterruptedException {
        children.forEach(c -> c.process.destroyForcibly());
        for (ChildJvm c : children) {
            c.kill();
        }
    }

    /** {@link #close()} of them all at once: SIGTERM to each first, so their clean shutdowns overlap. */
    static void closeAll(List<ChildJvm> children) {
        children.forEach(c -> c.process.destroy());
        children.forEach(ChildJvm::close);
    }

    /** SIGTERM (the command's Ctrl-C path), SIGKILL if it is still alive after 30 s. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy(); // a second SIGTERM after closeAll's is harmless
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

package dev.ssdpulse.dist;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A shell script started as a user starts it: its own process, a chosen environment, stdout and stderr
 * in files (read while it runs), and on close a SIGTERM to it and every process it started.
 */
final class Script implements AutoCloseable {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private Script(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    static Script start(Path workDir, Map<String, String> environment, List<String> command) throws IOException {
        // Logs go to the temporary directory: the work directory may be the source tree.
        Path logs = Files.createTempDirectory("ssdpulse-script-");
        Path out = logs.resolve("stdout");
        Path err = logs.resolve("stderr");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        return new Script(builder.start(), out, err);
    }

    /** Runs to completion (or fails the test after the timeout) and returns the exit status. */
    int awaitExit(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            close();
            throw new AssertionError("still running after " + timeoutSeconds + " s: "
                    + process.info().commandLine().orElse("?") + "\nstdout:\n" + stdout() + "\nstderr:\n" + stderr());
        }
        return process.exitValue();
    }

    String stdout() {
        return read(stdout);
    }

    String stderr() {
        return read(stderr);
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    /** The process and all it started, now, before it ends (a child JVM is gone from the tree once its parent is). */
    List<ProcessHandle> processTree() {
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(process.toHandle());
        process.descendants().forEach(tree::add);
        return tree;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        List<ProcessHandle> tree = processTree();
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle p : tree) {
            try {
                p.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }
}

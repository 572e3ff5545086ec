package dev.ssdpulse.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of the CLI with its exit code and everything it wrote, as the command tests need it. */
public record CliRun(int exit, String out, String err) {
    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }

    /** Both streams, for assertion messages. */
    public String output() {
        return out + err;
    }
}

package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** `demo --exit-after` that ends in the middle of a showcase run marks that run ABORTED in its closing table. */
class DemoExitAfterIT {
    @Test
    void aRunCutShortByExitAfterIsAbortedInTheTable() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(
                "demo",
                "--port",
                "0",
                "--duration",
                "600s",
                "--speed",
                "10",
                "--free-flash-gb",
                "0",
                "--exit-after",
                "8s");
        assertThat(exit).as(out + "\n" + err).isZero();
        assertThat(out.toString())
                .containsPattern("demo-1-free-0GB +ABORTED ")
                .containsPattern(
                        "demo-1-free-0GB ABORTED at \\d+ s of run time \\(stopped by --exit-after 8s\\): its figures"
                                + " cover only that part")
                .contains("ssdpulse demo stopped.");
    }
}

package dev.ssdpulse.cli.smart;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.producer.smart.SmartCounter;
import dev.ssdpulse.producer.smart.SmartParseException;
import dev.ssdpulse.producer.smart.SmartPlan;
import dev.ssdpulse.producer.smart.SmartPoller;
import dev.ssdpulse.producer.smart.SmartReading;
import dev.ssdpulse.producer.smart.ToolProcess;
import dev.ssdpulse.producer.smart.WaBasis;
import dev.ssdpulse.streams.waf.WaBounds;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse smart --target DEV}: before a run, which host and NAND write counters the drive exposes, through
 * which tool and log, in which unit, their current values, and whether a run will report write amplification (and
 * after how many host writes its bounds narrow to 5 %). Runs only reading commands (identify, log pages, smartctl -a):
 * nothing is written to the drive.
 */
@Command(
        name = "smart",
        description = "Show the write counters a drive exposes (host, NAND; tool, unit, value) and whether runs on it"
                + " will report write amplification. Reads only.")
public final class SmartCommand implements Callable<Integer> {
    /** Host writes are searched up to this for the amount after which WA resolves (far beyond any drive). */
    private static final long MAX_HOST_BYTES = 1L << 60;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--target",
            required = true,
            paramLabel = "PATH",
            description = "A drive (/dev/nvme0n1, /dev/sda) or a file on it: its disk is the drive.")
    Path target;

    @Option(
            names = "--smart-device",
            paramLabel = "DEV",
            description = "The drive to ask when --target is a file whose disk cannot be found (LVM, md, overlay).")
    Path smartDevice;

    @Option(
            names = "--format",
            defaultValue = "text",
            paramLabel = "text|json",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    String format;

    @Override
    public Integer call() throws Exception {
        if (!format.equals("text") && !format.equals("json")) {
            throw new UserInputException("--format must be text or json, got '" + format + "'");
        }
        if (!Files.exists(target)) {
            throw new UserInputException("--target " + target + ": no such file or device");
        }
        Path device = SmartDevice.of(target, smartDevice);
        if (device == null) {
            throw new UserInputException("--target " + target + ": " + SmartDevice.whyNone(target));
        }
        SmartPlan plan = SmartPlan.probe(
                device, SmartPoller.findOnPath("nvme"), SmartPoller.findOnPath("smartctl"), ToolProcess::run);
        PrintWriter out = spec.commandLine().getOut();
        if (!plan.hasTool()) {
            print(out, device, plan, null, "WA unavailable: " + plan.unavailableReason());
            return 0;
        }
        SmartReading reading;
        try {
            reading = plan.poll(0, ToolProcess::run);
        } catch (SmartParseException | IOException e) {
            // an answer too: runs on this drive will report no WA, and the tool's own words say why
            print(out, device, plan, null, "WA unavailable: reading the counters failed: " + e.getMessage());
            return 0;
        }
        print(out, device, plan, reading, null);
        return 0;
    }

    private void print(PrintWriter out, Path device, SmartPlan plan, SmartReading r, String unavailable) {
        if (format.equals("json")) {
            out.println(json(device, plan, r, unavailable));
        } else {
            text(out, device, plan, r, unavailable);
        }
        out.flush();
    }

    private static void text(PrintWriter out, Path device, SmartPlan plan, SmartReading r, String unavailable) {
        String drive = r != null && r.drive() != null ? r.drive() : plan.drive();
        out.printf("drive     %s%s%n", device, drive == null ? "" : ": " + drive);
        if (!plan.commands().isEmpty()) {
            out.printf("commands  %s%n", String.join("\n          ", plan.commands()));
        }
        if (unavailable != null) {
            out.printf("WA        %s%n", unavailable);
            plan.notes().forEach(n -> out.printf("note      %s%n", n));
            return;
        }
        out.println("counters");
        for (SmartCounter c : r.counters()) {
            BigInteger bytes = c.bytes();
            out.printf(
                    Locale.ROOT,
                    "  %-22s %s%s%n",
                    c.role().name().toLowerCase(Locale.ROOT).replace('_', ' '),
                    c.describe(),
                    bytes == null ? "" : String.format(Locale.ROOT, " (%s)", bytesText(bytes)));
        }
        WaBasis wa = r.wa();
        if (wa == null) {
            out.printf("WA        %s%n", r.waAvailability().reason());
        } else {
            double lifetime = wa.hostWrites() == 0 ? Double.NaN : (double) wa.nandWrites() / wa.hostWrites();
            out.printf(
                    Locale.ROOT,
                    "WA        available: %s over %s, in %s; steps: NAND %,d, host %,d%n",
                    String.join(" + ", wa.nandSources()),
                    String.join(" + ", wa.hostSources()),
                    wa.unit(),
                    wa.nandResolution(),
                    wa.hostResolution());
            if (!Double.isNaN(lifetime)) {
                out.printf(Locale.ROOT, "          %.3f over the drive's life so far%n", lifetime);
            }
            Long resolves = hostWritesToResolve(wa);
            if (resolves != null) {
                out.printf(
                        Locale.ROOT,
                        "          a run resolves it (bounds within 5 %%) after about %s of host writes%s%n",
                        wa.unit().equals("B") ? bytesText(BigInteger.valueOf(resolves)) : resolves + " " + wa.unit(),
                        Double.isNaN(lifetime) || lifetime <= 0 ? " (at WA 1)" : " (at the lifetime WA)");
            }
        }
        for (String note : plan.notes()) {
            out.printf("note      %s%n", note);
        }
    }

    private static ObjectNode json(Path device, SmartPlan plan, SmartReading r, String unavailable) {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode doc = m.createObjectNode();
        doc.put("device", device.toString());
        doc.put("drive", r != null && r.drive() != null ? r.drive() : plan.drive());
        ArrayNode commands = doc.putArray("commands");
        plan.commands().forEach(commands::add);
        ArrayNode counters = doc.putArray("counters");
        if (r != null) {
            for (SmartCounter c : r.counters()) {
                ObjectNode n = counters.addObject()
                        .put("role", c.role().name())
                        .put("source", c.source())
                        .put("value", c.value())
                        .put("unit", c.unit().name());
                n.put("unitBytes", c.unit().bytes());
                n.put("bytes", c.bytes());
            }
        }
        ObjectNode wa = doc.putObject("writeAmplification");
        WaBasis basis = r == null ? null : r.wa();
        wa.put("available", basis != null);
        if (basis == null) {
            wa.put(
                    "reason",
                    unavailable != null ? unavailable : r.waAvailability().reason());
        } else {
            wa.put("unit", basis.unit());
            wa.put("hostWrites", basis.hostWrites()).put("hostResolution", basis.hostResolution());
            wa.put("nandWrites", basis.nandWrites()).put("nandResolution", basis.nandResolution());
            basis.hostSources().forEach(wa.putArray("hostSources")::add);
            basis.nandSources().forEach(wa.putArray("nandSources")::add);
            if (basis.hostWrites() > 0) {
                wa.put("lifetime", (double) basis.nandWrites() / basis.hostWrites());
            }
            wa.put("hostWritesToResolve", hostWritesToResolve(basis));
        }
        ArrayNode notes = doc.putArray("notes");
        plan.notes().forEach(notes::add);
        return doc;
    }

    /**
     * The host writes (in the basis unit) after which a run's cumulative WA is resolved, at the drive's lifetime
     * WA (1 when it has none yet): the smallest h with {@link WaBounds#of}(h, host step, WA x h, NAND step)
     * resolved; null beyond any drive's capacity.
     */
    static Long hostWritesToResolve(WaBasis wa) {
        double ratio = wa.hostWrites() > 0 && wa.nandWrites() > 0 ? (double) wa.nandWrites() / wa.hostWrites() : 1;
        long lo = 1;
        long hi = Math.max(1, wa.hostResolution());
        while (!resolved(hi, ratio, wa)) {
            if (hi > MAX_HOST_BYTES / 2) {
                return null;
            }
            hi *= 2;
        }
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            if (resolved(mid, ratio, wa)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return hi;
    }

    private static boolean resolved(long host, double ratio, WaBasis wa) {
        return WaBounds.of(host, wa.hostResolution(), Math.round(host * ratio), wa.nandResolution())
                .resolved();
    }

    private static String bytesText(BigInteger bytes) {
        double b = bytes.doubleValue();
        return String.format(Locale.ROOT, "%.2f GB, %.2f GiB", b / 1e9, b / (1L << 30));
    }
}

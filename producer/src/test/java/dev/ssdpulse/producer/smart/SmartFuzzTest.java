package dev.ssdpulse.producer.smart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad tool output: every fixture truncated, with each of its fields removed in turn, and replaced by text. A bad
 * output gives a clear error or a reading without WA and with a note; never another exception, and never a WA
 * other than the one the intact output gives.
 */
class SmartFuzzTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A drive's commands and the one whose output is fuzzed. */
    record Route(String name, String fuzzedCommand, Fixtures.Runner drive) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Fixtures.Runner nvme(String idCtrl, String nandCommand, String nandFixture) {
        Fixtures.Runner r = new Fixtures.Runner()
                .answer("nvme id-ctrl -o json", idCtrl)
                .answer("nvme smart-log -o json", "nvme-smart-log.json");
        return nandCommand == null ? r : r.answer(nandCommand, nandFixture);
    }

    static Stream<Route> routes() {
        List<Route> routes = new ArrayList<>();
        for (String sata : List.of(
                "smartctl-ata-sandforce.json",
                "smartctl-ata-intel-520.json",
                "smartctl-ata-intel-s3520.json",
                "smartctl-ata-samsung-860.json",
                "smartctl-ata-samsung-pm871.json",
                "smartctl-ata-samsung-pm863.json",
                "smartctl-ata-crucial-mx500.json",
                "smartctl-ata-micron-5300.json",
                "smartctl-ata-sandisk.json",
                "smartctl-ata-sandisk-cloudspeed.json",
                "smartctl-ata-siliconmotion.json",
                "smartctl-ata-unknown-nand.json")) {
            routes.add(new Route(sata, "smartctl -j -a", new Fixtures.Runner().answer("smartctl -j -a", sata)));
        }
        String ocp = "nvme ocp smart-add-log -o json";
        routes.add(new Route(
                "ocp v1", ocp, nvme("nvme-id-ctrl-samsung-pm9a3.json", ocp, "nvme-ocp-smart-add-log-v1.json")));
        routes.add(new Route("ocp v2", ocp, nvme("nvme-id-ctrl-kioxia.json", ocp, "nvme-ocp-smart-add-log-v2.json")));
        routes.add(new Route(
                "standard log",
                "nvme smart-log -o json",
                nvme("nvme-id-ctrl-samsung-pm9a3.json", ocp, "nvme-ocp-smart-add-log-v1.json")));
        routes.add(new Route(
                "id-ctrl",
                "nvme id-ctrl -o json",
                nvme("nvme-id-ctrl-intel.json", "nvme intel smart-log-add --json", "nvme-intel-smart-log-add.json")));
        String intel = "nvme intel smart-log-add --json";
        routes.add(new Route("intel", intel, nvme("nvme-id-ctrl-intel.json", intel, "nvme-intel-smart-log-add.json")));
        String solidigm = "nvme solidigm smart-log-add -o json";
        routes.add(new Route(
                "solidigm",
                solidigm,
                nvme("nvme-id-ctrl-solidigm.json", solidigm, "nvme-solidigm-smart-log-add.json")));
        String micron = "nvme micron vs-smart-add-log -o json";
        routes.add(new Route(
                "micron c0", micron, nvme("nvme-id-ctrl-micron.json", micron, "nvme-micron-vs-smart-add-log-c0.json")));
        routes.add(new Route(
                "micron fb",
                micron,
                nvme("nvme-id-ctrl-micron-9300.json", micron, "nvme-micron-vs-smart-add-log-fb.json")));
        String wdc = "nvme wdc vs-smart-add-log -o json";
        routes.add(new Route("wdc c0", wdc, nvme("nvme-id-ctrl-wdc.json", wdc, "nvme-wdc-vs-smart-add-log-c0.json")));
        routes.add(new Route("wdc ext", wdc, nvme("nvme-id-ctrl-wdc.json", wdc, "nvme-wdc-vs-smart-add-log-ext.json")));
        String seagate = "nvme seagate vs-smart-add-log -o json";
        routes.add(new Route(
                "seagate ext",
                seagate,
                nvme("nvme-id-ctrl-seagate.json", seagate, "nvme-seagate-vs-smart-add-log.json")));
        routes.add(new Route(
                "seagate c0",
                seagate,
                nvme("nvme-id-ctrl-seagate.json", seagate, "nvme-seagate-vs-smart-add-log-c0.json")));
        return routes.stream();
    }

    /** Probes and polls a drive answering as the route's, but with {@code output} for the fuzzed command. */
    static SmartReading read(Route route, String output) throws Exception {
        Fixtures.Runner r = new Fixtures.Runner();
        route.drive().answers.forEach(r::answer);
        r.answer(route.fuzzedCommand(), output);
        Path device = Path.of(route.fuzzedCommand().startsWith("smartctl") ? "/dev/sda" : "/dev/nvme0n1");
        return SmartPlan.probe(device, Optional.of(Fixtures.NVME), Optional.of(Fixtures.SMARTCTL), r)
                .poll(1, r);
    }

    static String original(Route route) {
        String answer = route.drive().answers.get(route.fuzzedCommand());
        return Fixtures.fixture(answer);
    }

    /** Either a clear error naming the tool, or a reading whose WA is none (with a note) or the intact one's. */
    static void assertNeverWrong(Route route, String variant, WaBasis intact, String what) {
        SmartReading r;
        try {
            r = read(route, variant);
        } catch (SmartParseException | IOException e) {
            assertThat(e.getMessage()).as(what + " gives a clear message").containsPattern("^(smartctl|nvme|/)");
            return;
        } catch (Exception e) {
            throw new AssertionError(route + ", " + what + ": unexpected " + e, e);
        }
        if (r.wa() == null) {
            assertThat(r.waNote())
                    .as(route + ", " + what + ": a reading without WA says why")
                    .isNotBlank();
        } else {
            // the same counts: a duplicate counter (Intel's 225 and 241) may stand in for a missing one
            assertThat(counts(r.wa()))
                    .as(route + ", " + what + ": never a WA other than the intact output's")
                    .isEqualTo(counts(intact));
        }
    }

    @ParameterizedTest
    @MethodSource("routes")
    void truncatedOutputNeverGivesAWrongWa(Route route) throws Exception {
        String out = original(route);
        WaBasis intact = read(route, out).wa();
        int step = Math.max(1, out.length() / 40);
        for (int end = 0; end < out.strip().length(); end += step) {
            assertNeverWrong(route, out.substring(0, end), intact, "truncated at " + end);
        }
    }

    @ParameterizedTest
    @MethodSource("routes")
    void aMissingFieldNeverGivesAWrongWa(Route route) throws Exception {
        String out = original(route);
        WaBasis intact = read(route, out).wa();
        JsonNode root = JSON.readTree(out);
        List<String> paths = new ArrayList<>();
        collectPaths(root, "", paths);
        assertThat(paths).isNotEmpty();
        for (String path : paths) {
            JsonNode copy = root.deepCopy();
            remove(copy, path);
            assertNeverWrong(route, copy.toString(), intact, "without " + path);
        }
    }

    @ParameterizedTest
    @MethodSource("routes")
    void textOrNothingInsteadOfJsonIsAClearError(Route route) {
        for (String text : List.of(
                "",
                "\n",
                "Error: Invalid argument\n",
                "NVMe status: INVALID_LOG_PAGE: The log page indicated is invalid(0x109)\n",
                "smartctl 7.3 2022-02-28 r5338 [x86_64-linux] (local build)\n")) {
            assertNeverWrong(route, text, null, "text '" + text.strip() + "'");
        }
    }

    @Test
    void theHostsCountersAndLogsFailingAtPollTimeAreClearErrors() throws Exception {
        Fixtures.Runner r = nvme(
                "nvme-id-ctrl-samsung-pm9a3.json", "nvme ocp smart-add-log -o json", "nvme-ocp-smart-add-log-v1.json");
        SmartPlan plan = Fixtures.nvmePlan(r);
        r.answer("nvme ocp smart-add-log -o json", "{\"Physical media units written\": {\"hi\": 0, \"lo\": 12");
        assertThatThrownBy(() -> plan.poll(1, r))
                .isInstanceOf(SmartParseException.class)
                .hasMessage("nvme ocp smart-add-log output ends before its JSON is complete (truncated)");
        r.answer("nvme ocp smart-add-log -o json", "{\"Physical media units read\": {\"hi\": 0, \"lo\": 12}}");
        assertThatThrownBy(() -> plan.poll(1, r))
                .hasMessage("nvme ocp smart-add-log: the output has no NAND-writes field this version of ssdpulse"
                        + " knows (Physical media units read)");
        r.answer("nvme ocp smart-add-log -o json", "{\"Physical media units written\": {\"hi\": 0, \"lo\": \"n/a\"}}");
        assertThatThrownBy(() -> plan.poll(1, r))
                .hasMessage("nvme ocp smart-add-log: Physical media units written.lo is not a number: 'n/a'");
        r.answer("nvme ocp smart-add-log -o json", "{\"Physical media units written\": {\"hi\": 0, \"lo\": -5}}");
        assertThatThrownBy(() -> plan.poll(1, r))
                .hasMessage("nvme ocp smart-add-log: Physical media units written.lo is negative: -5");
        r.answer("nvme smart-log -o json", "Usage: nvme smart-log <device> [OPTIONS]");
        assertThatThrownBy(() -> plan.poll(1, r))
                .hasMessage("nvme smart-log printed text, not JSON: 'Usage: nvme smart-log <device> [OPTIONS]'");
    }

    @Test
    void a128BitCounterAbove2To64IsReadExactlyButGivesNoWa() throws Exception {
        Fixtures.Runner r = nvme("nvme-id-ctrl-samsung-pm9a3.json", null, null)
                .answer(
                        "nvme ocp smart-add-log -o json",
                        "{\"Physical media units written\": {\"hi\": 1, \"lo\": 18446744073709551615}}");
        SmartReading reading = Fixtures.nvmeReading(r);
        assertThat(reading.counters())
                .filteredOn(c -> c.role() == CounterRole.NAND_WRITES)
                .singleElement()
                .satisfies(c -> assertThat(c.value())
                        .isEqualTo(ToolJson.TWO_64.shiftLeft(1).subtract(BigInteger.ONE)));
        assertThat(reading.wa()).isNull();
        assertThat(reading.waNote())
                .isEqualTo("nvme ocp smart-add-log: Physical media units written = 36893488147419103231 bytes is"
                        + " beyond 2^63 - 1 bytes: not a count a drive reaches, so WA is not computed from it");
        assertThat(reading.toAvro("run").getCounters().get(2).getValue()).isEqualTo("36893488147419103231");
        Fixtures.Runner half = nvme("nvme-id-ctrl-samsung-pm9a3.json", null, null)
                .answer(
                        "nvme ocp smart-add-log -o json",
                        "{\"Physical media units written\": {\"hi\": 0, \"lo\": 18446744073709551616}}");
        assertThat(Fixtures.nvmePlan(half).notes())
                .anySatisfy(n -> assertThat(n)
                        .contains("Physical media units written.lo = 18446744073709551616 does not fit 64 bits"));
    }

    private static List<Object> counts(WaBasis b) {
        return b == null
                ? null
                : List.of(b.unit(), b.hostWrites(), b.hostResolution(), b.nandWrites(), b.nandResolution());
    }

    private static void collectPaths(JsonNode node, String path, List<String> out) {
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(f -> {
                String p = path + "/" + f.replace("~", "~0").replace("/", "~1");
                out.add(p);
                collectPaths(node.get(f), p, out);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String p = path + "/" + i;
                out.add(p);
                collectPaths(node.get(i), p, out);
            }
        }
    }

    private static void remove(JsonNode root, String path) {
        int slash = path.lastIndexOf('/');
        JsonNode parent = slash == 0 ? root : root.at(path.substring(0, slash));
        String last = path.substring(slash + 1).replace("~1", "/").replace("~0", "~");
        if (parent instanceof ObjectNode o) {
            o.remove(last);
        } else if (parent instanceof ArrayNode a) {
            a.remove(Integer.parseInt(last));
        }
    }
}

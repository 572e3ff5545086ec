package dev.ssdpulse.producer.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.List;

/**
 * Canonical JSON of a workload: every field explicit (defaults filled in, placeholders resolved) in a fixed
 * order, sizes as byte counts, durations as "&lt;n&gt;ns" strings (a bare number would mean seconds),
 * relative amounts as "P%+B". It goes into RunStarted so a run can be replayed; {@link #fromCanonicalJson}
 * reads it back to an equal spec.
 */
public final class WorkloadJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private WorkloadJson() {}

    public static String toCanonicalJson(WorkloadSpec spec) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("name", spec.name());
        root.put("description", spec.description());
        root.put("seed", spec.seed());
        spec.targetSizeBytes().ifPresent(t -> root.put("targetSize", t));
        root.set("phases", steps(spec.phases()));
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise workload " + spec.name(), e);
        }
    }

    public static WorkloadSpec fromCanonicalJson(String json) {
        return new WorkloadLoader().parse(json, "workload.json");
    }

    private static ArrayNode steps(List<WorkloadStep> steps) {
        ArrayNode list = MAPPER.createArrayNode();
        for (WorkloadStep s : steps) {
            if (s instanceof RepeatBlock b) {
                ObjectNode n = list.addObject();
                n.put("name", b.name());
                n.put("repeat", b.repeat());
                n.set("phases", steps(b.steps()));
            } else {
                list.add(phase((PhaseSpec) s));
            }
        }
        return list;
    }

    private static ObjectNode phase(PhaseSpec p) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("name", p.name());
        n.put("kind", p.kind().name());
        ArrayNode specs = n.putArray("accessSpecs");
        for (AccessSpec a : p.accessSpecs()) {
            ObjectNode o = specs.addObject();
            o.put("transferSize", a.transferSizeBytes());
            o.put("percentOfSpec", a.percentOfSpec());
            o.put("percentRead", a.percentRead());
            o.put("percentRandom", a.percentRandom());
            o.put("alignment", a.alignmentBytes());
            o.put("delay", a.delayNs() + "ns");
            o.put("burstLength", a.burstLength());
        }
        n.put("queueDepth", p.queueDepth());
        n.put("workers", p.workers());
        ObjectNode span = n.putObject("span");
        amount(span, "offset", p.span().offset());
        amount(span, "size", p.span().size());
        n.put("spanSharing", p.spanSharing().name());
        p.durationNs().ifPresent(d -> n.put("duration", d + "ns"));
        p.totalBytes().ifPresent(t -> amount(n, "totalBytes", t));
        n.put("ramp", p.rampNs() + "ns");
        p.rateLimitIops().ifPresent(r -> n.put("rateLimitIops", r));
        n.put(
                "distribution",
                p.distribution().kind() == Distribution.Kind.UNIFORM
                        ? "uniform"
                        : "zipf:" + plain(p.distribution().theta()));
        n.put(
                "dataPattern",
                switch (p.dataPattern().kind()) {
                    case INCOMPRESSIBLE -> "incompressible";
                    case ZEROS -> "zeros";
                    case COMPRESSIBLE -> "compressible:" + plain(p.dataPattern().compressionRatio());
                });
        n.put("trim", p.trim());
        n.put("repeat", p.repeat());
        p.replay().ifPresent(r -> {
            n.put("trace", r.trace().name());
            n.put("format", r.format().label());
            n.put("timing", r.timing().label());
            n.put("timeScale", r.timeScale());
            n.put("remap", r.remap().label());
        });
        return n;
    }

    private static void amount(ObjectNode n, String field, Amount a) {
        if (a.isAbsolute()) {
            n.put(field, a.bytes());
        } else {
            n.put(field, a.toCanonicalString());
        }
    }

    private static String plain(double d) {
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
}

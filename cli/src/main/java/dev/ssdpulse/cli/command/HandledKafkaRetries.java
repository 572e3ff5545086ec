package dev.ssdpulse.cli.command;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.filter.AbstractFilter;
import org.apache.logging.log4j.core.filter.AbstractFilterable;

/**
 * Keeps Kafka client warnings about conditions the clients retry by themselves, and ssdpulse then handles, off the
 * user's terminal, and counts them: a broker not answering yet (the command's own check says so in one line), a
 * transaction still being committed when the next one starts (CONCURRENT_TRANSACTIONS), an idempotent producer
 * resending after a timeout (OUT_OF_ORDER_SEQUENCE_NUMBER), a partition leader moving or not yet elected. Under load
 * in {@code demo} they came by the dozen while nothing was wrong. A broker that cannot be reached still shows once a
 * minute (an outage during a run is news); warnings about anything else, and every error, are shown as before. With
 * {@code SSDPULSE_LOG_LEVEL=DEBUG} nothing is held back.
 */
public final class HandledKafkaRetries extends AbstractFilter {
    /**
     * A recognisable part of the message, the name it is counted under, and whether one of them is still shown now
     * and then: a broker that cannot be reached is news while a run goes on (an outage the clients ride out), so one
     * such line per {@link #SHOW_EVERY_NS} passes; the rest of them, and the others, only count.
     */
    private record Kind(String token, String name, boolean showEveryMinute) {}

    private static final long SHOW_EVERY_NS = 60_000_000_000L;

    private static final List<Kind> KINDS = List.of(
            new Kind(
                    "could not be established. Node may not be available", "broker not reachable (reconnecting)", true),
            new Kind("disconnected", "broker disconnected (reconnecting)", true),
            new Kind("CONCURRENT_TRANSACTIONS", "CONCURRENT_TRANSACTIONS", false),
            new Kind("OUT_OF_ORDER_SEQUENCE_NUMBER", "OUT_OF_ORDER_SEQUENCE_NUMBER", false),
            new Kind("NOT_LEADER_OR_FOLLOWER", "NOT_LEADER_OR_FOLLOWER", false),
            new Kind("LEADER_NOT_AVAILABLE", "LEADER_NOT_AVAILABLE", false),
            new Kind("NOT_COORDINATOR", "NOT_COORDINATOR", false),
            new Kind("COORDINATOR_NOT_AVAILABLE", "COORDINATOR_NOT_AVAILABLE", false));

    private static final HandledKafkaRetries INSTANCE = new HandledKafkaRetries(System::nanoTime);
    private static volatile boolean installed;

    private final LongSupplier nanoClock;
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final Map<String, Long> lastShownNs = new ConcurrentHashMap<>();

    /** @param nanoClock when a line was last let through, for the once-a-minute kinds */
    HandledKafkaRetries(LongSupplier nanoClock) {
        super(Filter.Result.DENY, Filter.Result.NEUTRAL);
        this.nanoClock = nanoClock;
    }

    /** Adds the filter to the console appenders (once; not with SSDPULSE_LOG_LEVEL=DEBUG or TRACE). */
    public static synchronized void install() {
        String level = System.getenv("SSDPULSE_LOG_LEVEL");
        if (installed || "DEBUG".equalsIgnoreCase(level) || "TRACE".equalsIgnoreCase(level)) {
            return;
        }
        if (LogManager.getContext(false) instanceof LoggerContext context) {
            for (Appender appender : context.getConfiguration().getAppenders().values()) {
                if (appender instanceof AbstractFilterable filterable) {
                    filterable.addFilter(INSTANCE);
                }
            }
            installed = true;
        }
    }

    /** Which kind a Kafka client event is, or null when it is not one that is held back. */
    private static Kind kindOf(String loggerName, Level level, String message) {
        if (loggerName == null || !loggerName.startsWith("org.apache.kafka") || level.isMoreSpecificThan(Level.ERROR)) {
            return null;
        }
        for (Kind kind : KINDS) {
            if (message.contains(kind.token())) {
                return kind;
            }
        }
        return null;
    }

    @Override
    public Result filter(LogEvent event) {
        Kind kind = kindOf(
                event.getLoggerName(), event.getLevel(), event.getMessage().getFormattedMessage());
        if (kind == null) {
            return onMismatch;
        }
        if (kind.showEveryMinute()) {
            long now = nanoClock.getAsLong();
            Long last = lastShownNs.get(kind.name());
            if ((last == null || now - last >= SHOW_EVERY_NS)
                    && (last == null
                            ? lastShownNs.putIfAbsent(kind.name(), now) == null
                            : lastShownNs.replace(kind.name(), last, now))) {
                return onMismatch;
            }
        }
        counts.computeIfAbsent(kind.name(), k -> new LongAdder()).increment();
        return onMatch;
    }

    /** How many of each kind this filter held back, by kind. */
    Map<String, Long> heldBack() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** How many of each kind were held back in this process, by kind. */
    public static Map<String, Long> counts() {
        return INSTANCE.heldBack();
    }

    /** "Kafka client retries handled without a warning: 12 CONCURRENT_TRANSACTIONS, 3 ...", or null when none. */
    public static String summaryLine() {
        Map<String, Long> counts = counts();
        if (counts.isEmpty()) {
            return null;
        }
        StringBuilder line = new StringBuilder("Kafka client retries handled without a warning:");
        String sep = " ";
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            line.append(sep).append(e.getValue()).append(' ').append(e.getKey());
            sep = ", ";
        }
        return line.append(" (shown with SSDPULSE_LOG_LEVEL=DEBUG)").toString();
    }
}

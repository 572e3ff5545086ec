package dev.ssdpulse.producer.smart;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The two counts write amplification is the ratio of, in one unit, with the step of each side. Bytes for every
 * source whose units are byte sizes; NAND pages for Crucial/Micron SATA drives (WA = (247 + 248) / 247, both in
 * pages of a size the drive does not tell); a vendor's own unit where the drive counts host and NAND writes in it
 * (the unit cancels in the ratio).
 *
 * @param unit           "B", "NAND page" or a vendor unit
 * @param hostWrites     the host side (denominator), in unit
 * @param hostResolution step of the host counter, in unit
 * @param nandWrites     the NAND side (numerator), in unit: the sum of its counters
 * @param nandResolution the steps of the NAND counters added, in unit
 * @param hostSources    the counters of the host side
 * @param nandSources    the counters of the NAND side
 */
public record WaBasis(
        String unit,
        long hostWrites,
        long hostResolution,
        long nandWrites,
        long nandResolution,
        List<String> hostSources,
        List<String> nandSources) {
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    public WaBasis {
        hostSources = List.copyOf(hostSources);
        nandSources = List.copyOf(nandSources);
    }

    /** A basis, or why there is none. */
    public record Decision(WaBasis basis, String note) {
        static Decision of(WaBasis basis) {
            return new Decision(basis, null);
        }

        static Decision none(String note) {
            return new Decision(null, note);
        }
    }

    /**
     * Chooses the counters WA is computed from: the NAND writes (a total, else the sum of its parts, TLC and SLC; for
     * Crucial /
     * Micron pages, host-data pages plus background pages) over the host writes in the same unit, the finest such
     * host counter where there are several (NVMe's 512,000-byte data units rather than a vendor log's 32 MiB).
     * Refuses, with the reason, whatever would risk a wrong ratio: a NAND counter of unknown unit, sides in
     * units that do not convert, a count beyond 2^63 bytes, a NAND counter that stays 0 while the host writes.
     */
    public static Decision decide(List<SmartCounter> counters) {
        List<SmartCounter> forHost = withRole(counters, CounterRole.NAND_WRITES_FOR_HOST);
        if (!forHost.isEmpty()) {
            List<SmartCounter> background = withRole(counters, CounterRole.NAND_WRITES_BACKGROUND);
            if (background.isEmpty()) {
                return Decision.none("the NAND pages programmed for host data are reported ("
                        + forHost.get(0).source() + ") but not the background ones, which WA needs");
            }
            List<SmartCounter> nand = new ArrayList<>(forHost);
            nand.addAll(background);
            return sameUnit(forHost, nand);
        }
        List<SmartCounter> nand = nandSide(counters);
        if (nand.isEmpty()) {
            return Decision.none("no NAND-writes counter");
        }
        if (nand.size() == 1 && nand.get(0).role() == CounterRole.NAND_WRITES_PART) {
            return Decision.none("only a part of the NAND writes is reported ("
                    + nand.get(0).source() + "), not their total nor their other part");
        }
        for (SmartCounter c : nand) {
            if (c.unit().isUnknown()) {
                return Decision.none(c.source() + " counts NAND writes in a unit nothing published gives,"
                        + " so WA is not computed from it");
            }
        }
        List<SmartCounter> host = withRole(counters, CounterRole.HOST_WRITES);
        if (nand.stream().allMatch(c -> c.unit().bytes() != null)) {
            Optional<SmartCounter> finest = host.stream()
                    .filter(c -> c.unit().bytes() != null)
                    .min(Comparator.comparingLong(c -> c.unit().bytes()));
            if (finest.isEmpty()) {
                return Decision.none("no host-writes counter in bytes"
                        + (host.isEmpty() ? "" : " (" + host.get(0).describe() + ")"));
            }
            return inBytes(finest.get(), nand);
        }
        return sameUnit(host, nand);
    }

    private static List<SmartCounter> nandSide(List<SmartCounter> counters) {
        List<SmartCounter> totals = withRole(counters, CounterRole.NAND_WRITES);
        if (!totals.isEmpty()) {
            // one total: a byte-sized one where a log gives it beside a vendor-unit one
            return List.of(totals.stream()
                    .filter(c -> c.unit().bytes() != null)
                    .findFirst()
                    .orElse(totals.get(0)));
        }
        return withRole(counters, CounterRole.NAND_WRITES_PART);
    }

    private static Decision inBytes(SmartCounter host, List<SmartCounter> nand) {
        BigInteger hostBytes = host.bytes();
        BigInteger nandBytes = BigInteger.ZERO;
        long nandStep = 0;
        for (SmartCounter c : nand) {
            nandBytes = nandBytes.add(c.bytes());
            nandStep += c.unit().bytes();
        }
        String tooLarge = beyondLong(host, hostBytes);
        if (tooLarge == null && nandBytes.compareTo(LONG_MAX) > 0) {
            tooLarge = sources(nand) + " = " + nandBytes + " bytes is beyond 2^63 - 1 bytes";
        }
        if (tooLarge != null) {
            return Decision.none(tooLarge + ": not a count a drive reaches, so WA is not computed from it");
        }
        long hostStep = host.unit().bytes();
        if (nandBytes.signum() == 0 && hostBytes.compareTo(BigInteger.valueOf(2 * nandStep)) >= 0) {
            return Decision.none(String.format(
                    Locale.ROOT,
                    "%s reads 0 although the host wrote %,d bytes: the drive does not maintain it",
                    sources(nand),
                    hostBytes));
        }
        return Decision.of(new WaBasis(
                "B",
                hostBytes.longValueExact(),
                hostStep,
                nandBytes.longValueExact(),
                nandStep,
                List.of(host.source()),
                nand.stream().map(SmartCounter::source).toList()));
    }

    private static String beyondLong(SmartCounter c, BigInteger bytes) {
        return bytes.compareTo(LONG_MAX) > 0 ? c.source() + " = " + bytes + " bytes is beyond 2^63 - 1 bytes" : null;
    }

    /** Both sides in one unit that is not a byte size (NAND pages, a vendor unit): the unit cancels. */
    private static Decision sameUnit(List<SmartCounter> hostCandidates, List<SmartCounter> nand) {
        CounterUnit unit = nand.get(0).unit();
        for (SmartCounter c : nand) {
            if (!c.unit().equals(unit)) {
                return Decision.none("the NAND counters are in different units (" + sources(nand) + ")");
            }
        }
        Optional<SmartCounter> host =
                hostCandidates.stream().filter(c -> c.unit().equals(unit)).findFirst();
        if (host.isEmpty()) {
            return Decision.none("NAND writes are counted in " + unit.name() + " (" + sources(nand)
                    + ") and no host-writes counter is in that unit");
        }
        BigInteger nandSum = BigInteger.ZERO;
        for (SmartCounter c : nand) {
            nandSum = nandSum.add(c.value());
        }
        if (host.get().value().compareTo(LONG_MAX) > 0 || nandSum.compareTo(LONG_MAX) > 0) {
            return Decision.none(sources(nand) + " is beyond 2^63 - 1 counts: not a count a drive reaches");
        }
        return Decision.of(new WaBasis(
                unit.name(),
                host.get().value().longValueExact(),
                1,
                nandSum.longValueExact(),
                nand.size(),
                List.of(host.get().source()),
                nand.stream().map(SmartCounter::source).toList()));
    }

    private static List<SmartCounter> withRole(List<SmartCounter> counters, CounterRole role) {
        return counters.stream().filter(c -> c.role() == role).toList();
    }

    private static String sources(List<SmartCounter> counters) {
        return String.join(" + ", counters.stream().map(SmartCounter::source).toList());
    }
}

package dev.ssdpulse.producer.smart;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an ATA SMART attribute counts, and in what unit. Attribute meanings are vendor-specific: smartmontools' drive
 * database (drivedb.h) names a drive's family by its model string and labels the attributes of each family, and
 * smartctl prints those labels and the family ({@code model_family}). ssdpulse reads the labels, which carry the
 * unit where the database gives one ({@code Host_Writes_32MiB}, {@code NAND_Writes_1GiB},
 * {@code Lifetime_Writes_GiB}, {@code Total_LBAs_Written}), and adds, per family, the meaning of the labels
 * that carry none:
 *
 * <ul>
 *   <li>SandForce Driven SSDs: 233 {@code SandForce_Internal} = NAND writes in GiB, beside 241
 *       {@code Lifetime_Writes_GiB} = host writes (Kingston's "SF-2000 SMART Attribute Details": 233 lifetime
 *       writes to NAND, 241 lifetime writes from the host, 1 count = 1 GiB).</li>
 *   <li>Crucial/Micron (Client SSDs, 5100/52x0/5300/5400, M500DC/M510DC): 246 {@code Total_LBAs_Written} = host
 *       sectors; 247 {@code Host_Program_Page_Count} = NAND pages programmed for host data; 248
 *       {@code FTL_Program_Page_Count} / {@code Bckgnd_Program_Page_Cnt} = NAND pages the drive programmed for its
 *       own moves; WA = (247 + 248) / 247 (Micron TN-FD-22, Client SATA SSD SMART Attribute Reference).</li>
 *   <li>Samsung based SSDs: 241 {@code Total_LBAs_Written} = host LBAs; 249 {@code NAND_Writes_1GiB} (CM871a,
 *       PM871) = NAND writes; 251 {@code NAND_Writes} (PM863, PM893) has no published unit: unknown.</li>
 *   <li>SanDisk (Marvell based, SandForce driven): 233 {@code Total_NAND_Writes_GiB} / {@code NAND_GiB_Written},
 *       241 {@code Total_Writes_GiB} / {@code Lifetime_Writes_GiB}; 249 {@code TLC_NAND_GB_Writes} is a part of
 *       the NAND writes. CloudSpeed / CS1K: 32 {@code Lifetime_Write_AmpFctr}, 33 {@code Write_AmpFctr},
 *       32 {@code Write_Ampflication} = the drive's own WA (scale not published: recorded, not used); 233
 *       {@code Lifetime_Nand_Writes} / {@code Number_Of_Write_Ct}: unit unknown.</li>
 *   <li>Silicon Motion based SSDs: 241 {@code Host_Writes_32MiB}; 245 {@code TLC_Writes_32MiB} and 246
 *       {@code SLC_Writes_32MiB}, the parts of the NAND writes.</li>
 *   <li>Intel: 241 / 225 {@code Host_Writes_32MiB}, 243 {@code NAND_Writes_32MiB} (S3510 / 3610, S3520, S4x10),
 *       249 {@code NAND_Writes_1GiB} (320, 330/335, 520, 53x, 540, 545s).</li>
 * </ul>
 * A NAND-looking attribute whose unit neither its label nor its family gives (a label without a unit, or, on a
 * drive the user's database does not know, an unnamed attribute at an id other families use for NAND writes) is
 * an attribute of unknown unit: reported as such, never turned into WA.
 */
final class AtaAttributes {
    private AtaAttributes() {}

    private static final Pattern HOST_WRITES =
            Pattern.compile("(Host_Writes|Lifetime_Writes|Total_Writes|Total_LBAs_Written)(_.*)?");
    private static final Pattern HOST_READS =
            Pattern.compile("(Host_Reads|Lifetime_Reads|Total_Reads|Total_LBAs_Read)(_.*)?");
    private static final Pattern NAND_WRITES = Pattern.compile(
            "(?i).*(nand|flash|tlc|slc).*(write|written|prog).*|.*(write|written|prog).*(nand|flash|tlc|slc).*");
    private static final Pattern NOT_WRITES = Pattern.compile("(?i).*(fail|err|read|bad|blk|block|erase).*");
    private static final Pattern PART = Pattern.compile(".*(TLC|SLC).*");
    private static final Pattern DRIVE_WAF = Pattern.compile(".*(Write_Amp|Ampflication).*");
    /** Ids at which some family of the drive database counts NAND writes (SandForce 233 ... Samsung 251). */
    private static final Set<Integer> NAND_IDS = Set.of(233, 243, 245, 246, 247, 248, 249, 251);
    /** One half of a counter split over two attributes (Swissbit's 235/237, 241/243): no count on its own. */
    private static final Pattern HALF = Pattern.compile(".*_(Low|High|L|H)");
    /** A unit token in a drive-database label: 32MiB, 1GiB, GiB, MiB, GB, LBAs. */
    private static final Pattern UNIT = Pattern.compile("(?:^|_)(\\d*)(MiB|GiB|GB|LBAs)(?:_|$)");

    /** The drive-database families whose unit-less labels ssdpulse knows. */
    enum Family {
        SANDFORCE,
        CRUCIAL_MICRON,
        SAMSUNG,
        SANDISK,
        SANDISK_CLOUDSPEED,
        SILICON_MOTION,
        INTEL,
        /** A family of the database whose labels ssdpulse takes as they are. */
        OTHER,
        /** A drive smartctl's database does not know: its attributes carry the database's default labels. */
        NOT_IN_DATABASE;

        /** From smartctl's {@code model_family} (the drive database's family name, absent for unknown drives). */
        static Family of(String modelFamily) {
            if (modelFamily == null) {
                return NOT_IN_DATABASE;
            }
            String f = modelFamily.toLowerCase(Locale.ROOT);
            if (f.startsWith("sandforce driven")) {
                return SANDFORCE;
            }
            if (f.startsWith("crucial/micron") || f.startsWith("micron ")) {
                return CRUCIAL_MICRON;
            }
            if (f.startsWith("samsung based")) {
                return SAMSUNG;
            }
            if (f.startsWith("sandisk sata cloudspeed") || f.startsWith("sandisk sata cs1k")) {
                return SANDISK_CLOUDSPEED;
            }
            if (f.contains("sandisk")) {
                return SANDISK;
            }
            if (f.startsWith("silicon motion based")) {
                return SILICON_MOTION;
            }
            if (f.contains("intel")) {
                return INTEL;
            }
            return OTHER;
        }
    }

    /**
     * The counter an attribute is, or null when it is not one write amplification uses.
     *
     * @param sectorBytes the drive's logical sector size (for LBA counts)
     */
    static SmartCounter interpret(Family family, int id, String name, BigInteger raw, long sectorBytes) {
        String source = "smartctl: " + id + " " + name;
        SmartCounter special = byFamily(family, id, name, raw, source);
        if (special != null) {
            return special;
        }
        if (DRIVE_WAF.matcher(name).matches()) {
            return new SmartCounter(CounterRole.DRIVE_WAF, source, raw, CounterUnit.vendor("drive's own scale"));
        }
        if (HOST_WRITES.matcher(name).matches()) {
            return new SmartCounter(CounterRole.HOST_WRITES, source, raw, unitOf(name, sectorBytes));
        }
        if (HOST_READS.matcher(name).matches()) {
            return new SmartCounter(CounterRole.HOST_READS, source, raw, unitOf(name, sectorBytes));
        }
        if (NAND_WRITES.matcher(name).matches() && !NOT_WRITES.matcher(name).matches()) {
            CounterRole role = PART.matcher(name).matches() ? CounterRole.NAND_WRITES_PART : CounterRole.NAND_WRITES;
            return new SmartCounter(role, source, raw, unitOf(name, sectorBytes));
        }
        return null;
    }

    private static SmartCounter byFamily(Family family, int id, String name, BigInteger raw, String source) {
        switch (family) {
            case SANDFORCE -> {
                if (id == 233 && name.equals("SandForce_Internal")) {
                    return new SmartCounter(CounterRole.NAND_WRITES, source, raw, CounterUnit.GIB);
                }
            }
            case CRUCIAL_MICRON -> {
                if (id == 247 && name.equals("Host_Program_Page_Count")) {
                    return new SmartCounter(CounterRole.NAND_WRITES_FOR_HOST, source, raw, CounterUnit.NAND_PAGE);
                }
                if (id == 248
                        && List.of("FTL_Program_Page_Count", "Bckgnd_Program_Page_Cnt")
                                .contains(name)) {
                    return new SmartCounter(CounterRole.NAND_WRITES_BACKGROUND, source, raw, CounterUnit.NAND_PAGE);
                }
            }
            case NOT_IN_DATABASE -> {
                // the database names no attribute of this drive: one at an id where other families count NAND writes
                // may well be one, in a unit nothing tells; it is reported as such so WA is refused, not guessed
                if (NAND_IDS.contains(id) && name.startsWith("Unknown")) {
                    return new SmartCounter(CounterRole.NAND_WRITES, source, raw, CounterUnit.UNKNOWN);
                }
            }
            default -> {}
        }
        return null;
    }

    /** The unit a label names; {@link CounterUnit#UNKNOWN} when it names none. */
    static CounterUnit unitOf(String name, long sectorBytes) {
        Matcher m = UNIT.matcher(name);
        if (HALF.matcher(name).matches()) {
            return CounterUnit.UNKNOWN;
        }
        if (!m.find()) {
            return CounterUnit.UNKNOWN;
        }
        long count = m.group(1).isEmpty() ? 1 : Long.parseLong(m.group(1));
        CounterUnit base = switch (m.group(2)) {
            case "MiB" -> CounterUnit.MIB;
            case "GiB" -> CounterUnit.GIB;
            case "GB" -> CounterUnit.GB;
            default -> CounterUnit.lba(sectorBytes);
        };
        if (count == 1) {
            return base;
        }
        if (count == 32 && base.equals(CounterUnit.MIB)) {
            return CounterUnit.MIB_32;
        }
        return new CounterUnit(count + " " + base.name(), Math.multiplyExact(count, base.bytes()));
    }
}

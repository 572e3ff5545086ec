package dev.ssdpulse.producer.smart;

/** What a drive counter counts, as far as write amplification is concerned. */
public enum CounterRole {
    /** Data the host wrote (NVMe Data Units Written, ATA 241 and its vendor variants). */
    HOST_WRITES,
    HOST_READS,
    /** Every NAND program (OCP Physical Media Units Written, SandForce 233, Intel 249). */
    NAND_WRITES,
    /** One part of the NAND programs, e.g. the TLC or the SLC writes; the parts add up to the NAND writes. */
    NAND_WRITES_PART,
    /** NAND programs of host data (Crucial/Micron 247 Host_Program_Page_Count). */
    NAND_WRITES_FOR_HOST,
    /** NAND programs of the drive's own moves (Crucial/Micron 248 FTL / background program pages). */
    NAND_WRITES_BACKGROUND,
    /** A write amplification the drive computes itself (SanDisk CloudSpeed 32/33; its scale is not published). */
    DRIVE_WAF
}

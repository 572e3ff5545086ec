package dev.ssdpulse.producer.device.guard;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Looks for partition tables and file-system / volume signatures in the first {@value #PROBE_BYTES} bytes of a
 * file or block device, read the same way for both (a plain buffered {@link FileChannel} read), so tests on files
 * exercise exactly the code that guards a device. The list follows blkid/wipefs magic positions for the common
 * formats; a format not in the list is not detected (the mount and holder checks still apply).
 */
public final class SignatureProbe {
    /** Covers the ZFS label-0 uberblock ring (128-256 KiB), the deepest magic checked. */
    public static final int PROBE_BYTES = 256 * 1024;

    private SignatureProbe() {}

    /** @return the names of the signatures found, e.g. "GPT partition table (\"EFI PART\" at 512)"; empty if none */
    public static List<String> probe(Path path) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(PROBE_BYTES);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            while (b.hasRemaining()) {
                if (ch.read(b, b.position()) < 0) {
                    break;
                }
            }
        }
        byte[] data = new byte[b.position()];
        b.flip().get(data);
        return probe(data);
    }

    /** Signatures in the given leading bytes of a target. */
    public static List<String> probe(byte[] d) {
        List<String> found = new ArrayList<>();
        if (ascii(d, 512, "EFI PART")) {
            found.add("GPT partition table (\"EFI PART\" at byte 512)");
        }
        if (ascii(d, 4096, "EFI PART")) {
            found.add("GPT partition table on 4Kn sectors (\"EFI PART\" at byte 4096)");
        }
        boolean fat = ascii(d, 54, "FAT12   ") || ascii(d, 54, "FAT16   ") || ascii(d, 82, "FAT32   ");
        boolean ntfs = ascii(d, 3, "NTFS    ");
        boolean exfat = ascii(d, 3, "EXFAT   ");
        if (fat) {
            found.add("FAT file system (\"FATxx\" label at byte 54/82)");
        }
        if (ntfs) {
            found.add("NTFS file system (\"NTFS    \" at byte 3)");
        }
        if (exfat) {
            found.add("exFAT file system (\"EXFAT   \" at byte 3)");
        }
        if (u8(d, 510) == 0x55 && u8(d, 511) == 0xAA && !fat && !ntfs && !exfat) {
            found.add("MBR partition table / boot sector (0x55AA at byte 510)");
        }
        if (u16le(d, 1080) == 0xEF53) {
            found.add("ext2/3/4 file system (magic 0xEF53 at byte 1080)");
        }
        if (ascii(d, 0, "XFSB")) {
            found.add("XFS file system (\"XFSB\" at byte 0)");
        }
        if (ascii(d, 65600, "_BHRfS_M")) {
            found.add("btrfs file system (\"_BHRfS_M\" at byte 65600)");
        }
        if (u32le(d, 1024) == 0xF2F52010L) {
            found.add("F2FS file system (magic 0xF2F52010 at byte 1024)");
        }
        for (int page : new int[] {4096, 8192, 16384, 65536}) {
            if (ascii(d, page - 10, "SWAPSPACE2") || ascii(d, page - 10, "SWAP-SPACE")) {
                found.add("Linux swap (\"SWAPSPACE2\" at byte " + (page - 10) + ")");
            }
        }
        if (bytes(d, 0, new byte[] {'L', 'U', 'K', 'S', (byte) 0xBA, (byte) 0xBE})) {
            found.add("LUKS encrypted volume (\"LUKS\\xba\\xbe\" at byte 0)");
        }
        if (bytes(d, 16384, new byte[] {'S', 'K', 'U', 'L', (byte) 0xBA, (byte) 0xBE})) {
            found.add("LUKS2 secondary header (\"SKUL\\xba\\xbe\" at byte 16384)");
        }
        for (int sector = 0; sector < 4; sector++) {
            if (ascii(d, sector * 512, "LABELONE")) {
                found.add("LVM2 physical volume (\"LABELONE\" at byte " + sector * 512 + ")");
            }
        }
        if (u32le(d, 0) == 0xA92B4EFCL || u32le(d, 4096) == 0xA92B4EFCL) {
            found.add("Linux MD RAID v1.1/1.2 member (magic 0xa92b4efc at byte 0 or 4096)");
        }
        if (ascii(d, 0, "hsqs")) {
            found.add("squashfs (\"hsqs\" at byte 0)");
        }
        if (ascii(d, 32769, "CD001")) {
            found.add("ISO 9660 image (\"CD001\" at byte 32769)");
        }
        for (int off = 128 * 1024; off + 8 <= 256 * 1024; off += 1024) {
            long le = u64le(d, off);
            if (le == 0x00BAB10CL || le == Long.reverseBytes(0x00BAB10CL)) {
                found.add("ZFS pool member (uberblock magic 0x00bab10c at byte " + off + ")");
                break;
            }
        }
        return found;
    }

    private static boolean ascii(byte[] d, int off, String s) {
        return bytes(d, off, s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static boolean bytes(byte[] d, int off, byte[] m) {
        if (off + m.length > d.length) {
            return false;
        }
        for (int i = 0; i < m.length; i++) {
            if (d[off + i] != m[i]) {
                return false;
            }
        }
        return true;
    }

    private static int u8(byte[] d, int off) {
        return off < d.length ? d[off] & 0xFF : -1;
    }

    private static int u16le(byte[] d, int off) {
        return off + 2 <= d.length ? (d[off] & 0xFF) | (d[off + 1] & 0xFF) << 8 : -1;
    }

    private static long u32le(byte[] d, int off) {
        return off + 4 <= d.length
                ? ByteBuffer.wrap(d, off, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFFFFFFL
                : -1;
    }

    private static long u64le(byte[] d, int off) {
        return off + 8 <= d.length
                ? ByteBuffer.wrap(d, off, 8).order(ByteOrder.LITTLE_ENDIAN).getLong()
                : -1;
    }
}

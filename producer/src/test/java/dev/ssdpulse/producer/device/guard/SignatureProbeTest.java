package dev.ssdpulse.producer.device.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SignatureProbeTest {
    @TempDir
    Path dir;

    static byte[] image(int size, int offset, byte... magic) {
        byte[] b = new byte[size];
        System.arraycopy(magic, 0, b, offset, magic.length);
        return b;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private List<String> probeFile(byte[] content) throws Exception {
        Path f = dir.resolve("img-" + System.nanoTime());
        Files.write(f, content);
        return SignatureProbe.probe(f);
    }

    @Test
    void detectsEachSignatureReadFromAFile() throws Exception {
        int size = 512 * 1024;
        assertThat(probeFile(image(size, 510, (byte) 0x55, (byte) 0xAA)))
                .singleElement()
                .asString()
                .startsWith("MBR");
        assertThat(probeFile(image(size, 512, ascii("EFI PART"))))
                .singleElement()
                .asString()
                .startsWith("GPT");
        assertThat(probeFile(image(size, 4096, ascii("EFI PART"))))
                .singleElement()
                .asString()
                .contains("4Kn");
        assertThat(probeFile(image(size, 1080, (byte) 0x53, (byte) 0xEF)))
                .singleElement()
                .asString()
                .startsWith("ext2/3/4");
        assertThat(probeFile(image(size, 0, ascii("XFSB"))))
                .singleElement()
                .asString()
                .startsWith("XFS");
        assertThat(probeFile(image(size, 65600, ascii("_BHRfS_M"))))
                .singleElement()
                .asString()
                .startsWith("btrfs");
        assertThat(probeFile(image(size, 4086, ascii("SWAPSPACE2"))))
                .singleElement()
                .asString()
                .startsWith("Linux swap");
        assertThat(probeFile(image(size, 0, ascii("LUKS\u00ba\u00be"))))
                .singleElement()
                .asString()
                .startsWith("LUKS");
        assertThat(probeFile(image(size, 512, ascii("LABELONE"))))
                .singleElement()
                .asString()
                .startsWith("LVM2");
        assertThat(probeFile(image(size, 1024, (byte) 0x10, (byte) 0x20, (byte) 0xF5, (byte) 0xF2)))
                .singleElement()
                .asString()
                .startsWith("F2FS");
        assertThat(probeFile(image(size, 4096, (byte) 0xFC, (byte) 0x4E, (byte) 0x2B, (byte) 0xA9)))
                .singleElement()
                .asString()
                .startsWith("Linux MD RAID");
        assertThat(probeFile(image(size, 128 * 1024 + 3072, (byte) 0x0C, (byte) 0xB1, (byte) 0xBA, (byte) 0)))
                .singleElement()
                .asString()
                .startsWith("ZFS");
    }

    @Test
    void bootSectorsOfNtfsAndFatAreNamedAsFileSystems() throws Exception {
        byte[] ntfs = image(8192, 3, ascii("NTFS    "));
        ntfs[510] = 0x55;
        ntfs[511] = (byte) 0xAA;
        assertThat(probeFile(ntfs)).singleElement().asString().startsWith("NTFS");
        byte[] fat = image(8192, 82, ascii("FAT32   "));
        fat[510] = 0x55;
        fat[511] = (byte) 0xAA;
        assertThat(probeFile(fat)).singleElement().asString().startsWith("FAT");
    }

    @Test
    void blankOrRandomDataHasNoSignatureAndShortFilesAreFine() throws Exception {
        assertThat(probeFile(new byte[1 << 20])).isEmpty();
        byte[] random = new byte[1 << 20];
        new Random(1).nextBytes(random);
        random[510] = 0; // the only 1-in-65536 two-byte check
        assertThat(probeFile(random)).isEmpty();
        assertThat(probeFile(new byte[100])).isEmpty();
    }
}

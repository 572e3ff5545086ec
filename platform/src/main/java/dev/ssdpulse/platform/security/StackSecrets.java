package dev.ssdpulse.platform.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;

/**
 * The generated passwords of a secured stack: one per {@link StackUser} and one for the key and trust stores. Made
 * once, kept in {@value #FILE_NAME} (owner-only) so that a restart keeps the credentials that the brokers'
 * metadata and the users' properties files hold.
 */
public record StackSecrets(String storePassword, Map<StackUser, String> passwords) {
    public static final String FILE_NAME = "secrets.properties";
    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    /** 24 symbols of 57: ~140 bits. Letters and digits only, so no quoting in JAAS lines or SCRAM arguments. */
    private static final int PASSWORD_LENGTH = 24;

    public StackSecrets {
        passwords = Map.copyOf(passwords);
        for (StackUser user : StackUser.values()) {
            if (!passwords.containsKey(user)) {
                throw new IllegalArgumentException("no password for user " + user.userName());
            }
        }
    }

    public String password(StackUser user) {
        return passwords.get(user);
    }

    static StackSecrets generate(SecureRandom random) {
        Map<StackUser, String> passwords = new EnumMap<>(StackUser.class);
        for (StackUser user : StackUser.values()) {
            passwords.put(user, randomPassword(random));
        }
        return new StackSecrets(randomPassword(random), passwords);
    }

    static String randomPassword(SecureRandom random) {
        StringBuilder s = new StringBuilder(PASSWORD_LENGTH);
        for (int i = 0; i < PASSWORD_LENGTH; i++) {
            s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return s.toString();
    }

    /** The secrets in {@code dir}, generated and written (owner-only) when there are none yet. */
    static StackSecrets loadOrCreate(Path dir, SecureRandom random) {
        Path file = dir.resolve(FILE_NAME);
        if (Files.exists(file)) {
            return read(file);
        }
        StackSecrets secrets = generate(random);
        Properties p = new Properties();
        p.setProperty("store.password", secrets.storePassword());
        secrets.passwords()
                .forEach((user, password) -> p.setProperty("user." + user.userName() + ".password", password));
        SecureFiles.writeOwnerOnly(
                file,
                SecureFiles.propertiesText(
                        p,
                        "ssdpulse secured stack: generated passwords (delete the whole secure/ directory with the data "
                                + "directory to start afresh)"));
        return secrets;
    }

    private static StackSecrets read(Path file) {
        Properties p = new Properties();
        try (var reader = Files.newBufferedReader(file)) {
            p.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        String store = required(p, "store.password", file);
        Map<StackUser, String> passwords = new EnumMap<>(StackUser.class);
        for (StackUser user : StackUser.values()) {
            passwords.put(user, required(p, "user." + user.userName() + ".password", file));
        }
        return new StackSecrets(store, passwords);
    }

    private static String required(Properties p, String key, Path file) {
        String value = p.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(file + " lacks " + key + " (the secured stack's credentials are "
                    + "incomplete; restore the file, or delete the data directory to start afresh)");
        }
        return value.trim();
    }

    @Override
    public String toString() {
        // never print a password, not even in a debugger's or a log's toString
        return "StackSecrets[" + passwords.size() + " users, passwords hidden]";
    }
}

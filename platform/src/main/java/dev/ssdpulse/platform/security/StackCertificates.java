package dev.ssdpulse.platform.security;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The TLS material of a secured stack: a CA of its own and one server certificate it signed, for the brokers and the
 * schema registry on 127.0.0.1 / localhost (subject alternative names, so hostname verification stays on).
 *
 * <p>Generated in this JVM with Bouncy Castle's certificate builder (the JDK has a public API to read certificates
 * but none to issue one): no keytool child processes (eight JVM starts, seconds on two cores) and the same code on
 * every platform. EC P-256 keys: generated in milliseconds, supported by every Kafka and HTTP client in use.
 *
 * <p>Files in the directory: {@value #KEYSTORE} (the server key and its chain: server, CA), {@value #TRUSTSTORE}
 * (the CA only), both PKCS12 with the stack's store password, and {@value #CA_PEM} (the CA in PEM, for clients
 * that take a PEM file: librdkafka's {@code ssl.ca.location}, curl's {@code --cacert}). The CA's private key is not
 * kept: nothing else is ever signed with it.
 */
public final class StackCertificates {
    public static final String KEYSTORE = "keystore.p12";
    public static final String TRUSTSTORE = "truststore.p12";
    public static final String CA_PEM = "ca.crt";
    static final String SERVER_ALIAS = "ssdpulse-server";
    static final String CA_ALIAS = "ssdpulse-ca";
    private static final Duration VALIDITY = Duration.ofDays(3650);
    /** A certificate this close to expiring is replaced at the next start rather than failing during a run. */
    private static final Duration RENEW_BEFORE = Duration.ofDays(30);

    private static final String SIGNATURE = "SHA256withECDSA";

    private final Path keystore;
    private final Path truststore;
    private final Path caPem;

    private StackCertificates(Path dir) {
        this.keystore = dir.resolve(KEYSTORE);
        this.truststore = dir.resolve(TRUSTSTORE);
        this.caPem = dir.resolve(CA_PEM);
    }

    /**
     * The certificates in {@code dir}, created when missing or about to expire; existing valid ones are kept, so
     * clients that trust the CA go on trusting the stack after a restart.
     */
    public static StackCertificates loadOrCreate(Path dir, String storePassword, SecureRandom random) {
        StackCertificates certs = new StackCertificates(dir);
        if (!certs.usable(storePassword)) {
            certs.generate(storePassword, random);
        }
        return certs;
    }

    public Path keystore() {
        return keystore;
    }

    public Path truststore() {
        return truststore;
    }

    public Path caPem() {
        return caPem;
    }

    /** The server certificate (first of the keystore's chain). */
    public X509Certificate serverCertificate(String storePassword) {
        try {
            return (X509Certificate) load(keystore, storePassword).getCertificate(SERVER_ALIAS);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read " + keystore + ": " + e.getMessage(), e);
        }
    }

    private boolean usable(String storePassword) {
        if (!Files.exists(keystore) || !Files.exists(truststore) || !Files.exists(caPem)) {
            return false;
        }
        try {
            X509Certificate server =
                    (X509Certificate) load(keystore, storePassword).getCertificate(SERVER_ALIAS);
            if (server == null) {
                return false;
            }
            server.checkValidity(Date.from(Instant.now().plus(RENEW_BEFORE)));
            return load(truststore, storePassword).getCertificate(CA_ALIAS) != null;
        } catch (GeneralSecurityException e) {
            // expired, or a store this password does not open: make a new pair of stores
            return false;
        }
    }

    private void generate(String storePassword, SecureRandom random) {
        try {
            KeyPair caKeys = ecKeyPair(random);
            KeyPair serverKeys = ecKeyPair(random);
            Instant now = Instant.now();
            X500Name caName = new X500Name("CN=ssdpulse local stack CA " + now.getEpochSecond() + ",O=ssdpulse");
            X509Certificate ca = ca(caName, caKeys, now, random);
            X509Certificate server = server(caName, caKeys, serverKeys, ca, now, random);

            char[] password = storePassword.toCharArray();
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry(SERVER_ALIAS, serverKeys.getPrivate(), password, new Certificate[] {server, ca});
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry(CA_ALIAS, ca);
            SecureFiles.writeOwnerOnly(keystore, store(keys, password));
            SecureFiles.writeOwnerOnly(truststore, store(trust, password));
            SecureFiles.writeOwnerOnly(caPem, pem(ca));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException(
                    "cannot generate the stack's certificates in " + keystore.getParent() + ": " + e, e);
        }
    }

    private static X509Certificate ca(X500Name name, KeyPair keys, Instant now, SecureRandom random)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                        name,
                        serial(random),
                        Date.from(now.minus(Duration.ofHours(1))),
                        Date.from(now.plus(VALIDITY)),
                        name,
                        keys.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
        return sign(b, keys);
    }

    private static X509Certificate server(
            X500Name caName, KeyPair caKeys, KeyPair keys, X509Certificate ca, Instant now, SecureRandom random)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        // the clients connect to 127.0.0.1 (what the stack advertises) or localhost: both are names of this certificate
        GeneralNames san = new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")
        });
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                        caName,
                        serial(random),
                        Date.from(now.minus(Duration.ofHours(1))),
                        Date.from(now.plus(VALIDITY)),
                        new X500Name("CN=localhost,O=ssdpulse"),
                        keys.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
                // clientAuth too: the brokers present it when they connect to each other's listeners
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                    KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                }))
                .addExtension(Extension.subjectAlternativeName, false, san)
                .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()))
                .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca));
        return sign(b, caKeys);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
            throws GeneralSecurityException, OperatorCreationException {
        ContentSigner contentSigner = new JcaContentSignerBuilder(SIGNATURE).build(signer.getPrivate());
        X509CertificateHolder holder = builder.build(contentSigner);
        return new JcaX509CertificateConverter().getCertificate(holder);
    }

    private static KeyPair ecKeyPair(SecureRandom random) throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"), random);
        return g.generateKeyPair();
    }

    private static BigInteger serial(SecureRandom random) {
        return new BigInteger(120, random).add(BigInteger.ONE);
    }

    private static byte[] store(KeyStore store, char[] password) throws GeneralSecurityException, IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        store.store(out, password);
        return out.toByteArray();
    }

    static KeyStore load(Path file, String password) throws GeneralSecurityException {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password.toCharArray());
            return store;
        } catch (IOException e) {
            // a wrong password surfaces as an IOException from PKCS12
            throw new GeneralSecurityException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    private static String pem(X509Certificate cert) throws GeneralSecurityException {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(cert.getEncoded());
        return "-----BEGIN CERTIFICATE-----\n" + body + "\n-----END CERTIFICATE-----\n";
    }
}
